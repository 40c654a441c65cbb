#pragma once
// The largest static batch that fits in memory (offline maximum-throughput serving).
#include <cstdint>

#include "scenario.hpp"

namespace envelope {

// The largest batch in [1, workload batch limit] whose inference memory per chip fits the
// chip's capacity; 0 when not even one sequence fits. Memory grows with the batch, so a
// bisection finds it in about 24 evaluations of the memory model.
int64_t largest_batch_that_fits(const Scenario& s);

}  // namespace envelope
