#include "network/collective.hpp"

#include <algorithm>

namespace envelope {

namespace {

// Steps of the ring algorithm, and the bytes each chip sends per byte of the buffer.
struct RingShape {
    double steps = 0;
    double bytes_per_byte = 0;
};

RingShape ring_shape(CollectiveKind kind, double p) {
    switch (kind) {
        case CollectiveKind::all_reduce: return {2 * (p - 1), 2 * (p - 1) / p};
        case CollectiveKind::all_gather:
        case CollectiveKind::reduce_scatter: return {p - 1, (p - 1) / p};
        case CollectiveKind::send_recv: return {1, 1};
        case CollectiveKind::none: break;
    }
    return {};
}

// Bytes/s one chip of a p-chip group can send (and receive) at once on this level.
double group_bandwidth(int64_t chips, const NetworkLevel& level) {
    const double b = level.bandwidth_gbps * 1e9 * level.efficiency;
    if (level.topology == Topology::fully_connected && level.size > 1) {
        return b * static_cast<double>(std::min(chips, level.size) - 1) / static_cast<double>(level.size - 1);
    }
    return b;
}

}  // namespace

AlphaBeta collective_bound(CollectiveKind kind, int64_t chips, const NetworkLevel& level) {
    if (chips <= 1 || kind == CollectiveKind::none) return {};
    const RingShape r = ring_shape(kind, static_cast<double>(chips));
    double seconds_per_byte = r.bytes_per_byte / group_bandwidth(chips, level);
    if (kind == CollectiveKind::all_reduce && level.topology == Topology::switch_ &&
        level.in_network_reduction_efficiency > 0) {
        seconds_per_byte =
            std::min(seconds_per_byte, 1 / (level.bandwidth_gbps * 1e9 * level.in_network_reduction_efficiency));
    }
    return {0, seconds_per_byte};
}

CollectiveChoice choose_collective(CollectiveKind kind, int64_t chips, double bytes, const NetworkLevel& level,
                                   const CollectiveOptions& options) {
    if (chips <= 1 || kind == CollectiveKind::none) return {};
    const double p = static_cast<double>(chips);
    const double b = group_bandwidth(chips, level);
    // On a fully connected level the group reaches p − 1 of the size − 1 links.
    const double links = b / (level.bandwidth_gbps * 1e9 * level.efficiency);

    if (kind == CollectiveKind::all_reduce && options.all_reduce == AllReduceImpl::custom &&
        level.topology != Topology::ring) {
        for (const OneShotLimit& limit : options.one_shot) {
            if (chips > limit.max_chips) continue;
            if (bytes <= limit.max_bytes) {
                const double one_shot_b = level.bandwidth_gbps * 1e9 * options.one_shot_efficiency * links;
                return {{options.one_shot_latency_us * 1e-6, (p - 1) / one_shot_b}, "one-shot"};
            }
            break;
        }
    }

    // NCCL's tuning model, NVLink rows: Simple costs 4.8 µs more to start and 2.93 µs more
    // per step than LL (baseLat 8.4 vs 3.6 µs, hwLat 3.4 vs 0.47 µs).
    constexpr double kSimpleExtraBase = 4.8e-6;
    constexpr double kSimpleExtraStep = 2.93e-6;
    const RingShape r = ring_shape(kind, p);
    const double alpha = level.latency_us * 1e-6;
    const double call = level.call_latency_us * 1e-6;
    const AlphaBeta ll{call + r.steps * alpha, r.bytes_per_byte / (b / 2)};
    const AlphaBeta simple{call + kSimpleExtraBase + r.steps * (alpha + kSimpleExtraStep), r.bytes_per_byte / b};
    CollectiveChoice best = ll.time(bytes) <= simple.time(bytes) ? CollectiveChoice{ll, "ring/LL"}
                                                                  : CollectiveChoice{simple, "ring/simple"};
    using Force = CollectiveOptions::Force;
    const bool nvls_possible = kind == CollectiveKind::all_reduce && level.topology == Topology::switch_ &&
                               level.in_network_reduction_efficiency > 0;
    if (nvls_possible && options.force != Force::ring &&
        (chips >= level.in_network_reduction_min_chips || options.force == Force::nvls)) {
        const AlphaBeta nvls{level.in_network_reduction_latency_us * 1e-6,
                             1 / (level.bandwidth_gbps * 1e9 * level.in_network_reduction_efficiency)};
        if (options.force == Force::nvls || nvls.time(bytes) < best.cost.time(bytes)) best = {nvls, "nvls"};
    }
    return best;
}

}  // namespace envelope
