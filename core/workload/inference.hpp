#pragma once
// An inference workload: one static batch of equal-length requests, prefilled together
// and then decoded to completion (the "static" mode of shared/validation/FORMAT.md).
#include <cstdint>

#include "common/precision.hpp"

namespace envelope {

struct Parallelism {
    int64_t tp = 1;   // tensor parallel degree (Megatron column/row split)
    // pp, dp, ep, cp will join here; the evaluator multiplies them into chips used.
};

struct PrecisionPlan {
    Precision weights = Precision::bf16;
    Precision kv_cache = Precision::bf16;
    Precision activations = Precision::bf16;
};

struct InferenceWorkload {
    int64_t batch = 1;            // concurrent sequences
    int64_t input_tokens = 1;     // prompt length per sequence
    int64_t output_tokens = 1;    // generated tokens per sequence (the first comes from prefill)
    Parallelism parallelism;
    PrecisionPlan precision;
    bool flash_attention = true;  // fused attention kernel: scores never reach HBM
};

}  // namespace envelope
