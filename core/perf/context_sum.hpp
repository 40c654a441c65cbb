#pragma once
// Exact sums of an op's roofline time over a range of decode context lengths.
//
// At context L a decode step of the op takes max(compute(L), memory(L), network(L)),
// each affine in L. The max of affine functions is piecewise affine with at most a
// few breakpoints, so Σ_{L=first}^{last} of it splits into integer segments on which
// one roof binds, and each segment sums in closed form:
//     Σ_{L=s}^{e} (a + c·L) = n·a + c·n·(s+e)/2,   n = e − s + 1.
// A 1,000,000-token generation costs the same as a 1-token one. The op's fixed overhead
// (perf/roofline.hpp) adds n times to the sum, in its own bucket.
#include <array>
#include <cstdint>

#include "perf/roofline.hpp"

namespace envelope {

struct TimeSum {
    double total_s = 0;
    std::array<double, kBoundCount> by_bound_s{};  // part of total_s under each binding roof,
                                                   // and the fixed overhead

    Bound dominant() const;  // the largest part of the time (ties: compute first)
};

// Σ over L = first..last (inclusive) of one execution; empty when last < first. With cap
// > 0 the roofs are taken at min(L, cap): the sum up to cap, then (last − cap) times the
// value at cap (a sliding window, model/model.hpp).
TimeSum sum_over_context(const Roofs& r, int64_t first, int64_t last, int64_t cap = 0);

// One execution at a single context length.
TimeSum time_at(const Roofs& r, double context);

// Σ_{L=first}^{last} of an affine quantity (FLOPs, bytes) — exact.
double sum_affine(const Affine& a, int64_t first, int64_t last, int64_t cap = 0);

}  // namespace envelope
