#pragma once
// Collectives in α–β form:
//     time = latency_s + seconds_per_byte · n
// with n the size of the full buffer on each chip (the all-reduce input, the all-gather
// output, the reduce-scatter input, the all-to-all send buffer, the broadcast or
// send/recv message). The collective library takes the fastest algorithm for the message
// size among those the topology offers, unless one is forced. Formulas, with p units
// taking part, the ring's steps s and bytes per byte r, per-hop latency α, the call's
// fixed latency c and the bandwidth B each unit reaches (span_bandwidth below):
//
// One level (level_collective):
//   ring, LL protocol      c + s·α + r·n / (B/2)         NCCL's low-latency protocol: 8-byte
//                                                        stores carrying a flag each
//   ring, Simple protocol  c + 4.8 µs + s·(α + 2.93 µs) + r·n / B
//                          (NVIDIA/nccl src/graph/tuning.cc: on NVLink Simple starts 4.8 µs
//                          later and costs 2.93 µs more per step than LL)
//   bidirectional ring     c + s·α + r·n / B             ring topologies and each torus
//                          dimension, with half the buffer going each way round
//   double binary tree     c + 2·log2(p)·α + 2n / (B/2) (LL) or the Simple form
//                          (all-reduce on fat trees and dragonflies; NCCL's tree)
//   in-network reduction   c_inr + n / (B_links · η_inr) (all-reduce summed in the switch:
//                          NVLS, SHARP; from the level's min_chips up)
//   one-shot (custom)      c₁ + (p−1)·n / (B_links · η₁ · f)   each chip reads every peer's
//                          buffer (f: the share of a fully connected level's links it has)
//   all-to-all, direct     c + (p−1)·α + (p−1)/p · n / B
//   all-to-all, ring/torus c + (p−1)·α + (p·n/4) / B     bounded by the bisection: half the
//                          chips send half their buffer across the cut of a closed ring
// with s and r: all-reduce 2(p−1) and 2(p−1)/p; all-gather, reduce-scatter p−1 and
// (p−1)/p; broadcast p−1 and 1; send/recv 1 and 1 (Thakur, Rabenseifner & Gropp 2005;
// Patarasuk & Yuan 2009).
//
// Several levels (group_collective), the faster of:
//   flat ring   one ring through every chip (NCCL's rings): the steps crossing level j
//               cost its α (all-reduce: 2(p_j−1)·Π_{k>j} p_k of them), and the bandwidth
//               is the least over levels of B_j · Π_{k<j} p_k (each chip of a lower unit
//               drives its own links into level j, one ring channel each)
//   hierarchical reduce-scatter inside, the collective one level up on the 1/p_0 shard,
//               all-gather inside, recursively, each part a call of its own with the
//               Simple protocol (NCCL's NVLS-tree and CollNet run Simple only; Meta's
//               topology-aware collectives); all-gather and reduce-scatter likewise,
//               broadcast level by level; all-to-all: each level carries the part of the
//               buffer that leaves the unit below, all levels at once
//   send/recv   over the outermost level the group spans (the slowest pair).
#include <cstdint>
#include <vector>

#include "network/collective_kind.hpp"
#include "network/network.hpp"
#include "network/span.hpp"

namespace envelope {

struct AlphaBeta {
    double latency_s = 0;
    double seconds_per_byte = 0;

    double time(double bytes) const { return latency_s + seconds_per_byte * bytes; }
};

enum class Algorithm {
    none,
    ring_ll,
    ring_simple,
    bidirectional_ring,
    double_binary_tree,
    in_network,    // NVLS, SHARP
    one_shot,      // an engine's custom all-reduce
    direct,        // all-to-all without a ring
    bisection,     // all-to-all on a ring or torus dimension
    hierarchical,  // across levels: inside, then above, then inside again
};
const char* to_string(Algorithm a);

// How an engine implements its all-reduces (engine/engine.hpp).
enum class AllReduceImpl {
    library,  // the collective library (NCCL, RCCL, HCCL) and the algorithm it picks
    custom,   // the engine's own one-shot kernel for small messages (TensorRT-LLM, vLLM,
              // SGLang custom all-reduce), the library above its size limit
};

// Custom all-reduce: groups of up to max_chips send messages of up to max_bytes one-shot.
struct OneShotLimit {
    int64_t max_chips = 0;
    double max_bytes = 0;
};

struct CollectiveOptions {
    AllReduceImpl all_reduce = AllReduceImpl::library;
    std::vector<OneShotLimit> one_shot;  // custom: by group size, smallest first
    double one_shot_latency_us = 0;      // the smallest one-shot all-reduce
    double one_shot_efficiency = 1;      // fraction of the link bandwidth it reaches
    // A forced algorithm (nccl-tests with NCCL_ALGO): rings only (LL or Simple, one flat
    // ring across levels), or in-network reduction.
    enum class Force { none, ring, in_network } force = Force::none;
    // The low-latency protocol (LL) may be used; NCCL's hierarchical algorithms (NVLS
    // tree, CollNet) run the Simple protocol only.
    bool low_latency_protocol = true;
};

struct CollectiveChoice {
    AlphaBeta cost;
    Algorithm algorithm = Algorithm::none;
};

// Bytes/s each unit of the span can send (and receive) at once: the level's achievable
// bandwidth, on a fully connected level only the (p−1)/(size−1) of its links that reach
// the group, on a fat tree or dragonfly 1/oversubscription of it, on a ring or a torus
// dimension the two links along it, halved when the span does not close the ring.
double span_bandwidth(const Span& span);

// The algorithm a collective runs on one span for a message of `bytes`, and its cost.
CollectiveChoice level_collective(CollectiveKind kind, const Span& span, double bytes,
                                  const CollectiveOptions& options);

// The roofline bound on one span: no latency, the bytes at the best algorithm's bandwidth.
AlphaBeta level_bound(CollectiveKind kind, const Span& span);

// The same over every span of a group (one span: level_collective). No spans: free.
CollectiveChoice group_collective(CollectiveKind kind, const Spans& spans, double bytes,
                                  const CollectiveOptions& options);

// The roofline bound: no latency, the bytes at the bandwidth of the best algorithm.
AlphaBeta group_bound(CollectiveKind kind, const Spans& spans);

}  // namespace envelope
