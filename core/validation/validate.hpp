#pragma once
// `envelope validate`: predict every measured case of a file and score the predictions.
//
// Every case ends scored or skipped, never failing the run: a case the model cannot
// express yet is skipped with the reason.
#include <map>
#include <string>
#include <vector>

#include "io/json.hpp"

namespace envelope {

struct ScoredCase {
    std::string id;
    std::string kind;
    std::string primary;
    std::string source;
    std::string chip;    // the case's chip key, as written
    std::string engine;  // inference: the engine profile used ("" otherwise)
    double measured = 0;
    double predicted = 0;
    double error = 0;  // signed: predicted / measured − 1
    Json scenario;     // inference cases: the scenario predicted (batch filled in), for eval
};

struct SkippedCase {
    std::string id;
    std::string reason;
};

// Statistics of |error| over a set of scored cases.
struct ErrorStats {
    int scored = 0;
    double mape = 0;         // mean |error|
    double median_ape = 0;   // median |error|
    double within_10 = 0;    // fraction with |error| ≤ 10 %
    double within_25 = 0;    // fraction with |error| ≤ 25 %
    double bias = 0;         // median signed error (+: the model predicts too high)
    double worst = 0;        // largest |error|
};

// One regime of the cases (validation/coverage.hpp): "inference mode" = "concurrency", ...
struct CoverageRow {
    std::string regime;  // "inference mode", "training framework", ...
    std::string value;   // "concurrency", "torchtitan", ...
    int cases = 0;       // cases in the regime (scored, skipped and incomplete)
    ErrorStats stats;    // of the scored ones; stats.scored == 0: unvalidated
};

struct ValidationReport {
    std::vector<ScoredCase> cases;
    std::vector<SkippedCase> skipped;
    ErrorStats all;
    std::map<std::string, ErrorStats> by_kind;
    std::map<std::string, ErrorStats> by_metric;  // "kind/metric", e.g. "inference/ttft_ms"
    std::vector<CoverageRow> coverage;            // every regime a case is in
};

// `cases` is a JSON array of cases (presets/measured/FORMAT.md); anything else gives an
// empty report with one skipped entry saying why.
ValidationReport validate_cases(const Json& cases);

ErrorStats error_stats(const std::vector<double>& signed_errors);

// {"cases": [{id, kind, primary, measured, predicted, error, source, chip, engine?, scenario?}],
//  "skipped": [{id, reason}],
//  "summary": {scored, skipped, mape, median_ape, within_10, within_25, bias, worst,
//              by_kind: {kind: {...}}, by_metric: {"kind/metric": {...}}},
//  "coverage": [{regime, value, cases, scored, mape, median_ape, bias, worst, validated}]}
Json to_json(const ValidationReport& r);

// A table (id, kind, metric, measured, predicted, error %) and a summary per kind, as the
// CLI prints it.
std::string to_text(const ValidationReport& r);

}  // namespace envelope
