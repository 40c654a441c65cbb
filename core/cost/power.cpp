#include "cost/power.hpp"

#include <algorithm>

#include "perf/roofline.hpp"

namespace envelope {

double op_activity(const OpReport& op, const Chip& chip, double memory_share) {
    if (op.cls == OpClass::collective || op.cls == OpClass::host || op.time_s <= 0) return 0;
    const double flops_rate = roofline_flops_per_s(op.cls, op.precision, chip);
    const double bytes_rate = roofline_bytes_per_s(chip);
    const double u_compute = flops_rate > 0 ? op.flops / op.time_s / flops_rate : 0;
    const double u_memory = bytes_rate > 0 ? (op.bytes_read + op.bytes_written) / op.time_s / bytes_rate : 0;
    return std::clamp(u_compute + memory_share * u_memory, 0.0, 1.0);
}

double dynamic_energy_j(const std::vector<PhaseReport>& phases, const std::vector<double>& weights, const Chip& chip,
                        const ChipPower& power, double stages) {
    const double dynamic_w = std::max(0.0, power.tdp_w - power.idle_w);
    double busy = 0;  // activity-weighted seconds, all stages
    for (std::size_t i = 0; i < phases.size() && i < weights.size(); ++i) {
        for (const OpReport& op : phases[i].ops) {
            busy += weights[i] * op.total_time_s * op_activity(op, chip, power.memory_share);
        }
    }
    return dynamic_w * busy / std::max(1.0, stages);
}

}  // namespace envelope
