#include "network/nccl_tests.hpp"

namespace envelope {

double bus_bandwidth_factor(CollectiveKind kind, int64_t ranks) {
    const double n = static_cast<double>(ranks);
    switch (kind) {
        case CollectiveKind::all_reduce: return 2 * (n - 1) / n;
        case CollectiveKind::all_gather:
        case CollectiveKind::reduce_scatter:
        case CollectiveKind::all_to_all: return (n - 1) / n;
        case CollectiveKind::broadcast:
        case CollectiveKind::send_recv:
        case CollectiveKind::none: return 1;
    }
    return 1;
}

CollectivePoint collective_point(CollectiveKind kind, const Spans& spans, double bytes,
                                 const CollectiveOptions& options) {
    const CollectiveChoice c = group_collective(kind, spans, bytes, options);
    CollectivePoint p;
    p.bytes = bytes;
    p.time_s = c.cost.time(bytes);
    p.algorithm = c.algorithm;
    p.algbw_gbps = bytes / p.time_s / 1e9;
    p.busbw_gbps = p.algbw_gbps * bus_bandwidth_factor(kind, group_size(spans));
    p.bound_time_s = group_bound(kind, spans).time(bytes);
    return p;
}

}  // namespace envelope
