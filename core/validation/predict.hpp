#pragma once
// The model's prediction of a measured case's primary metric, in the metric's own unit.
#include "validation/measured_case.hpp"

namespace envelope {

// Throws SkipCase when the case's scenario is rejected by the schema (the reason names
// the field) or the metric cannot be predicted for it.
// `scenario` (optional) receives what was evaluated: the scenario of an inference case (with
// the largest batch filled in when the case asks for it), the request of a collective case
// ({"system", "op", "chips", "stride", "bytes", "algorithm"}, as io/collective_json.hpp reads it).
double predict_case(const MeasuredCase& c, Json* scenario = nullptr);

}  // namespace envelope
