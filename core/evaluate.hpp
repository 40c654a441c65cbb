#pragma once
// One evaluation of a scenario, whatever its workload.
#include "result.hpp"
#include "scenario.hpp"

namespace envelope {

// Throws InputError when the parts of a scenario, each valid alone, do not fit together
// (parallel/check.hpp, inference/check.hpp).
void check_scenario(const Scenario& s);

// Precondition: check_scenario(s) passed. Training scenarios throw InputError: their
// shape is parsed and echoed, the training model is not there yet.
Result evaluate(const Scenario& s);

}  // namespace envelope
