// The whole forward pass in execution order: model head, one entry per distinct layer
// type (each op carries its own count), model tail, and the engine's host time.
#include "ops/lower.hpp"

namespace envelope {

std::vector<Op> lower_forward(const LowerInput& in) {
    std::vector<Op> ops;
    ops.reserve(24);
    lower_model_head(in, ops);
    lower_dense_layer(in, ops);
    lower_model_tail(in, ops);
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
