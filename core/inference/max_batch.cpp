#include "inference/max_batch.hpp"

#include "inference/evaluate.hpp"
#include "io/schema_limits.hpp"

namespace envelope {

namespace {

// The engine admits the batch: its KV cache fits the engine's budget (and so does the
// whole, since the budget is a fraction of what weights and activations leave) on every
// pipeline stage.
bool fits(Scenario s, int64_t batch) {
    s.workload.inference.batch = batch;
    for (const InferenceMemory& m : inference_memory_of(s)) {
        if (m.kv_cache_bytes > m.kv_budget_bytes) return false;
    }
    return true;
}

}  // namespace

int64_t largest_batch_that_fits(const Scenario& s) {
    if (!fits(s, 1)) return 0;
    int64_t lo = 1, hi = limits::kMaxBatch;  // fits(lo); the answer is in [lo, hi]
    if (fits(s, hi)) return hi;
    while (hi - lo > 1) {
        const int64_t mid = lo + (hi - lo) / 2;
        (fits(s, mid) ? lo : hi) = mid;
    }
    return lo;
}

}  // namespace envelope
