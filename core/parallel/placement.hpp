#pragma once
// Where each parallel dimension's groups sit on the network.
//
// Dimensions take chips in `order`, innermost first: with order tp, cp, ep, dp, pp the
// stride of each is the product of the degrees before it (ep shares dp's stride: its
// groups are the first ep members of a dp group; a folded expert layout, expert_layout.hpp,
// puts them at stride moe_tp instead, consecutive chips of the tp-cp-dp numbering). A group of size n and stride s holds
// chips base + i·s. Level j of the network (torus dimensions count as levels) has units
// of c_j chips; a group has m_j = clamp(c_j / s, 1, n) members in one such unit, so it
// joins p_j = m_j / m_{j−1} units of the level below there. Every level with p_j > 1 is a
// span of the group (network/span.hpp). Groups are assumed aligned to unit boundaries
// (degrees and level sizes powers of two, or dividing one another).
#include <array>
#include <string>
#include <vector>

#include "network/network.hpp"
#include "network/span.hpp"
#include "parallel/parallelism.hpp"

namespace envelope {

struct DimensionPlacement {
    ParallelDim dim = ParallelDim::tp;
    int64_t size = 1;
    int64_t stride = 1;
    Spans spans;
};

struct Placement {
    std::array<DimensionPlacement, kParallelDims> dims;  // indexed by ParallelDim

    const DimensionPlacement& of(ParallelDim d) const { return dims[static_cast<std::size_t>(d)]; }
};

// Precondition: the network joins at least p.chips() chips (checked with the scenario).
Placement place(const Parallelism& p, const Network& net);

// Warnings for dimensions whose groups do not line up with the network's units: at some
// level the chips of a unit and the group's stride (or its extent, stride × size) are not
// multiples one of the other, e.g. TP 6 on 8-chip nodes, whose groups straddle nodes. Their
// spans, and so their collectives' times, are approximate.
std::vector<std::string> placement_warnings(const Placement& placement, const Network& net);

// The spans of one group of `size` chips `stride` apart.
Spans place_group(const Network& net, int64_t size, int64_t stride);

}  // namespace envelope
