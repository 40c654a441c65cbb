#include "explore/fit.hpp"

#include <algorithm>
#include <cmath>

#include "common/error.hpp"
#include "../evaluate.hpp"  // the scenario-level evaluate, not inference/evaluate.hpp beside this file
#include "inference/evaluate.hpp"
#include "inference/max_batch.hpp"
#include "explore/sweep.hpp"
#include "io/schema_limits.hpp"

namespace envelope {

namespace {

bool holds(const Scenario& s) {
    for (const InferenceMemory& m : inference_memory_of(s)) {
        if (!m.fits) return false;
    }
    return true;
}

// The longest input + output (output kept as given, at least 1 prompt token) whose memory
// fits; memory grows with the context, so bisect.
int64_t longest_context(Scenario s) {
    InferenceWorkload& w = s.workload.inference;
    const int64_t out = w.output_tokens;
    const auto fits_with = [&](int64_t context) {
        w.input_tokens = context - out;
        return holds(s);
    };
    if (!fits_with(out + 1)) return 0;
    int64_t lo = out + 1, hi = limits::kMaxTokens;
    if (fits_with(hi)) return hi;
    while (hi - lo > 1) {
        const int64_t mid = lo + (hi - lo) / 2;
        (fits_with(mid) ? lo : hi) = mid;
    }
    return lo;
}

bool valid(const Scenario& s) {
    try {
        check_scenario(s);
        return true;
    } catch (const InputError&) {
        return false;
    }
}

// TP doubles up to the innermost level's chips, then PP doubles, one replica; the first
// valid mapping that holds the batch.
std::optional<Parallelism> fewest_chips(const Scenario& base) {
    const int64_t inner = base.system.network.levels.empty() ? 1 : base.system.network.levels.front().size;
    for (int64_t pp = 1; pp <= base.system.count; pp *= 2) {
        for (int64_t tp = 1; tp <= std::min(inner, base.system.count / pp); tp *= 2) {
            Scenario s = base;
            s.parallelism.tp = tp;
            s.parallelism.pp = pp;
            s.parallelism.dp = 1;
            s.parallelism.ep = 1;
            s.parallelism.micro_batches = 0;
            s.parallelism.stage_layers.clear();
            if (valid(s) && holds(s)) return s.parallelism;
        }
    }
    return std::nullopt;
}

// fp8 for the KV cache, then for the weights as well, where each is wider than 8 bits: the
// first thing a serving recipe changes when a model does not fit (vLLM --kv-cache-dtype fp8,
// FP8 checkpoints), offered with what it buys at the same layout.
std::vector<LowerPrecisionFit> lower_precision(const Scenario& base) {
    std::vector<LowerPrecisionFit> out;
    const PrecisionPlan& p = base.workload.inference.precision;
    const auto wide = [](Precision x) { return bytes_per_element(element_format(x)) > bytes_per_element(Precision::fp8); };
    const auto attempt = [&](bool narrow_weights) {
        Scenario s = base;
        PrecisionPlan& q = s.workload.inference.precision;
        if (wide(q.kv_cache)) q.kv_cache = Precision::fp8;
        if (narrow_weights && wide(q.weights)) q.weights = Precision::fp8;
        if (!valid(s)) return;
        out.push_back({q.weights, q.kv_cache, holds(s), largest_batch_that_fits(s)});
    };
    if (wide(p.kv_cache)) attempt(false);
    if (wide(p.weights)) attempt(true);
    return out;
}

}  // namespace

InferenceFit inference_fit(const Scenario& s) {
    InferenceFit f;
    f.fits = holds(s);
    f.largest_batch = largest_batch_that_fits(s);
    f.longest_context = longest_context(s);
    f.fewest_chips = fewest_chips(s);
    if (!f.fits) f.lower_precision = lower_precision(s);
    return f;
}

std::vector<CurvePoint> throughput_latency_curve(const Scenario& s, int points) {
    const int64_t own = s.workload.inference.batch;
    const int64_t top = std::clamp<int64_t>(std::max(largest_batch_that_fits(s), own), 1, std::max<int64_t>(own, 4096));
    std::vector<int64_t> batches = geometric_values(1, top, points);
    batches.push_back(own);
    std::sort(batches.begin(), batches.end());
    batches.erase(std::unique(batches.begin(), batches.end()), batches.end());

    std::vector<CurvePoint> out;
    out.reserve(batches.size());
    for (const SweepPoint& sp : sweep(s, SweepAxis::batch, batches)) {
        // A batch of a valid scenario is valid (micro-batches are capped at it).
        if (!sp.ok()) throw InputError(sp.error_path, sp.error);
        CurvePoint p;
        p.batch = sp.value;
        p.output_tokens_per_s_per_chip = sp.output_tokens_per_s_per_chip;
        p.ttft_s = sp.ttft_s;
        p.tpot_s = sp.tpot_s.value_or(0.0);
        p.output_tokens_per_s_per_user = sp.output_tokens_per_s_per_user;
        p.fits = sp.fits;
        out.push_back(p);
    }
    return out;
}

}  // namespace envelope
