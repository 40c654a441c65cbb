#pragma once
// The result of an evaluation as JSON (the format the CLI prints and the wasm module
// returns). Field names carry their unit; see core/SCHEMA.md.
#include "io/json.hpp"
#include "network/span.hpp"
#include "result.hpp"
#include "scenario.hpp"

namespace envelope {

// {"ok": true, "version", "scenario" (resolved), "summary", "pipeline", "memory", "phases",
//  "network", "warnings"}
Json to_json(const Result& r, const Scenario& s);

// The training parts of a result (io/training_result_json.cpp).
Json training_summary_json(const TrainingSummary& t);
// {"stage" (the one that needs the most), its parts, "stages": every stage's parts}.
Json training_memory_json(const std::vector<TrainingMemory>& stages, const std::optional<FitAdvice>& advice);

// A group's spans: [{"level": index, "name", "dim" (torus only), "size"}].
Json spans_json(const Spans& spans);

// {"ok": false, "error": {"path", "message"}}
Json error_json(const std::string& path, const std::string& message);

}  // namespace envelope
