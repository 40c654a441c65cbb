#pragma once
// One collective as nccl-tests reports it (NVIDIA/nccl-tests doc/PERFORMANCE.md): the time
// of one call on a buffer of `bytes` per rank, the algorithm bandwidth bytes / time, and
// the bus bandwidth, algbw times the share of the buffer each rank must move over its
// slowest link so that it compares with the hardware's bandwidth:
//   all-reduce 2(n−1)/n; all-gather, reduce-scatter, all-to-all (n−1)/n; broadcast,
//   send/recv 1.
#include <cstdint>

#include "network/collective.hpp"

namespace envelope {

double bus_bandwidth_factor(CollectiveKind kind, int64_t ranks);

struct CollectivePoint {
    double bytes = 0;
    double time_s = 0;
    double algbw_gbps = 0;
    double busbw_gbps = 0;
    Algorithm algorithm = Algorithm::none;
    double bound_time_s = 0;  // the roofline bound (network/collective.hpp group_bound)
};

// Precondition: a group of at least two chips (spans not empty), bytes > 0.
CollectivePoint collective_point(CollectiveKind kind, const Spans& spans, double bytes,
                                 const CollectiveOptions& options);

}  // namespace envelope
