#pragma once
// One training step of a dense decoder: per-stage forward and backward operators
// (ops/lower.hpp, ops/backward.hpp), the step's time (training/step.hpp), memory per stage
// (memory/training_memory.hpp), FLOPs and utilisation (training/flops.hpp).
#include "result.hpp"
#include "scenario.hpp"

namespace envelope {

// Precondition: check_scenario(s) passed and s.workload.kind == training.
Result evaluate_training(const Scenario& s);

}  // namespace envelope
