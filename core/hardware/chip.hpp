#pragma once
// One accelerator: its roofs (peak compute per format, memory capacity and bandwidth)
// and the achievable fraction of each roof. How chips are joined is the system's network
// (hardware/system.hpp), not the chip's.
//
// Peaks are vendor datasheet numbers (dense, no sparsity). Efficiencies are per-chip
// data with a source each (e.g. the best measured GEMM over peak); no efficiency
// constant lives in a formula.
#include <array>
#include <optional>
#include <string>

#include "common/precision.hpp"

namespace envelope {

// Dense peak TFLOP/s per format; nullopt where the chip has no such mode or the
// vendor does not publish it.
using PeakTable = std::array<std::optional<double>, std::size(kAllPrecisions)>;

struct Chip {
    std::string name;
    std::string source;

    PeakTable peak_tflops{};          // matrix-engine peaks; fp32 also serves as the vector roof
    double hbm_gb = 0;                // capacity, decimal GB
    double hbm_tb_s = 0;              // peak bandwidth, decimal TB/s
    double sram_mb = 0;               // on-chip last-level memory (L2 / Infinity Cache / SRAM)
    // The system preset whose network joins several of these chips when a system names
    // only a chip and a count (e.g. "dgx-h100" for an H100 SXM); empty: none.
    std::string reference_system;
    double tdp_w = 0;

    // What it costs and draws beyond its TDP (presets' "economics"; zero: not known).
    struct Economics {
        double price_usd = 0;           // purchase price of one accelerator
        double idle_w = 0;              // power when idle
        double cloud_usd_per_hour = 0;  // a representative on-demand price per chip-hour
        std::string source;             // with the dates of the prices
    } economics;

    // Achievable fraction of the matrix peak, per format; `matrix_efficiency_default`
    // applies to formats without their own entry.
    std::array<std::optional<double>, std::size(kAllPrecisions)> matrix_efficiency{};
    double matrix_efficiency_default = 0;
    double memory_efficiency = 0;     // achievable fraction of hbm_tb_s
    // Fraction of the microbenchmark matrix rate (matrix, attention efficiencies) that
    // whole-model runs sustain: seconds of back-to-back kernels under the power limit run at
    // lower clocks than one GEMM in a benchmark loop, and overlapped collectives take SMs.
    // Fitted per chip on the public end-to-end training cases (METHODOLOGY.md §36); 1: not
    // fitted, the microbenchmark rate.
    double sustained_compute = 1;

    // ---- the realism layer (perf/realism.hpp); zero values switch a mechanism off ----

    // GEMM kernels tile their output in tile_m × tile_n blocks spread over compute_units
    // (SMs, CUs, MMEs); a GEMM runs in whole waves of tiles, and each tile's main loop
    // carries a fixed prologue/epilogue worth gemm_k_overhead steps of its K loop.
    int64_t compute_units = 0;
    int64_t gemm_tile_m = 0;
    int64_t gemm_tile_n = 0;
    double gemm_k_overhead = 0;
    // Fixed device time of a kernel besides its roofline time (launch latency, pipeline
    // ramp-up, the tail of its last wave, the epilogue), µs: for GEMM and attention
    // kernels, and for the small elementwise ones.
    double gemm_overhead_us = 0;
    double kernel_overhead_us = 0;
    // Fraction of HBM bandwidth GEMM kernels reach when they stream their operands (below
    // a plain copy's: few output tiles keep few compute units pulling data); 0: `memory`.
    double gemm_memory_efficiency = 0;
    // Fused attention (FlashAttention) reaches this fraction of the matrix peak; 0: the
    // matrix efficiency.
    double attention_efficiency = 0;
    // Its backward pass (training) reaches this fraction; 0: the forward's.
    double attention_backward_efficiency = 0;
    // Keys per query at which the fused attention kernel runs at half those fractions: a call
    // whose queries attend k keys each runs at efficiency · k / (k + half_keys) (each query
    // row's fixed work, the Q load, the softmax rescale and the O store, costs as much as
    // half_keys keys). 0: no length effect. The backward's, 0: the forward's.
    double attention_half_keys = 0;
    double attention_backward_half_keys = 0;

    // A block-scaled format runs at its element format's peak and efficiency (precision.hpp).
    std::optional<double> peak(Precision p) const {
        return peak_tflops[static_cast<std::size_t>(element_format(p))];
    }
    double matrix_efficiency_for(Precision p) const {
        const auto& e = matrix_efficiency[static_cast<std::size_t>(element_format(p))];
        return e ? *e : matrix_efficiency_default;
    }
};

}  // namespace envelope
