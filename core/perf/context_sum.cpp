#include "perf/context_sum.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace envelope {

Bound TimeSum::dominant() const {
    int best = 0;
    for (int i = 1; i < kBoundCount; ++i) {
        if (by_bound_s[i] > by_bound_s[best]) best = i;
    }
    return static_cast<Bound>(best);
}

double sum_affine(const Affine& a, int64_t first, int64_t last, int64_t cap) {
    if (last < first) return 0.0;
    if (cap > 0 && last > cap) {
        const int64_t flat_from = std::max(first, cap + 1);
        return sum_affine(a, first, std::min(last, cap)) + static_cast<double>(last - flat_from + 1) * a.at(cap);
    }
    const double n = static_cast<double>(last - first + 1);
    return n * a.base + a.per_context * n * (static_cast<double>(first) + static_cast<double>(last)) / 2;
}

namespace {

// Index of the roof with the largest value at x (first wins ties, so compute before memory).
int binding_roof(const std::array<Affine, kRoofCount>& roofs, double x) {
    int best = 0;
    for (int i = 1; i < kRoofCount; ++i) {
        if (roofs[i].at(x) > roofs[best].at(x)) best = i;
    }
    return best;
}

}  // namespace

// The fixed overhead adds to every execution; it is its own bucket of the time.
void add_overhead(const Roofs& r, double executions, TimeSum& t) {
    const double s = r.overhead_s * executions;
    t.total_s += s;
    t.by_bound_s[static_cast<int>(Bound::overhead)] += s;
}

TimeSum time_at(const Roofs& r, double context) {
    const std::array<Affine, kRoofCount> roofs{r.compute_s, r.memory_s, r.network_s};
    TimeSum t;
    const int b = binding_roof(roofs, context);
    t.total_s = roofs[b].at(context);
    t.by_bound_s[b] = t.total_s;
    add_overhead(r, 1, t);
    return t;
}

TimeSum sum_over_context(const Roofs& r, int64_t first, int64_t last, int64_t cap) {
    TimeSum t;
    if (last < first) return t;
    if (cap > 0 && last > cap) {
        // Up to the cap as usual, then every step as the step at the cap.
        t = sum_over_context(r, first, std::min(last, cap));
        const double flat = static_cast<double>(last - std::max(first, cap + 1) + 1);
        const TimeSum at_cap = time_at(r, static_cast<double>(cap));
        t.total_s += flat * at_cap.total_s;
        for (int i = 0; i < kBoundCount; ++i) t.by_bound_s[i] += flat * at_cap.by_bound_s[i];
        return t;
    }
    const std::array<Affine, kRoofCount> roofs{r.compute_s, r.memory_s, r.network_s};

    // Integer cut points: where two roofs cross inside (first, last). Between consecutive
    // cuts the same roof binds for every integer L.
    std::array<int64_t, 3> cuts{};
    int n_cuts = 0;
    for (int i = 0; i < kRoofCount; ++i) {
        for (int j = i + 1; j < kRoofCount; ++j) {
            const double slope = roofs[i].per_context - roofs[j].per_context;
            if (slope == 0) continue;
            const double x = (roofs[j].base - roofs[i].base) / slope;
            if (x > static_cast<double>(first) && x < static_cast<double>(last)) {
                cuts[n_cuts++] = static_cast<int64_t>(std::floor(x));  // segment ends at floor(x)
            }
        }
    }
    // At most three cuts: insertion sort (std::sort trips a GCC 12 -Warray-bounds false positive).
    for (int i = 1; i < n_cuts; ++i) {
        for (int j = i; j > 0 && cuts[j - 1] > cuts[j]; --j) std::swap(cuts[j - 1], cuts[j]);
    }

    int64_t start = first;
    for (int k = 0; k <= n_cuts; ++k) {
        const int64_t end = k < n_cuts ? cuts[k] : last;
        if (end < start) continue;
        const int b = binding_roof(roofs, (static_cast<double>(start) + static_cast<double>(end)) / 2);
        const double s = sum_affine(roofs[b], start, end);
        t.total_s += s;
        t.by_bound_s[b] += s;
        start = end + 1;
    }
    add_overhead(r, static_cast<double>(last - first + 1), t);
    return t;
}

}  // namespace envelope
