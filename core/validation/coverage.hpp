#pragma once
// Which regimes the measured cases cover, and how well (issue 18's coverage table): for every
// regime a case can be in — its kind and mode, architecture, engine, framework, fabric, chip —
// how many public cases there are, how many are scored and their error. A regime with cases
// but none scored is unvalidated: the product claims it and no measurement checks it.
#include <string>
#include <vector>

#include "io/json.hpp"
#include "validation/validate.hpp"

namespace envelope {

// The regimes of one case document, as (regime, value) pairs. Unknown parts read "unknown".
std::vector<std::pair<std::string, std::string>> regimes_of(const Json& case_doc);

// One row per (regime, value) that any case has, sorted by regime then value; `errors` are
// the scored cases' errors, found by id. (CoverageRow is in validate.hpp: a report holds them.)
std::vector<CoverageRow> coverage_of(const Json& cases, const std::vector<ScoredCase>& scored);

}  // namespace envelope
