#pragma once
// How far real runs fall from the model's predictions: the empirical error band shown
// beside every result, from the residuals of the bundled measured cases
// (presets/measured/cases.json) of the same kind and metric.
#include <string>
#include <vector>

#include "validation/validate.hpp"

namespace envelope {

// The spread of measured / predicted for a family of cases, as a ratio on the predicted
// time: 80% of the cases (the 10th to the 90th percentile) fell within [low, high] times
// the predicted time. A throughput's band is the reciprocal.
struct ErrorBand {
    double low = 1;
    double high = 1;
    int cases = 0;  // 0: no comparable case, no band
};

// One serving regime's bands: a static batch and a closed loop of clients err differently
// (queueing is in one and not the other), so a result gets its own regime's band, or none.
struct ServingErrorBands {
    ErrorBand ttft;         // ttft_ms cases
    ErrorBand generation;   // throughput, TPOT and end-to-end cases (mostly decode time)
};

// What the scored cases ran on, by the name of the resolved preset (chip, engine profile,
// framework profile): a result on anything else is in a regime no scored case checks, and
// gets no band (METHODOLOGY.md §20.5). `known` false: not recorded (no check).
struct ScoredRegimes {
    bool known = false;
    std::vector<std::string> inference_chips;
    std::vector<std::string> engines;
    std::vector<std::string> training_chips;  // training and memory cases
    std::vector<std::string> frameworks;
};

struct InferenceErrorBands {
    double coverage = 0.8;  // the share of cases inside each band
    ServingErrorBands static_batch;  // static and offline cases
    ServingErrorBands closed_loop;   // concurrency cases
    ServingErrorBands open_loop;     // server cases (an offered request rate)
    ErrorBand step;         // training step times and TFLOP/s (as a ratio on the step time)
    ScoredRegimes scored;
};

// The regimes of a result that no scored case checks: "chip B300", "framework MaxText (JAX /
// XLA)", … (empty: every one is checked, or `scored` is not known). training: a training
// result (its chip and framework), else an inference one (its chip and engine).
std::vector<std::string> unvalidated_regimes(const ScoredRegimes& scored, bool training, const std::string& chip,
                                             const std::string& software);

// Bands from a validation report (its inference and training cases).
InferenceErrorBands inference_error_bands(const ValidationReport& report);

// The bands of the bundled measured cases, as committed in presets/measured/error-bands.json
// (written by `envelope validate --bands presets/measured/cases.json`): scoring the 864 cases
// takes about 0.3 s natively and a second in the page, too long to pay on every first
// evaluation. tests/core/test_validation.cpp fails when the file no longer matches the cases
// and the model. Without the file, the cases are scored once per process.
const InferenceErrorBands& bundled_inference_error_bands();

// The bands as the committed file writes them, and back (a missing family: no case).
Json error_bands_json(const InferenceErrorBands& bands);
InferenceErrorBands error_bands_from_json(const Json& doc);

// The p-quantile (0 ≤ p ≤ 1) of `values`, by linear interpolation between order
// statistics (Hyndman & Fan type 7, the default of R and NumPy). 1 for no values.
double quantile(std::vector<double> values, double p);

}  // namespace envelope
