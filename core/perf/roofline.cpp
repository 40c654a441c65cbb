#include "perf/roofline.hpp"

#include "network/collective.hpp"
#include "perf/realism.hpp"

namespace envelope {

double roofline_flops_per_s(OpClass cls, Precision p, const Chip& chip) {
    switch (cls) {
        case OpClass::matmul:
        case OpClass::attention: {
            const auto peak = chip.peak(p);
            return peak ? *peak * 1e12 * chip.matrix_efficiency_for(p) : 0.0;
        }
        case OpClass::vector: {
            const auto peak = chip.peak(Precision::fp32);
            return peak ? *peak * 1e12 : 0.0;
        }
        case OpClass::lookup:
        case OpClass::collective:
        case OpClass::host: return 0.0;
    }
    return 0.0;
}

double roofline_bytes_per_s(const Chip& chip) { return chip.hbm_tb_s * 1e12 * chip.memory_efficiency; }

namespace {

// FLOP/s the op's math runs at on this chip (0 when unknown: no compute roof): the roofline
// rate, and in the expected model the GEMM's shape efficiency or fused attention's own.
double achievable_flops(const Op& op, const TimingContext& ctx) {
    const Chip& chip = ctx.chip;
    const double best = roofline_flops_per_s(op.cls, op.precision, chip);
    if (ctx.model != TimingModel::expected || best == 0) return best;
    const double sustained = ctx.sustained ? chip.sustained_compute : 1.0;
    if (op.cls == OpClass::matmul) return best * gemm_shape_efficiency(op.shape, chip) * sustained;
    if (op.cls == OpClass::attention) {
        const double peak = *chip.peak(op.precision) * 1e12 * sustained;
        const bool backward = op.variant == OpVariant::backward;
        if (backward && chip.attention_backward_efficiency > 0) return peak * chip.attention_backward_efficiency;
        if (chip.attention_efficiency > 0) return peak * chip.attention_efficiency;
        return best * sustained;
    }
    return best;
}

}  // namespace

Roofs roofs_of(const Op& op, const Spans* spans, const TimingContext& ctx) {
    Roofs r;
    const bool expected = ctx.model == TimingModel::expected;
    if (op.cls == OpClass::host) {
        if (expected) r.overhead_s = ctx.engine.step_overhead_us * 1e-6;
        return r;
    }
    if (expected) r.overhead_s = kernel_overhead_s(op, ctx.chip, ctx.engine);
    if (op.cls == OpClass::collective) {
        if (spans) {
            const AlphaBeta c =
                expected ? group_collective(op.collective, *spans, op.message_bytes.base, ctx.engine.collectives).cost
                         : group_bound(op.collective, *spans);
            r.network_s = constant(c.latency_s) + c.seconds_per_byte * op.message_bytes;
        }
        return r;
    }
    const double flops_per_s = achievable_flops(op, ctx);
    // Fused attention's rows add their fixed work at the kernel's rate (expected model only).
    const double row_work = expected ? attention_row_work_flops(op, ctx.chip) : 0.0;
    if (flops_per_s > 0) r.compute_s = (1.0 / flops_per_s) * (op.flops + constant(row_work));
    // Dequantization on the vector units, in the same SMs as the tensor work: added to it.
    const auto vector_peak = ctx.chip.peak(Precision::fp32);
    if (vector_peak && *vector_peak > 0) r.compute_s = r.compute_s + (1.0 / (*vector_peak * 1e12)) * op.vector_flops;
    const bool gemm = op.cls == OpClass::matmul && expected && ctx.chip.gemm_memory_efficiency > 0;
    const double bytes_per_s = gemm ? ctx.chip.hbm_tb_s * 1e12 * ctx.chip.gemm_memory_efficiency : roofline_bytes_per_s(ctx.chip);
    r.memory_s = (1.0 / bytes_per_s) * op.traffic.total();
    // An offloaded KV cache streams in over the host link while the kernel reads the rest from
    // HBM: its own roof, on the network bound.
    if (ctx.host_link_gbps > 0) r.network_s = (1.0 / (ctx.host_link_gbps * 1e9)) * op.traffic.host_read;
    return r;
}

}  // namespace envelope
