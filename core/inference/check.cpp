#include "inference/check.hpp"

#include <string>

#include "common/error.hpp"
#include "parallel/placement.hpp"

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
                               std::string(to_string(math)) + " peak");
}

}  // namespace

void check_inference(const Scenario& s) {
    const Model& m = s.model;
    const int64_t tp = s.workload.parallelism.tp;
    const char* tp_path = "workload.parallelism.tp";

    if (m.heads % tp != 0) {
        throw InputError(tp_path, "TP = " + str(tp) + " must divide model.heads = " + str(m.heads));
    }
    if (m.kv_heads % tp != 0 && tp % m.kv_heads != 0) {
        throw InputError(tp_path, "TP = " + str(tp) + " and model.kv_heads = " + str(m.kv_heads) +
                                      ": one must divide the other");
    }
    if (tp > s.system.count) {
        throw InputError(tp_path, "TP = " + str(tp) + " needs more chips than system.count = " +
                                      str(s.system.count));
    }
    if (tp > 1) {
        if (s.system.network.levels.empty()) {
            throw InputError("system.network", "TP = " + str(tp) + " needs at least one network level");
        }
        if (!level_for_group(s.system.network, tp)) {
            throw InputError(tp_path,
                             "TP = " + str(tp) + " spans more than the innermost network level "
                             "(system.network[0].size = " + str(s.system.network.levels[0].size) +
                             "); TP across network levels is not modelled yet");
        }
    }

    const PrecisionPlan& p = s.workload.precision;
    check_math_format(s.system.chip, p.activations, "workload.precision.activations", p.weights,
                      "workload.precision.weights", "linear layers");
    check_math_format(s.system.chip, p.residual, "workload.precision.residual", p.kv_cache,
                      "workload.precision.kv_cache", "attention");
}

}  // namespace envelope
