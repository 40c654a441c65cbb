#pragma once
// Combinations of valid fields that make no sense for an inference workload, reported as
// InputError with the path of the field to change.
#include "scenario.hpp"

namespace envelope {

// Throws InputError for: a parallel dimension or option inference does not model yet or
// at all (cp > 1; ZeRO, virtual stages, a schedule other than the default); more micro-batches than
// sequences; a matmul format the chip has no peak for.
void check_inference(const Scenario& s);

}  // namespace envelope
