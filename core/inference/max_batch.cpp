#include "inference/max_batch.hpp"

#include "inference/evaluate.hpp"
#include "io/schema_limits.hpp"

namespace envelope {

namespace {

// The batch fits on every pipeline stage (memory.fits: the whole in the chip, the KV cache in
// the engine's budget), the same verdict the result gives.
bool fits(Scenario s, int64_t batch) {
    s.workload.inference.batch = batch;
    for (const InferenceMemory& m : inference_memory_of(s)) {
        if (!m.fits) return false;
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
