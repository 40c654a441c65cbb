#pragma once
// The ring algorithm's shape, shared by the one-level and the multi-level collectives
// (network/collective.hpp): with p units a collective takes `steps` steps and each unit
// sends `bytes_per_byte` bytes per byte of the buffer (Thakur, Rabenseifner & Gropp 2005,
// §4; Patarasuk & Yuan 2009).
#include "network/collective_kind.hpp"

namespace envelope {

struct RingShape {
    double steps = 0;
    double bytes_per_byte = 0;
};

inline RingShape ring_shape(CollectiveKind kind, double p) {
    switch (kind) {
        case CollectiveKind::all_reduce: return {2 * (p - 1), 2 * (p - 1) / p};
        case CollectiveKind::all_gather:
        case CollectiveKind::reduce_scatter: return {p - 1, (p - 1) / p};
        case CollectiveKind::broadcast: return {p - 1, 1};
        case CollectiveKind::send_recv: return {1, 1};
        case CollectiveKind::all_to_all:
        case CollectiveKind::none: break;
    }
    return {};
}

// NCCL's tuning model, NVLink rows (NVIDIA/nccl src/graph/tuning.cc): the Simple protocol
// costs 4.8 µs more to start and 2.93 µs more per step than LL (baseLat 8.4 vs 3.6 µs,
// hwLat 3.4 vs 0.47 µs).
inline constexpr double kSimpleExtraBase = 4.8e-6;
inline constexpr double kSimpleExtraStep = 2.93e-6;

}  // namespace envelope
