#pragma once
// The backward pass of a training step on one stage, derived op by op from the forward
// pass (ops/lower.hpp), in execution order: the recomputed forward ops first (full: every
// layer op again; selective: the attention core, Korthikanti et al. 2022 §5), then each
// forward op's gradients in reverse order:
//   matmul      dgrad [m × n]·[n × k] and wgrad [k × m]·[m × n], 2·m·k·n FLOPs each,
//               the weight gradient accumulated in fp32 (read and written, 4 B each)
//   attention   FlashAttention-2 backward: 2.5 × the forward's FLOPs (five GEMMs of two)
//   vector      twice the FLOPs; reads the output gradient and the saved input, writes
//               the input gradient
//   collective  the conjugate: all-reduce ↔ all-reduce, reduce-scatter ↔ all-gather,
//               a stage hand-off sends the gradient back; none for the embedding's
//               all-reduce (its backward is the identity) and the loss's scalars; the
//               context-parallel K/V all-gather is done again before its reduce-scatter
//   batched activation products (unfused attention): twice the FLOPs, traffic mirrored
// An op's `backward` (ops/op.hpp) changes this: a frozen weight's GEMM (fine-tuning) has its
// dgrad only; an accumulating one's dgrad also reads the input gradient it adds into; an identity
// op has no backward; a repeated one (QLoRA's dequantization) runs again as it is.
// Ops get variant recompute, dgrad, wgrad or backward (OpVariant) beside their forward name.
#include <vector>

#include "common/precision.hpp"
#include "ops/op.hpp"
#include "workload/training.hpp"

namespace envelope {

// `gradients`: the format activation gradients flow in (the residual format).
std::vector<Op> lower_backward(const std::vector<Op>& forward, Recompute recompute, Precision gradients);

}  // namespace envelope
