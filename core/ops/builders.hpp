#pragma once
// Small constructors shared by the lowering files: one per kind of kernel, each
// stating its FLOP and byte formula once.
#include "ops/op.hpp"

namespace envelope::build {

// Dense GEMM [tokens × k] · [k × n] with a weight matrix of k × n (+ bias n), its input
// in format `inputs` and its output in `outputs` (an fp8 GEMM writes a 16-bit result).
// FLOPs = 2·tokens·k·n (+ tokens·n for the bias add).
// Weights stored narrower than the inputs (weight-only quantization: int4 or fp8 weights with
// 16-bit activations) are dequantized in the kernel: each weight element once per block of
// kDequantRows output rows (a GEMM tile's M), at 4 vector operations for a 4-bit element
// (unpack: shift, mask; convert; scale) and 2 for an 8-bit one (convert, scale).
Op matmul(const char* name, double count, double tokens, double k, double n, Precision weights,
          Precision inputs, Precision outputs, bool bias);
inline constexpr double kDequantRows = 128;

// `groups` GEMMs of [tokens × k] · [k × n], each with its own weights, in one kernel (a
// grouped GEMM: the experts of a mixture-of-experts layer): groups times matmul's FLOPs and
// bytes, one kernel.
Op grouped_matmul(const char* name, double count, double groups, double tokens, double k, double n,
                  Precision weights, Precision inputs, Precision outputs, bool bias);

// Elementwise/reduction kernel over `elements_in` read and `elements_out` written
// activation elements, with `flops_per_out` operations per output element and
// `weight_elements` parameters read (norm scales).
Op vector(const char* name, double count, Affine elements_in, Affine elements_out,
          double flops_per_out, Precision activations, double weight_elements = 0,
          Precision weights = Precision::bf16);

// Fused attention (FlashAttention, Dao et al. 2022): `pairs` (query, key) pairs at
// `flops_per_pair` FLOPs each (4·d for a head of dimension d: Q·Kᵀ and P·V), over `rows` query
// rows (query tokens × heads, per chip, counted once per kernel call they go through); the
// caller sets its traffic.
Op attention(double count, Precision math, const Affine& pairs, double flops_per_pair, double rows);

// Collective over the `group` chips of one group of parallel dimension `dim`, on a buffer
// of `bytes` per chip, holding values in format `precision`.
Op collective(const char* name, double count, CollectiveKind kind, Affine bytes, ParallelDim dim,
              int64_t group, Precision precision);

}  // namespace envelope::build
