#pragma once
// The fit of each chip's sustained rate (chip.efficiency.sustained, METHODOLOGY.md §37) on the
// end-to-end training cases of that chip: `envelope fit-sustained CASES.json`.
//
// For each chip preset whose training cases (PEFT aside: a fine-tuning issue of its own) come
// from at least kMinSources sources and number at least kMinCases, the value v on a grid of
// 0.005 in [0.5, 1] that minimises the MAPE of those cases' primary metric (step time,
// TFLOP/s or MFU) when the chip's matrix work runs at v × its microbenchmark rate. Ties go to
// the larger v (the nearer to the microbenchmark); a fit on the floor, 0.5, is refused (the gap
// it would close is not a clock). Leave-one-source-out: for each source, v
// fitted on the others and the left-out source's MAPE at that v, beside its MAPE at v = 1.
// A source is the case's `source` text before its first " (", ";" or ",".
#include <string>
#include <vector>

#include "io/json.hpp"

namespace envelope {

inline constexpr int kSustainedMinSources = 2;
inline constexpr int kSustainedMinCases = 3;

struct SourceFold {
    std::string source;
    int cases = 0;
    double value = 1;          // fitted without this source
    double mape_at_one = 0;    // this source's cases at v = 1
    double mape_held_out = 0;  // ... at the value fitted without them
};

struct ChipSustainedFit {
    std::string chip;          // preset key
    int cases = 0;
    int sources = 0;
    bool fitted = false;       // false: too few cases or sources, or the fit on the floor (value 1)
    bool at_floor = false;     // the least MAPE is at v = 0.5: refused, not a clock
    double value = 1;
    double mape_at_one = 0;    // all the chip's cases at v = 1
    double mape_fitted = 0;    // ... at the fitted value
    double mape_cross = 0;     // case-weighted mean of the held-out MAPEs (0 without a fit)
    std::vector<SourceFold> folds;
};

std::vector<ChipSustainedFit> fit_sustained(const Json& cases);

// The source a case is grouped by for the cross-validation.
std::string source_group(const std::string& source);

}  // namespace envelope
