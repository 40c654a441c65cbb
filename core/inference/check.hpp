#pragma once
// Combinations of valid fields that still make no sense together, reported as
// InputError with the path of the field to change.
#include "scenario.hpp"

namespace envelope {

// Throws InputError for: TP not dividing the query heads; TP and KV heads where neither
// divides the other; TP larger than the system or than its innermost network level;
// TP > 1 with no network; a matmul format the chip has no peak for.
void check_inference(const Scenario& s);

}  // namespace envelope
