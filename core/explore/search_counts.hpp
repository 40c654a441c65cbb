#pragma once
// What a search did with its space: every candidate is counted once, in the first of these
// that applies (enumerated = the sum of the others).
#include <cstdint>

namespace envelope {

// The most candidates one search enumerates (a request over it is an error at "space"): about
// a minute and a half natively at the training search's rate.
inline constexpr int64_t kMaxSearchCandidates = 1'000'000;

struct SearchCounts {
    int64_t enumerated = 0;     // candidates in the space
    int64_t invalid = 0;        // refused by the scenario checks (divisibility, batch split, formats)
    int64_t pruned_bound = 0;   // dropped by a memory lower bound, never evaluated one by one
    int64_t over_memory = 0;    // valid, but the memory model says it does not fit
    int64_t dominated = 0;      // provably no better than a candidate kept (documented rule)
    int64_t evaluated = 0;      // evaluated in full (fit, valid)
};

}  // namespace envelope
