// A stage's forward pass in execution order: model head (first stage), one entry per layer
// group (each op carries its own count), model tail (last stage), the hand-off to the next
// stage, and the engine's host time.
#include "ops/builders.hpp"
#include "ops/lower.hpp"

namespace envelope {

std::vector<Op> lower_forward(const LowerInput& in) {
    std::vector<Op> ops;
    ops.reserve(24 + 16 * in.stage.groups.size());
    if (in.stage.first) lower_model_head(in, ops);
    for (const LayerGroup& g : in.stage.groups) lower_layers(in, g, ops);
    if (in.stage.last) {
        lower_model_tail(in, ops);
    } else {
        // Point-to-point send of this chip's residual stream to the same TP rank of the next
        // stage (Megatron-LM p2p_communication; under SP each rank sends its shard).
        const double bytes = in.stream_tokens() * static_cast<double>(in.model.hidden) *
                             bytes_per_element(in.precision.residual);
        ops.push_back(build::collective("stage_send", 1, CollectiveKind::send_recv, constant(bytes), ParallelDim::pp,
                                        in.parallelism.pp, in.precision.residual));
    }
    lower_engine_step(in, ops);
    return ops;
}

void lower_engine_step(const LowerInput& /*in*/, std::vector<Op>& out) {
    Op step;
    step.name = "engine_step";
    step.cls = OpClass::host;
    step.precision = Precision::fp32;
    step.count = 1;
    out.push_back(step);
}

}  // namespace envelope
