#pragma once
// The casts an fp8 training step adds around its GEMMs (NVIDIA Transformer Engine's
// cast_transpose kernels, transformer_engine/common/transpose/cast_transpose.cu): each
// GEMM's 16-bit input is cast to fp8 and also written transposed, for the weight-gradient
// GEMM that reads it the other way (Hopper's fp8 tensor cores take only the TN layout);
// in the backward pass each GEMM's output gradient likewise, for its dgrad and wgrad.
// Each cast reads 2 bytes and writes 2 × 1 byte per element: memory-bound kernels of
// their own, the reason fp8 steps gain less than the 2× of the GEMMs.
#include <vector>

#include "ops/op.hpp"

namespace envelope {

// Adds the casts to a stage's forward and backward ops (only where a GEMM takes 1-byte
// inputs; the weights' fp8 copies are cast once per step and left out).
void add_fp8_casts(std::vector<Op>& forward, std::vector<Op>& backward);

}  // namespace envelope
