#pragma once
// The largest static batch that fits in memory (offline maximum-throughput serving).
#include <cstdint>

#include "scenario.hpp"

namespace envelope {

// The largest batch in [1, the schema's batch limit] whose KV cache fits the engine's KV
// budget (memory/inference_memory.hpp); 0 when not even one sequence fits. The cache grows
// with the batch and the budget does not, so a bisection finds it in about 24 evaluations
// of the memory model.
int64_t largest_batch_that_fits(const Scenario& s);

}  // namespace envelope
