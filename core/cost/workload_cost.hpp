#pragma once
// What a modelled workload costs: dollars per token or per step at the modelled
// throughput, and the energy it draws (cost/power.hpp). METHODOLOGY.md § Cost and energy.
//
// Inference is costed over one cycle of the deployment: the static batch from its prefill
// to its last token, or (continuous batching) the time in which N slots prefill N requests
// and run their decode steps. Input tokens pay for the prefill's share of the cycle, output
// tokens for the decode steps' share; the first output token comes with the prefill.
// Training is costed per step, and over workload.train_tokens when it is given.
#include "cost/report.hpp"
#include "result.hpp"
#include "scenario.hpp"

namespace envelope {

CostReport workload_cost(const Scenario& s, const Result& r);

}  // namespace envelope
