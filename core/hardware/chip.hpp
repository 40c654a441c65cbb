#pragma once
// One accelerator: its roofs (peak compute per format, memory capacity and bandwidth)
// and the achievable fraction of each roof.
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
    double scale_up_gbps = 0;         // per-chip scale-up bandwidth, one direction, GB/s
    double scale_up_latency_us = 0;   // per-step latency of a scale-up collective, µs
    double scale_out_gbps = 0;        // per-chip share of the node's NICs, one direction, GB/s
    double tdp_w = 0;

    // Achievable fraction of the matrix peak, per format; `matrix_efficiency_default`
    // applies to formats without their own entry.
    std::array<std::optional<double>, std::size(kAllPrecisions)> matrix_efficiency{};
    double matrix_efficiency_default = 0;
    double memory_efficiency = 0;     // achievable fraction of hbm_tb_s
    double scale_up_efficiency = 0;   // achievable fraction of scale_up_gbps for large messages

    std::optional<double> peak(Precision p) const {
        return peak_tflops[static_cast<std::size_t>(p)];
    }
    double matrix_efficiency_for(Precision p) const {
        const auto& e = matrix_efficiency[static_cast<std::size_t>(p)];
        return e ? *e : matrix_efficiency_default;
    }
};

}  // namespace envelope
