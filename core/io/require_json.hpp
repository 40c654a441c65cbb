#pragma once
// The requirement-analysis request and answer (`envelope require`, api.hpp require_json;
// SCHEMA.md "Requirement analysis"). Request: {"scenario", "slo": {…}}; errors name the field
// and its range ("slo.tpot_ms"); the scenario's are prefixed "scenario.".
#include "io/json.hpp"

namespace envelope {

Json require_document(const Json& request);

}  // namespace envelope
