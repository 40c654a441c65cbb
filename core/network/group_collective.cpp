// Collectives over a group that spans several network levels: network/collective.hpp.
#include <algorithm>
#include <cmath>

#include "network/collective.hpp"
#include "network/ring_shape.hpp"

namespace envelope {

namespace {

bool ring_collective(CollectiveKind k) {
    return k == CollectiveKind::all_reduce || k == CollectiveKind::all_gather ||
           k == CollectiveKind::reduce_scatter || k == CollectiveKind::broadcast;
}

// Steps of one ring through every chip of the group that cross level j: each unit of
// level j's ring of p_j is visited by every combination of the levels above.
double crossings(CollectiveKind kind, const Spans& spans, std::size_t j) {
    double above = 1;
    for (std::size_t k = j + 1; k < spans.size(); ++k) above *= static_cast<double>(spans[k].size);
    const double per_ring = ring_shape(kind, static_cast<double>(spans[j].size)).steps /
                            std::max(1.0, static_cast<double>(spans[j].size) - 1);  // 2 for all-reduce, else 1
    return per_ring * (static_cast<double>(spans[j].size) - 1) * above;
}

// Per-chip bandwidth of one flat ring: level j's links are driven by every chip of the
// unit below, one ring channel each.
double flat_ring_bandwidth(const Spans& spans) {
    double b = 0, below = 1;
    for (const Span& s : spans) {
        const double level_b = span_bandwidth(s) * below;
        b = b == 0 ? level_b : std::min(b, level_b);
        below *= static_cast<double>(s.size);
    }
    return b;
}

CollectiveChoice flat_ring(CollectiveKind kind, const Spans& spans, double bytes) {
    const RingShape r = ring_shape(kind, static_cast<double>(group_size(spans)));
    double call = 0, hops = 0;
    for (std::size_t j = 0; j < spans.size(); ++j) {
        call = std::max(call, spans[j].level->call_latency_us * 1e-6);
        hops += crossings(kind, spans, j) * spans[j].level->latency_us * 1e-6;
    }
    const double b = flat_ring_bandwidth(spans);
    double ll_b = b / 2;  // LL: half the bandwidth, and no more than any level's cap
    for (const Span& s : spans) {
        if (s.level->ll_bandwidth_gbps > 0) ll_b = std::min(ll_b, s.level->ll_bandwidth_gbps * 1e9);
    }
    const CollectiveChoice ll{{call + hops, r.bytes_per_byte / ll_b}, Algorithm::ring_ll};
    const CollectiveChoice simple{{call + kSimpleExtraBase + hops + r.steps * kSimpleExtraStep, r.bytes_per_byte / b},
                                  Algorithm::ring_simple};
    return simple.cost.time(bytes) < ll.cost.time(bytes) ? simple : ll;
}

void add(AlphaBeta& total, const AlphaBeta& part, double share) {
    total.latency_s += part.latency_s;
    total.seconds_per_byte += part.seconds_per_byte * share;
}

// Inside first, then up, then inside again; each part on the shard the levels below left.
CollectiveChoice hierarchical(CollectiveKind kind, const Spans& spans, double bytes,
                              CollectiveOptions options) {
    options.low_latency_protocol = false;
    AlphaBeta total;
    double share = 1;  // the part of the buffer each chip still holds at level j
    const std::size_t top = spans.size() - 1;
    for (std::size_t j = 0; j < spans.size(); ++j) {
        CollectiveKind part = kind;
        if (kind == CollectiveKind::all_reduce && j != top) part = CollectiveKind::reduce_scatter;
        const CollectiveChoice c = level_collective(part, spans[j], bytes * share, options);
        add(total, c.cost, share);
        // all-reduce: the all-gather back up costs what the reduce-scatter down did
        if (kind == CollectiveKind::all_reduce && j != top) add(total, c.cost, share);
        if (kind != CollectiveKind::broadcast) share /= static_cast<double>(spans[j].size);
    }
    return {total, Algorithm::hierarchical};
}

// NCCL's tree across nodes (and NVLS-tree with in-network reduction inside them): each unit
// below the top all-reduces its buffer by its own means (ring, NVLS), its chips each hand the
// 1/Π p_i shard they hold to their own rail, and the top level runs a double binary tree over
// the nodes; the parts work on chunks at once (a pipeline), so the slowest sets the rate and
// the latencies add. The tree moves 2n per node over p > 2 nodes, n over two (each node is
// the other's only child). Only for an all-reduce whose top span is a switched fabric.
constexpr double kTreePipelineBytes = 16 * 4194304.0;  // 16 channels × NCCL_BUFFSIZE 4 MiB

bool tree_across_nodes(CollectiveKind kind, const Spans& spans) {
    const Topology t = spans.back().level->topology;
    return kind == CollectiveKind::all_reduce && spans.back().dim < 0 &&
           (t == Topology::fat_tree || t == Topology::dragonfly);
}

CollectiveChoice pipelined_tree(const Spans& spans, double bytes, CollectiveOptions options) {
    options.low_latency_protocol = false;
    AlphaBeta total;
    double share = 1;
    const std::size_t top = spans.size() - 1;
    for (std::size_t j = 0; j < top; ++j) {
        const AlphaBeta c = level_collective(CollectiveKind::all_reduce, spans[j], bytes * share, options).cost;
        total.latency_s += c.latency_s;
        total.seconds_per_byte = std::max(total.seconds_per_byte, c.seconds_per_byte * share);
        share /= static_cast<double>(spans[j].size);
    }
    const Span& s = spans[top];
    const NetworkLevel& l = *s.level;
    const double p = static_cast<double>(s.size);
    total.latency_s += l.call_latency_us * 1e-6 + kSimpleExtraBase +
                       2 * std::log2(p) * (l.latency_us * 1e-6 + kSimpleExtraStep);
    total.seconds_per_byte = std::max(total.seconds_per_byte, (s.size == 2 ? 1.0 : 2.0) / span_bandwidth(s) * share);
    // Filling and draining the pipeline: the chunks in flight, one NCCL buffer per channel,
    // cross the slowest part once more than the buffer alone would.
    total.latency_s += kTreePipelineBytes * total.seconds_per_byte;
    return {total, Algorithm::double_binary_tree};
}

// Per byte of each chip's buffer, what crosses each level: to peers of the innermost span
// on the innermost level, and on every level above, whatever leaves the unit below.
template <typename PerLevel>
void for_each_all_to_all_share(const Spans& spans, PerLevel&& f) {
    const double p = static_cast<double>(group_size(spans));
    double below = 1;
    for (std::size_t j = 0; j < spans.size(); ++j) {
        const double ps = static_cast<double>(spans[j].size);
        f(spans[j], j == 0 ? (ps - 1) / p : (p - below) / p);
        below *= ps;
    }
}

// Seconds per byte of the buffer for a share of it on one span: the span's bandwidth, or on
// a ring or torus dimension its bisection (p·n/4 over the cut for the whole buffer, which
// sends (p−1)/p of it).
double all_to_all_seconds_per_byte(const Span& s, double share) {
    const double p = static_cast<double>(s.size);
    const bool ring_like = s.dim >= 0 || s.level->topology == Topology::ring;
    const double bisection_factor = ring_like ? p * p / (4 * (p - 1)) : 1.0;
    return share * bisection_factor / span_bandwidth(s);
}

// The levels work at once, so the slowest sets the time.
CollectiveChoice all_to_all(const Spans& spans) {
    AlphaBeta cost;
    double call = 0;
    for_each_all_to_all_share(spans, [&](const Span& s, double share) {
        call = std::max(call, s.level->call_latency_us * 1e-6);
        cost.latency_s += (static_cast<double>(s.size) - 1) * s.level->latency_us * 1e-6;
        cost.seconds_per_byte = std::max(cost.seconds_per_byte, all_to_all_seconds_per_byte(s, share));
    });
    cost.latency_s += call;
    return {cost, spans.size() == 1 && (spans[0].dim >= 0 || spans[0].level->topology == Topology::ring)
                      ? Algorithm::bisection
                      : Algorithm::direct};
}

// The pair of a send/recv that crosses the outermost level the group spans.
Span outermost_pair(const Spans& spans) {
    Span pair = spans.back();
    pair.size = 2;
    return pair;
}

}  // namespace

CollectiveChoice group_collective(CollectiveKind kind, const Spans& spans, double bytes,
                                  const CollectiveOptions& options) {
    if (spans.empty() || kind == CollectiveKind::none) return {};
    if (kind == CollectiveKind::all_to_all) return all_to_all(spans);
    if (kind == CollectiveKind::send_recv) return level_collective(kind, outermost_pair(spans), bytes, options);
    if (spans.size() == 1) return level_collective(kind, spans.front(), bytes, options);
    const CollectiveChoice ring = flat_ring(kind, spans, bytes);
    if (options.force == CollectiveOptions::Force::ring || !ring_collective(kind)) return ring;
    CollectiveChoice best = ring;
    const CollectiveChoice tree = hierarchical(kind, spans, bytes, options);
    if (tree.cost.time(bytes) < best.cost.time(bytes)) best = tree;
    if (tree_across_nodes(kind, spans)) {
        const CollectiveChoice pipelined = pipelined_tree(spans, bytes, options);
        if (pipelined.cost.time(bytes) < best.cost.time(bytes)) best = pipelined;
    }
    return best;
}

AlphaBeta group_bound(CollectiveKind kind, const Spans& spans) {
    if (spans.empty() || kind == CollectiveKind::none) return {};
    if (kind == CollectiveKind::all_to_all) return {0, all_to_all(spans).cost.seconds_per_byte};
    if (kind == CollectiveKind::send_recv) return level_bound(kind, outermost_pair(spans));
    if (spans.size() == 1) return level_bound(kind, spans.front());
    double best = ring_shape(kind, static_cast<double>(group_size(spans))).bytes_per_byte / flat_ring_bandwidth(spans);
    double tree = 0, share = 1;
    for (std::size_t j = 0; j < spans.size(); ++j) {
        const bool top = j + 1 == spans.size();
        const CollectiveKind part = kind == CollectiveKind::all_reduce && !top ? CollectiveKind::reduce_scatter : kind;
        tree += level_bound(part, spans[j]).seconds_per_byte * share * (kind == CollectiveKind::all_reduce && !top ? 2 : 1);
        if (kind != CollectiveKind::broadcast) share /= static_cast<double>(spans[j].size);
    }
    best = std::min(best, tree);
    if (tree_across_nodes(kind, spans)) {
        double pipelined = 0;
        share = 1;
        for (std::size_t j = 0; j + 1 < spans.size(); ++j) {
            pipelined = std::max(pipelined, level_bound(kind, spans[j]).seconds_per_byte * share);
            share /= static_cast<double>(spans[j].size);
        }
        const Span& s = spans.back();
        pipelined = std::max(pipelined, (s.size == 2 ? 1.0 : 2.0) / span_bandwidth(s) * share);
        best = std::min(best, pipelined);
    }
    return {0, best};
}

}  // namespace envelope
