#pragma once
// The core's front door: JSON in, JSON out. Used by the CLI and the wasm facade, so
// both give the same answer for the same input.
#include <string>
#include <string_view>

#include "io/json.hpp"

namespace envelope {

// Parse, validate and evaluate a scenario document. Throws InputError on bad input.
Json evaluate_document(const Json& scenario);

// Never throws: bad input and internal failures come back as
// {"ok": false, "error": {"path": ..., "message": ...}}.
std::string evaluate_json(std::string_view scenario_text);

// For an inference scenario, "does it fit?": {"ok": true, "fits", "largest_batch",
// "longest_context", "fewest_chips": {"tp", "pp", "chips"} | null} (explore/fit.hpp).
// Never throws.
std::string fit_json(std::string_view scenario_text);

// For an inference scenario, throughput against per-user speed as the batch grows:
// {"ok": true, "batch" (the scenario's), "points": [{"batch", "output_tokens_per_s_per_chip",
// "output_tokens_per_s_per_user", "ttft_s", "tpot_s", "fits"}, ...]} (explore/fit.hpp).
// Never throws.
std::string curve_json(std::string_view scenario_text);

// An inference scenario evaluated along one axis in one call (io/sweep_json.hpp,
// explore/sweep.hpp): {"scenario", "axis", "values" | "range"} in; {"ok": true, "axis",
// "current", "points": [...]} out, a point the checks refuse marked with its error. Never throws.
std::string sweep_json(std::string_view request_text);

// A configuration search (io/search_json.hpp, explore/): {"search": "training" | "serving",
// "scenario", "chips", "space", "rank" | "slo", "request_rate", "top"} in; the best
// configurations, the Pareto front and what the search counted out. Never throws.
std::string search_json(std::string_view request_text);

// Requirement analysis (io/require_json.hpp, explore/requirement.hpp): {"scenario", "slo"} in;
// the least peak FLOP/s, HBM bandwidth and capacity, scale-up and scale-out bandwidth that
// meet it, each alone, and which binds. Never throws.
std::string require_json(std::string_view request_text);

// Hardware knobs swept against performance and cost (explore/trade_off.hpp, io/tradeoff_json.hpp):
// {"scenario", "knobs": [{"knob", "values"}, ...]} in; {"ok": true, "workload", "knobs",
// "base_package_usd", "points": [{"setting", "ok", "fits", "pareto", ...}]} out. Never throws.
std::string tradeoff_json(std::string_view request_text);

// One accelerator package's manufacturing cost by part (cost/package.hpp). Never throws.
std::string package_cost_json(std::string_view package_text);

// Never throws: {"ok": true, "version", "model": document, "notes": [...], "params",
// "active_params"} or {"ok": false, "error": {"path", "message"}}.
std::string import_hf_config_json(std::string_view config_text, std::string_view name = {});

// One collective on a system, nccl-tests style (io/collective_json.hpp). Never throws.
std::string collective_json(std::string_view request_text);

// All presets: {"ok": true, "version", "models": {...}, "chips": {...}, ...}.
std::string presets_json();

// The model scored on measured cases, as `envelope validate --json` prints it, plus "ok":
// true: on `cases_text` (a JSON array in the format of presets/measured/FORMAT.md), or, when it
// is empty, on the bundled cases (computed once per process). The wasm module bundles none (the
// page fetches presets/measured/cases.json): there an empty text is an error value. Never throws.
std::string validation_json(std::string_view cases_text = {});

}  // namespace envelope
