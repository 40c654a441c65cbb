#pragma once
// Cost of a collective on one network level, in α–β form:
//     time = latency_s + seconds_per_byte · n
// with n the size of the full buffer on each chip (the all-reduce input, the all-gather
// output, the reduce-scatter input, the message of a send/recv).
#include <cstdint>
#include <vector>

#include "network/collective_kind.hpp"
#include "network/network.hpp"

namespace envelope {

struct AlphaBeta {
    double latency_s = 0;
    double seconds_per_byte = 0;

    double time(double bytes) const { return latency_s + seconds_per_byte * bytes; }
};

// The ring algorithm's shape (Thakur, Rabenseifner & Gropp 2005, "Optimization of
// Collective Communication Operations in MPICH", §4; Patarasuk & Yuan 2009): with p chips
// it takes s steps and sends r bytes per byte of the buffer n:
//   all-reduce (reduce-scatter + all-gather): s = 2(p−1), r = 2(p−1)/p
//   all-gather, reduce-scatter:               s = p−1,    r = (p−1)/p
//   send/recv:                                s = 1,      r = 1
// On a switch the ring is embedded with every chip sending at its full injection
// bandwidth (NCCL's ring on NVSwitch). p = 1 costs nothing.

// The roofline bound of a collective: no latency, the bytes at the bandwidth of the best
// algorithm the level offers (the ring's 2(p−1)/p·n/B for an all-reduce, or NVLS's
// n/(B_link·η_nvls) where the switch reduces).
AlphaBeta collective_bound(CollectiveKind kind, int64_t chips, const NetworkLevel& level);

// How an engine implements its all-reduces (engine/engine.hpp).
enum class AllReduceImpl {
    library,  // the collective library (NCCL, RCCL, HCCL) and the protocol it picks
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
    // custom: the one-shot limits by group size, smallest group first; a message above
    // its limit (or a group above every max_chips) goes to the library
    std::vector<OneShotLimit> one_shot;
    double one_shot_latency_us = 0;   // the smallest one-shot all-reduce
    double one_shot_efficiency = 1;   // fraction of the link bandwidth it reaches
    // The library's algorithm, when forced (NCCL_ALGO): ring only, or NVLS only.
    enum class Force { none, ring, nvls } force = Force::none;
};

struct CollectiveChoice {
    AlphaBeta cost;
    const char* algorithm = "none";  // "ring/LL", "ring/simple", "nvls", "one-shot"
};

// The algorithm and protocol a collective really runs for a message of `bytes` on this
// level, and its cost. The collective library follows NCCL's own cost model
// (NVIDIA/nccl src/graph/tuning.cc, ncclTopoTuneModel: time = base latency + steps ·
// per-step latency + bytes / bandwidth, per protocol) and takes the fastest:
//   ring, LL protocol (8-byte stores carrying a flag each: low latency, half the bandwidth)
//        call_latency + s·α + r·n / (B/2)
//   ring, Simple protocol (full bandwidth, more latency per step; NCCL's NVLink table:
//        +4.8 µs base and +2.93 µs per step over LL)
//        call_latency + 4.8 µs + s·(α + 2.93 µs) + r·n / B
//   NVLS, all-reduce on a switch that reduces in the network, for groups of at least
//   the level's NVLS minimum (NCCL's own choice, measured: H200 from 5 GPUs, B200 from 6):
//        nvls_latency + n / (B_link · η_nvls)
// with s the ring's steps and r the bytes each chip sends per byte of the buffer
// (all-reduce 2(p−1) and 2(p−1)/p, all-gather and reduce-scatter p−1 and (p−1)/p,
// send/recv 1 and 1). An engine's custom all-reduce, within its one-shot limits:
//   one-shot (each chip reads every peer's buffer): one_shot_latency + (p−1)·n / (B_link · η)
// B is the bandwidth a group of p chips really has: on a switch each chip's whole
// bandwidth; on a fully connected level only p − 1 of its size − 1 links,
// B = bandwidth · efficiency · (p − 1)/(size − 1).
CollectiveChoice choose_collective(CollectiveKind kind, int64_t chips, double bytes, const NetworkLevel& level,
                                   const CollectiveOptions& options);

}  // namespace envelope
