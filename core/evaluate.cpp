#include "evaluate.hpp"

#include <stdexcept>

#include "common/error.hpp"
#include "cost/workload_cost.hpp"
#include "inference/check.hpp"
#include "inference/disaggregated.hpp"
#include "inference/evaluate.hpp"
#include "inference/lengths.hpp"
#include "inference/open_loop.hpp"
#include "inference/serving.hpp"
#include "parallel/check.hpp"
#include "training/check.hpp"
#include "training/evaluate.hpp"

namespace envelope {

void check_scenario(const Scenario& s) {
    if (s.disaggregated) return check_disaggregated(s);  // each pool's worker, as its own scenario
    check_parallelism(s.parallelism, s.model, s.system);
    if (s.workload.kind == WorkloadKind::inference) check_inference(s);
    if (s.workload.kind == WorkloadKind::training) check_training(s);
}

namespace {

// One inference scenario whose requests all have its integer lengths.
Result evaluate_serving(const Scenario& s) {
    if (s.workload.inference.mode == ServingMode::concurrency) return evaluate_concurrency(s);
    if (s.workload.inference.mode == ServingMode::server) return evaluate_server(s);
    return evaluate_inference(s);
}

Result evaluate_performance(const Scenario& s) {
    if (s.workload.kind == WorkloadKind::training) return evaluate_training(s);
    if (s.disaggregated) return evaluate_disaggregated(s);
    if (s.workload.inference.lengths.on()) return evaluate_lengths(s, evaluate_serving);
    return evaluate_serving(s);
}

}  // namespace

Result evaluate(const Scenario& s) {
    Result r = evaluate_performance(s);
    r.cost = workload_cost(s, r);
    return r;
}

const PhaseReport& Result::phase(const std::string& name) const {
    for (const PhaseReport& p : phases) {
        if (name == p.name()) return p;
    }
    throw std::out_of_range("no phase " + name);
}

}  // namespace envelope
