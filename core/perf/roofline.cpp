#include "perf/roofline.hpp"

#include "network/collective.hpp"

namespace envelope {

namespace {

// FLOP/s the op's math runs at on this chip (0 when unknown: no compute roof).
double achievable_flops(const Op& op, const Chip& chip) {
    switch (op.cls) {
        case OpClass::matmul:
        case OpClass::attention: {
            const auto peak = chip.peak(op.precision);
            return peak ? *peak * 1e12 * chip.matrix_efficiency_for(op.precision) : 0.0;
        }
        case OpClass::vector: {
            const auto peak = chip.peak(Precision::fp32);
            return peak ? *peak * 1e12 : 0.0;
        }
        case OpClass::lookup:
        case OpClass::collective: return 0.0;
    }
    return 0.0;
}

}  // namespace

Roofs roofs_of(const Op& op, const Chip& chip, const NetworkLevel* level) {
    Roofs r;
    if (op.cls == OpClass::collective) {
        if (level) {
            const AlphaBeta c = collective_cost(op.collective, op.group, *level);
            r.network_s = constant(c.latency_s) + c.seconds_per_byte * op.message_bytes;
        }
        return r;
    }
    const double flops_per_s = achievable_flops(op, chip);
    if (flops_per_s > 0) r.compute_s = (1.0 / flops_per_s) * op.flops;
    const double bytes_per_s = chip.hbm_tb_s * 1e12 * chip.memory_efficiency;
    r.memory_s = (1.0 / bytes_per_s) * op.traffic.total();
    return r;
}

}  // namespace envelope
