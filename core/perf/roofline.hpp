#pragma once
// Roofline timing of one operator (Williams, Waterman & Patterson 2009, CACM 52(4)):
// an op takes as long as its slowest resource,
//     t = max( FLOPs / (peak · matrix_efficiency),
//              HBM bytes / (bandwidth · memory_efficiency),
//              collective time on its network level )
// Each roof is affine in the decode context length, so the max over a whole
// generation can be summed exactly (perf/context_sum.hpp).
#include "common/affine.hpp"
#include "hardware/chip.hpp"
#include "network/network.hpp"
#include "ops/op.hpp"

namespace envelope {

enum class Bound { compute, memory, network };
inline constexpr int kBoundCount = 3;

// Seconds for one execution of the op under each roof, affine in context length.
struct Roofs {
    Affine compute_s;
    Affine memory_s;
    Affine network_s;
};

// `level` is the network level of the op's collective group (ignored for other ops).
// Vector ops use the chip's fp32 peak as their compute roof, or none when the chip
// does not publish one (they are memory-bound by a wide margin anyway).
Roofs roofs_of(const Op& op, const Chip& chip, const NetworkLevel* level);

}  // namespace envelope
