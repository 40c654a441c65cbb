#pragma once
// An inference workload: one static batch of equal-length requests, prefilled together
// and then decoded to completion (the "static" mode of shared/validation/FORMAT.md), on
// each data-parallel replica.
#include <cstdint>

#include "common/precision.hpp"

namespace envelope {

struct PrecisionPlan {
    Precision weights = Precision::bf16;
    Precision kv_cache = Precision::bf16;
    Precision activations = Precision::bf16;  // the inputs of the GEMMs
    // The residual stream, norms, activation functions, attention (Q, O and its math, the
    // cache converted on the fly) and the all-reduces. Serving stacks keep these in 16 bits
    // when weights and GEMM inputs are 8-bit or less (TensorRT-LLM and vLLM FP8 recipes
    // quantize only GEMM inputs, KV cache and weights): the default is the activation format
    // when it has 16 bits or more, bf16 otherwise.
    Precision residual = Precision::bf16;
};

// The residual format a plan gets when it names none.
inline Precision default_residual(Precision activations) {
    return bytes_per_element(activations) >= 2 ? activations : Precision::bf16;
}

struct InferenceWorkload {
    int64_t batch = 1;            // concurrent sequences per replica (data-parallel copy)
    int64_t input_tokens = 1;     // prompt length per sequence
    int64_t output_tokens = 1;    // generated tokens per sequence (the first comes from prefill)
    PrecisionPlan precision;
    bool flash_attention = true;  // fused attention kernel: scores never reach HBM
};

}  // namespace envelope
