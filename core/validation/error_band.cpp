#include "validation/error_band.hpp"

#include <algorithm>
#include <cmath>

#include "presets/registry.hpp"

namespace envelope {

double quantile(std::vector<double> v, double p) {
    if (v.empty()) return 1.0;
    std::sort(v.begin(), v.end());
    const double h = p * static_cast<double>(v.size() - 1);
    const auto i = static_cast<std::size_t>(std::floor(h));
    if (i + 1 >= v.size()) return v.back();
    return v[i] + (h - static_cast<double>(i)) * (v[i + 1] - v[i]);
}

namespace {

ErrorBand band_of(const std::vector<double>& time_ratios, double coverage) {
    ErrorBand b;
    b.cases = static_cast<int>(time_ratios.size());
    if (b.cases == 0) return b;
    const double tail = (1 - coverage) / 2;
    b.low = quantile(time_ratios, tail);
    b.high = quantile(time_ratios, 1 - tail);
    return b;
}

}  // namespace

InferenceErrorBands inference_error_bands(const ValidationReport& report) {
    InferenceErrorBands bands;
    std::vector<double> ttft[2], generation[2], step;
    for (const ScoredCase& c : report.cases) {
        // As a ratio on time: measured / predicted for a time, predicted / measured for a rate.
        const double ratio = c.measured / c.predicted;
        if (c.kind == "training") {
            if (c.primary == "step_time_s") step.push_back(ratio);
            else if (c.primary == "tflops_per_gpu" || c.primary == "mfu") step.push_back(1 / ratio);
            continue;
        }
        if (c.kind != "inference") continue;
        const Json* workload = c.scenario.is_object() && c.scenario.contains("workload") ? &c.scenario["workload"] : nullptr;
        const int loop = workload && workload->value("mode", "static") == "concurrency" ? 1 : 0;
        if (c.primary == "ttft_ms") ttft[loop].push_back(ratio);
        else if (c.primary == "tpot_ms" || c.primary == "e2e_latency_ms") generation[loop].push_back(ratio);
        else generation[loop].push_back(1 / ratio);
    }
    bands.static_batch = {band_of(ttft[0], bands.coverage), band_of(generation[0], bands.coverage)};
    bands.closed_loop = {band_of(ttft[1], bands.coverage), band_of(generation[1], bands.coverage)};
    bands.step = band_of(step, bands.coverage);
    return bands;
}

const InferenceErrorBands& bundled_inference_error_bands() {
    static const InferenceErrorBands bands = inference_error_bands(validate_cases(measured_document("cases")));
    return bands;
}

}  // namespace envelope
