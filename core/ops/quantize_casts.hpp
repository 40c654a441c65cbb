#pragma once
// The casts a low-precision training step adds around its GEMMs (NVIDIA Transformer Engine's
// quantize kernels: cast_transpose, transformer_engine/common/transpose/cast_transpose.cu, which
// the 4-bit recipes' quantizers follow, a row-wise and a column-wise copy): each GEMM's 16-bit
// input is cast to the GEMM's format and also written
// transposed, for the weight-gradient GEMM that reads it the other way; in the backward pass
// each GEMM's output gradient likewise, for its dgrad and wgrad. Each cast reads 2 bytes and
// writes 2 × bytes_per_element per element: memory-bound kernels of their
// own, the reason an fp8 or fp4 step gains less than its GEMMs do.
#include <vector>

#include "ops/op.hpp"

namespace envelope {

// Adds the casts to a stage's forward and backward ops (only where a GEMM runs on tensor
// cores narrower than 16 bits: fp8, int8, fp4, int4; the weights' low-precision copies are cast
// once per step and left out).
void add_quantize_casts(std::vector<Op>& forward, std::vector<Op>& backward);

}  // namespace envelope
