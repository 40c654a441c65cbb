#include "evaluate.hpp"

#include <stdexcept>

#include "common/error.hpp"
#include "inference/check.hpp"
#include "inference/evaluate.hpp"
#include "parallel/check.hpp"

namespace envelope {

void check_scenario(const Scenario& s) {
    check_parallelism(s.parallelism, s.model, s.system);
    if (s.workload.kind == WorkloadKind::inference) check_inference(s);
}

Result evaluate(const Scenario& s) {
    if (s.workload.kind == WorkloadKind::training) {
        throw InputError("workload.kind", "training scenarios are read and checked, but the training model "
                                          "(time per step, memory with optimizer state) is not built yet");
    }
    return evaluate_inference(s);
}

const PhaseReport& Result::phase(const std::string& name) const {
    for (const PhaseReport& p : phases) {
        if (name == p.name) return p;
    }
    throw std::out_of_range("no phase " + name);
}

}  // namespace envelope
