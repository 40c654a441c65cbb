#include "explore/sweep.hpp"

#include <algorithm>
#include <cmath>

#include "common/error.hpp"
#include "../evaluate.hpp"  // the scenario-level evaluate and check, not inference/evaluate.hpp

namespace envelope {

const char* to_string(SweepAxis a) { return spelling_of(kSweepAxisNames, a); }

int64_t axis_value(const Scenario& s, SweepAxis axis) {
    const InferenceWorkload& w = s.workload.inference;
    switch (axis) {
        case SweepAxis::batch: return w.batch;
        case SweepAxis::input_tokens: return w.input_tokens;
        case SweepAxis::output_tokens: return w.output_tokens;
        case SweepAxis::tp: return s.parallelism.tp;
    }
    return 0;
}

Scenario at_axis_value(const Scenario& s, SweepAxis axis, int64_t value) {
    Scenario at = s;
    InferenceWorkload& w = at.workload.inference;
    switch (axis) {
        case SweepAxis::batch:
            w.batch = value;
            at.parallelism.micro_batches = std::min(at.parallelism.micro_batches, value);
            break;
        case SweepAxis::input_tokens: w.input_tokens = value; break;
        case SweepAxis::output_tokens: w.output_tokens = value; break;
        case SweepAxis::tp: at.parallelism.tp = value; break;
    }
    return at;
}

std::vector<int64_t> geometric_values(int64_t from, int64_t to, int points) {
    std::vector<int64_t> out;
    const int n = std::max(points, 2);
    const double lo = static_cast<double>(std::max<int64_t>(from, 1));
    const double ratio = static_cast<double>(std::max(to, from)) / lo;
    for (int i = 0; i < n; ++i) {
        const double v = lo * std::pow(ratio, static_cast<double>(i) / (n - 1));
        out.push_back(std::clamp<int64_t>(std::llround(v), from, std::max(to, from)));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

SweepPoint sweep_point(const Scenario& s, int64_t value) {
    SweepPoint p;
    p.value = value;
    Result r;
    try {
        check_scenario(s);
        r = evaluate(s);
    } catch (const InputError& e) {
        p.error_path = e.path();
        p.error = e.what();
        return p;
    }
    const InferenceSummary& sum = r.summary;
    p.chips = sum.chips;
    p.output_tokens_per_s = sum.output_tokens_per_s;
    p.output_tokens_per_s_per_chip = sum.output_tokens_per_s_per_chip;
    p.ttft_s = sum.ttft_s;
    p.tpot_s = sum.tpot_s;
    p.output_tokens_per_s_per_user = sum.tpot_s && *sum.tpot_s > 0 ? 1 / *sum.tpot_s : 0.0;
    p.e2e_latency_s = sum.e2e_latency_s;
    p.memory_bytes = r.memory.total_bytes;
    p.capacity_bytes = r.memory.capacity_bytes;
    p.weights_bytes = r.memory.weights_bytes;
    p.kv_cache_bytes = r.memory.kv_cache_bytes;
    p.activation_bytes = r.memory.activation_bytes;
    p.fits = r.memory.fits;
    return p;
}

std::vector<SweepPoint> sweep(const Scenario& s, SweepAxis axis, const std::vector<int64_t>& values) {
    std::vector<SweepPoint> out;
    out.reserve(values.size());
    for (int64_t v : values) out.push_back(sweep_point(at_axis_value(s, axis, v), v));
    return out;
}

}  // namespace envelope
