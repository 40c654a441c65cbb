#pragma once
// The result of an evaluation as JSON (the format the CLI prints and the wasm module
// returns). Field names carry their unit; see core/SCHEMA.md.
#include "inference/result.hpp"
#include "io/json.hpp"
#include "scenario.hpp"

namespace envelope {

// {"ok": true, "version", "scenario" (resolved), "summary", "memory", "phases", "warnings"}
Json to_json(const InferenceResult& r, const Scenario& s);

// {"ok": false, "error": {"path", "message"}}
Json error_json(const std::string& path, const std::string& message);

}  // namespace envelope
