#include "network/collective.hpp"

namespace envelope {

AlphaBeta collective_cost(CollectiveKind kind, int64_t chips, const NetworkLevel& level) {
    if (chips <= 1 || kind == CollectiveKind::none) return {};
    const double p = static_cast<double>(chips);
    const double alpha = level.latency_us * 1e-6;
    const double bandwidth = level.bandwidth_gbps * 1e9 * level.efficiency;  // bytes/s
    const double phases = kind == CollectiveKind::all_reduce ? 2.0 : 1.0;
    return AlphaBeta{phases * (p - 1) * alpha, phases * (p - 1) / p / bandwidth};
}

}  // namespace envelope
