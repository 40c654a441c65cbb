#pragma once
// A group of chips as the network sees it: on each level it crosses, how many units of
// the level below take part (parallel/placement.hpp computes this from a group's size and
// stride). A TP group of 8 on 8-GPU nodes is one span {NVLink, 8}; 16 chips over two such
// nodes are {NVLink, 8} then {InfiniBand, 2}; a DP group of 2 with stride 8 skips NVLink
// and is {InfiniBand, 2}. On a torus each dimension the group runs along is its own span.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "network/network.hpp"

namespace envelope {

struct Span {
    const NetworkLevel* level = nullptr;
    std::size_t level_index = 0;
    int dim = -1;         // torus: the dimension this span runs along; −1: the whole level
    int64_t size = 1;     // units taking part on this level (≥ 2)

    // Units of this level (or torus dimension) there are: a span of all of them closes
    // its ring (wraparound links), fewer form a chain.
    int64_t level_size() const {
        return dim >= 0 ? level->dims[static_cast<std::size_t>(dim)] : level->size;
    }
};

// Innermost first; the product of the sizes is the group's size. Empty: a group of one.
using Spans = std::vector<Span>;

inline int64_t group_size(const Spans& spans) {
    int64_t n = 1;
    for (const Span& s : spans) n *= s.size;
    return n;
}

}  // namespace envelope
