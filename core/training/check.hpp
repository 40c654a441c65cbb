#pragma once
// Combinations of valid fields that make no sense for a training workload, reported as
// InputError with the path of the field to change.
#include "scenario.hpp"

namespace envelope {

// Throws for: a global batch that is not a whole number of micro-batches on every
// replica; a sequence the context-parallel (and, under SP, tensor-parallel) chips cannot
// split evenly; interleaving without a pipeline (pp ≥ 2) or with more chunks than layers; a
// micro-batch count that disagrees with the batch sizes; a GEMM format the chip has no peak
// for.
void check_training(const Scenario& s);

// Micro-batches per step on each replica: global batch ÷ (micro-batch × DP).
int64_t training_micro_batches(const Scenario& s);

}  // namespace envelope
