#include "inference/check.hpp"

#include <string>

#include "common/error.hpp"
#include "parallel/check.hpp"

namespace envelope {

namespace {

std::string str(int64_t v) { return std::to_string(v); }

// The format a matmul of operands a and b runs in must have a peak on this chip. The
// error names whichever operand forces that format.
void check_math_format(const Chip& chip, Precision a, const char* a_path, Precision b,
                       const char* b_path, const char* what) {
    const Precision math = wider(a, b);
    if (chip.peak(math)) return;
    const char* path = math == a ? a_path : b_path;
    throw InputError(path, std::string(what) + " would run in " + std::string(to_string(math)) +
                               ", but chip " + chip.name + " has no " +
                               std::string(to_string(element_format(math))) + " peak");
}

void check_mapping(const Parallelism& p, const InferenceWorkload& w) {
    if (p.cp > 1) throw InputError("parallelism.cp", "context parallelism is not modelled for inference yet");
    if (p.zero != 0) throw InputError("parallelism.zero", "ZeRO shards training state; inference has none (use 0)");
    if (p.schedule != PipelineSchedule::one_f_one_b) {
        throw InputError("parallelism.schedule", "pipeline schedules are for training; inference runs its "
                                                 "micro-batches through the stages (leave \"1f1b\")");
    }
    if (p.virtual_stages != 1) {
        throw InputError("parallelism.virtual_stages", "interleaved stages are a training schedule; inference uses 1");
    }
    if (p.micro_batches > w.batch) {
        throw InputError("parallelism.micro_batches", str(p.micro_batches) + " micro-batches need at least as many "
                                                      "sequences; workload.batch = " + str(w.batch));
    }
}

// The drafter runs on the target's chips, split the same way; pipelines are not modelled with it.
void check_speculative(const Scenario& s) {
    const Speculative& sp = s.workload.inference.speculative;
    if (!sp.on()) return;
    if (s.parallelism.pp > 1) {
        throw InputError("workload.speculative", "speculative decoding is modelled without pipeline stages (pp = 1)");
    }
    if (!sp.draft) return;
    try {
        check_parallelism(s.parallelism, *sp.draft, s.system);
    } catch (const InputError& e) {
        throw InputError("workload.speculative.draft_model",
                         std::string("the draft model runs on the same chips and mapping: ") + e.what());
    }
}

}  // namespace

void check_inference(const Scenario& s) {
    const InferenceWorkload& w = s.workload.inference;
    check_mapping(s.parallelism, w);
    check_speculative(s);
    if (w.kv_offload > 0 && s.system.host.link_gbps <= 0) {
        throw InputError("system.host.link_gbps", "an offloaded KV cache is read over each chip's host link: it must be "
                                                  "> 0 (this system describes no host)");
    }
    const PrecisionPlan& p = w.precision;
    check_math_format(s.system.chip, p.activations, "workload.precision.activations", p.weights,
                      "workload.precision.weights", "linear layers");
    check_math_format(s.system.chip, p.residual, "workload.precision.residual", p.kv_cache,
                      "workload.precision.kv_cache", "attention");
}

}  // namespace envelope
