#pragma once
// Cost of a collective on one network level, in α–β form:
//     time = latency_s + seconds_per_byte · n
// with n the size of the full buffer on each chip (the all-reduce input, or the
// all-gather output).
#include <cstdint>

#include "network/network.hpp"
#include "ops/op.hpp"

namespace envelope {

struct AlphaBeta {
    double latency_s = 0;
    double seconds_per_byte = 0;

    double time(double bytes) const { return latency_s + seconds_per_byte * bytes; }
};

// Ring algorithms (Thakur, Rabenseifner & Gropp 2005, "Optimization of Collective
// Communication Operations in MPICH", §4; Patarasuk & Yuan 2009), p chips, per-chip
// one-direction bandwidth B·efficiency, per-step latency α:
//   all-reduce  (reduce-scatter + all-gather): 2(p−1)·α + 2·(p−1)/p · n / B
//   all-gather:                                 (p−1)·α +   (p−1)/p · n / B
// On a switch the ring is embedded with every chip sending at its full injection
// bandwidth, so the same formulas hold (this is NCCL's ring algorithm on NVSwitch).
// p = 1 costs nothing.
AlphaBeta collective_cost(CollectiveKind kind, int64_t chips, const NetworkLevel& level);

}  // namespace envelope
