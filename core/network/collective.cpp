// Collectives on one network level (one span of a group): network/collective.hpp.
#include "network/collective.hpp"

#include <algorithm>
#include <cmath>

#include "network/ring_shape.hpp"

namespace envelope {

const char* to_string(Algorithm a) {
    switch (a) {
        case Algorithm::none: return "none";
        case Algorithm::ring_ll: return "ring/LL";
        case Algorithm::ring_simple: return "ring/simple";
        case Algorithm::bidirectional_ring: return "bidirectional ring";
        case Algorithm::double_binary_tree: return "double binary tree";
        case Algorithm::in_network: return "in-network reduction";
        case Algorithm::one_shot: return "one-shot";
        case Algorithm::direct: return "direct";
        case Algorithm::bisection: return "bisection-bound";
        case Algorithm::hierarchical: return "hierarchical";
    }
    return "none";
}

namespace {

bool ring_like(const Span& s) { return s.dim >= 0 || s.level->topology == Topology::ring; }
bool closes_ring(const Span& s) { return s.size >= s.level_size(); }
bool switched_fabric(Topology t) { return t == Topology::fat_tree || t == Topology::dragonfly; }

// The share of a fully connected level's links that reach a group of p of its units.
double link_share(const Span& s) {
    const NetworkLevel& l = *s.level;
    if (l.topology != Topology::fully_connected || l.size <= 1) return 1.0;
    return static_cast<double>(std::min(s.size, l.size) - 1) / static_cast<double>(l.size - 1);
}

bool in_network_possible(CollectiveKind kind, const Span& s) {
    const NetworkLevel& l = *s.level;
    return kind == CollectiveKind::all_reduce && l.in_network_reduction.efficiency > 0 && s.dim < 0 &&
           (l.topology == Topology::switch_ || l.topology == Topology::fat_tree);
}

AlphaBeta in_network_cost(const Span& s) {
    const NetworkLevel& l = *s.level;
    return {l.in_network_reduction.latency_us * 1e-6,
            1 / (l.bandwidth_gbps() * 1e9 * l.in_network_reduction.efficiency)};
}

// The LL protocol moves half the bandwidth (a flag with every 8 bytes), and no more than
// the level's cap once it crosses a NIC.
double ll_bandwidth(const Span& s, double b) {
    const double cap = s.level->ll_bandwidth_gbps * 1e9;
    return cap > 0 ? std::min(b / 2, cap) : b / 2;
}

CollectiveChoice faster(const CollectiveChoice& a, const CollectiveChoice& b, double bytes) {
    if (a.algorithm == Algorithm::none) return b;
    return b.cost.time(bytes) < a.cost.time(bytes) ? b : a;
}

CollectiveChoice all_to_all(const Span& s) {
    const NetworkLevel& l = *s.level;
    const double p = static_cast<double>(s.size);
    const double latency = l.call_latency_us * 1e-6 + (p - 1) * l.latency_us * 1e-6;
    const double b = span_bandwidth(s);
    if (ring_like(s)) return {{latency, p / 4 / b}, Algorithm::bisection};
    return {{latency, (p - 1) / p / b}, Algorithm::direct};
}

}  // namespace

double span_bandwidth(const Span& s) {
    const NetworkLevel& l = *s.level;
    if (s.dim >= 0) {  // a torus dimension: its two links (one each way round)
        return 2 * l.link_gbps * 1e9 * l.efficiency * (closes_ring(s) ? 1.0 : 0.5);
    }
    const double b = l.achievable_bytes_per_s();
    switch (l.topology) {
        case Topology::switch_:
        case Topology::torus: return b;
        case Topology::fully_connected: return b * link_share(s);
        case Topology::ring: return b * (closes_ring(s) ? 1.0 : 0.5);
        case Topology::fat_tree:
        case Topology::dragonfly: return b / l.oversubscription;
    }
    return b;
}

CollectiveChoice level_collective(CollectiveKind kind, const Span& s, double bytes,
                                  const CollectiveOptions& options) {
    if (s.size <= 1 || kind == CollectiveKind::none) return {};
    if (kind == CollectiveKind::all_to_all) return all_to_all(s);
    const NetworkLevel& l = *s.level;
    const double p = static_cast<double>(s.size);
    using Force = CollectiveOptions::Force;

    if (kind == CollectiveKind::all_reduce && options.all_reduce == AllReduceImpl::custom && !ring_like(s) &&
        !switched_fabric(l.topology) && options.force == Force::none) {
        for (const OneShotLimit& limit : options.one_shot) {
            if (s.size > limit.max_chips) continue;
            if (bytes <= limit.max_bytes) {
                const double b = l.bandwidth_gbps() * 1e9 * options.one_shot_efficiency * link_share(s);
                return {{options.one_shot_latency_us * 1e-6, (p - 1) / b}, Algorithm::one_shot};
            }
            break;
        }
    }
    if (in_network_possible(kind, s) && options.force == Force::in_network) return {in_network_cost(s), Algorithm::in_network};

    const RingShape r = ring_shape(kind, p);
    const double alpha = l.latency_us * 1e-6;
    const double call = l.call_latency_us * 1e-6;
    const double b = span_bandwidth(s);
    CollectiveChoice best;
    if (ring_like(s)) {
        best = {{call + r.steps * alpha, r.bytes_per_byte / b}, Algorithm::bidirectional_ring};
    } else {
        const CollectiveChoice simple{
            {call + kSimpleExtraBase + r.steps * (alpha + kSimpleExtraStep), r.bytes_per_byte / b},
            Algorithm::ring_simple};
        best = simple;
        if (options.low_latency_protocol) {
            best = faster(simple, {{call + r.steps * alpha, r.bytes_per_byte / ll_bandwidth(s, b)}, Algorithm::ring_ll},
                          bytes);
        }
    }
    if (options.force == Force::ring) return best;
    if (kind == CollectiveKind::all_reduce && switched_fabric(l.topology)) {
        const double tree_steps = 2 * std::log2(p);
        if (options.low_latency_protocol) {
            best = faster(best, {{call + tree_steps * alpha, 2 / ll_bandwidth(s, b)}, Algorithm::double_binary_tree},
                          bytes);
        }
        best = faster(best,
                      {{call + kSimpleExtraBase + tree_steps * (alpha + kSimpleExtraStep), 2 / b},
                       Algorithm::double_binary_tree},
                      bytes);
    }
    if (in_network_possible(kind, s) && s.size >= l.in_network_reduction.min_chips) {
        best = faster(best, {in_network_cost(s), Algorithm::in_network}, bytes);
    }
    return best;
}

AlphaBeta level_bound(CollectiveKind kind, const Span& s) {
    if (s.size <= 1 || kind == CollectiveKind::none) return {};
    if (kind == CollectiveKind::all_to_all) return {0, all_to_all(s).cost.seconds_per_byte};
    const double b = span_bandwidth(s);
    double seconds_per_byte = ring_shape(kind, static_cast<double>(s.size)).bytes_per_byte / b;
    if (in_network_possible(kind, s)) seconds_per_byte = std::min(seconds_per_byte, in_network_cost(s).seconds_per_byte);
    return {0, seconds_per_byte};
}

}  // namespace envelope
