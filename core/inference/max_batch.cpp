#include "inference/max_batch.hpp"

#include "inference/evaluate.hpp"
#include "io/schema_limits.hpp"

namespace envelope {

namespace {

bool fits(Scenario s, int64_t batch) {
    s.workload.batch = batch;
    return inference_memory_of(s).fits;
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
