#pragma once
// Timing of one operator: the slowest of its roofs, plus a fixed overhead.
//
//   t = max( FLOPs / achievable FLOP/s,
//            HBM bytes / achievable bandwidth,
//            collective time on its network level )  +  fixed overhead
//
// Roofline (Williams, Waterman & Patterson 2009, CACM 52(4)) gives the max; the
// achievable rates and the fixed overhead come from the timing model:
//   - TimingModel::roofline — what the hardware allows: datasheet peaks times the best
//     measured efficiency of the chip (MAMF GEMM, sustained HBM bandwidth), collectives
//     moving their bytes at the best algorithm's bandwidth, no latencies or fixed costs.
//     No run can beat it.
//   - TimingModel::expected — the realism layer (perf/realism.hpp): GEMM efficiency by
//     shape, fused-attention efficiency, per-kernel device and launch overhead, and the
//     collective algorithm the engine really runs at that message size.
// Each roof is affine in the decode context length and the overhead is constant, so the
// sum over a whole generation stays exact (perf/context_sum.hpp).
#include "common/affine.hpp"
#include "engine/engine.hpp"
#include "hardware/chip.hpp"
#include "network/span.hpp"
#include "ops/op.hpp"

namespace envelope {

// What bounds an op's time: one of the three roofs, or its fixed overhead when that is
// larger than the roof that binds.
enum class Bound { compute, memory, network, overhead };
inline constexpr int kRoofCount = 3;   // compute, memory, network: the max is over these
inline constexpr int kBoundCount = 4;  // + overhead

enum class TimingModel { roofline, expected };

// Seconds for one execution of the op under each roof (affine in context length), and
// the fixed time added to their max.
struct Roofs {
    Affine compute_s;
    Affine memory_s;
    Affine network_s;
    double overhead_s = 0;
};

struct TimingContext {
    const Chip& chip;
    const Engine& engine;
    TimingModel model = TimingModel::expected;
    double host_link_gbps = 0;  // the system's host link per chip, for host_read traffic
    // A whole-model run (a training step, a prefill): the matrix and fused-attention work runs
    // at the chip's sustained rate, chip.sustained_compute × its microbenchmark rate (clocks
    // under the power limit over seconds of back-to-back kernels, the SMs that overlapped
    // communication takes). false: one kernel in a benchmark loop (the GEMM cases).
    bool sustained = false;
};

// The best rates the chip reaches, what the roofline model times ops against: an op class's
// math in a format (peak × the chip's best measured efficiency; vector ops: the fp32 peak; 0
// where the chip has no such roof), and HBM traffic (peak × the streaming efficiency). The
// power model (cost/power.cpp) measures an op's activity against the same rates.
double roofline_flops_per_s(OpClass cls, Precision p, const Chip& chip);
double roofline_bytes_per_s(const Chip& chip);

// `spans` are where the op's collective group sits on the network (ignored for other ops;
// none: the op moves no data between chips).
// Vector ops use the chip's fp32 peak as their compute roof, or none when the chip
// does not publish one (they are memory-bound by a wide margin anyway).
Roofs roofs_of(const Op& op, const Spans* spans, const TimingContext& ctx);

}  // namespace envelope
