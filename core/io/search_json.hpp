#pragma once
// The configuration search request and answer (`envelope search`, api.hpp search_json;
// SCHEMA.md "Search request"). Errors name the field and its range ("space.tp[2]",
// "slo.ttft_ms", "chips").
#include "io/json.hpp"

namespace envelope {

// Parses the request, runs the search it names (explore/training_search.hpp,
// explore/serving_search.hpp) and writes the answer. Throws InputError; the scenario's own
// errors are prefixed "scenario.".
Json search_document(const Json& request);

}  // namespace envelope
