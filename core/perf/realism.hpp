#pragma once
// The realism layer: the mechanisms that make a real kernel slower than its roofline as
// the work per chip shrinks. Each takes parameters from the chip (hardware/chip.hpp) or
// the serving engine (engine/engine.hpp), each with its source in the preset.
#include "engine/engine.hpp"
#include "hardware/chip.hpp"
#include "network/network.hpp"
#include "ops/op.hpp"

namespace envelope {

// Fraction of the chip's best GEMM rate that a GEMM of this shape reaches:
//   waves   = ⌈⌈m/tile_m⌉·⌈n/tile_n⌉ / units⌉
//   fill    = m·n / (waves · units · tile_m · tile_n)      (partial tiles and the last wave)
//   k_loop  = k / (k + k_overhead)                          (each tile's fixed prologue/epilogue)
//   result  = fill · k_loop
// Wave and tile quantization: NVIDIA, "Matrix Multiplication Background User's Guide"
// (docs.nvidia.com/deeplearning/performance/dl-performance-matrix-multiplication). 1
// when the chip gives no tile model.
double gemm_shape_efficiency(const MatmulShape& shape, const Chip& chip);

// The fixed work of a fused attention kernel's query rows, in FLOPs at the kernel's rate: each
// row (once per kernel call) costs as much as k½ keys (chip.attention_half_keys, or the
// backward's own), so a row of k keys runs at k / (k + k½) of the kernel's best rate: the same
// idea as the GEMM tile's k_loop above, kept additive here so that a decode step's time stays
// affine in the context (METHODOLOGY.md §9.4). 0 for other ops.
double attention_row_work_flops(const Op& op, const Chip& chip);

// Fixed time of one kernel: the chip's device-side launch, ramp and tail (a GEMM's or an
// elementwise kernel's), plus the engine's unhidden host launch cost. Collectives carry
// their start-up in their latency α instead; host ops have none.
double kernel_overhead_s(const Op& op, const Chip& chip, const Engine& engine);

}  // namespace envelope
