#pragma once
// The model's prediction of a measured case's primary metric, in the metric's own unit.
#include "validation/measured_case.hpp"

namespace envelope {

// Throws SkipCase when the case's scenario is rejected by the schema (the reason names
// the field) or the metric cannot be predicted for it.
double predict_case(const MeasuredCase& c);

}  // namespace envelope
