#pragma once
// The non-dominated points of a set under two objectives (a Pareto front).
#include <cstddef>
#include <functional>
#include <vector>

namespace envelope {

// Indices of the points no other point dominates, where `a` dominates `b` when
// x(a) ≤ x(b) and y(a) ≤ y(b) with one of the two strict (both objectives minimised; negate
// one to maximise it). Sorted by x ascending; of points equal in both, the first is kept.
// O(n log n): sort by (x, y), keep each point whose y is below every y before it.
std::vector<std::size_t> pareto_front(std::size_t n, const std::function<double(std::size_t)>& x,
                                      const std::function<double(std::size_t)>& y);

}  // namespace envelope
