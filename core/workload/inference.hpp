#pragma once
// An inference workload: one static batch of equal-length requests, prefilled together
// and then decoded to completion (the "static" mode of shared/validation/FORMAT.md), on
// each data-parallel replica.
#include <cmath>
#include <cstdint>
#include <memory>

#include "common/precision.hpp"
#include "model/model.hpp"

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

// Speculative decoding (Leviathan et al. 2023, arXiv:2211.17192; Chen et al. 2023,
// arXiv:2302.01318): a drafter proposes draft_tokens tokens one at a time, the target model
// checks them all in one pass, and each is accepted with probability `acceptance` (taken
// independent). The drafter is a separate small model, or, without one, a one-layer head on
// the target (DeepSeek-V3's multi-token prediction, EAGLE, Medusa-style heads).
struct Speculative {
    int64_t draft_tokens = 0;             // k; 0: no speculation
    double acceptance = 0;                // α, per drafted token
    std::shared_ptr<const Model> draft;   // none: one layer of the target's last group + its head

    bool on() const { return draft_tokens > 0; }
    // Tokens each target pass yields, the accepted drafts and the target's own token:
    // E = Σ_{i=0..k} α^i = (1 − α^(k+1)) / (1 − α) (Leviathan et al. 2023, eq. 1); k + 1 at α = 1.
    double tokens_per_step() const {
        if (!on()) return 1;
        const double k = static_cast<double>(draft_tokens);
        return acceptance >= 1 ? k + 1 : (1 - std::pow(acceptance, k + 1)) / (1 - acceptance);
    }
};

// How requests reach the engine: one static batch run to completion, or a closed loop of
// `batch` clients under continuous batching (each sends its next request when its last
// one finishes; inference/serving.hpp).
// server: an open loop, requests arriving at an offered rate (inference/open_loop.hpp).
enum class ServingMode { static_batch, concurrency, server };

// Request lengths that vary from request to request (inference/lengths.hpp): the mean input
// and output lengths, which need not be integers, and how they spread. Means 0: every
// request has exactly input_tokens / output_tokens. With means set, input_tokens and
// output_tokens hold the longest request (⌈max⌉), which the memory is sized for.
struct RequestLengths {
    double input_mean = 0;
    double output_mean = 0;
    // Uniform on [r·M, M] with M = 2·mean / (1 + r) (InferenceX's random range ratio 0.8);
    // 1: every request has the mean length (a mean stated without its spread).
    double range_ratio = 1;

    bool on() const { return input_mean > 0 || output_mean > 0; }
    // The largest length of a distribution of this mean, and its variance.
    double max_of(double mean) const { return 2 * mean / (1 + range_ratio); }
    double variance_of(double mean) const {
        const double width = (1 - range_ratio) * max_of(mean);
        return width * width / 12;
    }
};

struct InferenceWorkload {
    ServingMode mode = ServingMode::static_batch;
    int64_t batch = 1;            // concurrent sequences per replica (data-parallel copy)
    int64_t input_tokens = 1;     // prompt length per sequence
    int64_t output_tokens = 1;    // generated tokens per sequence (the first comes from prefill)
    PrecisionPlan precision;
    bool flash_attention = true;  // fused attention kernel: scores never reach HBM
    Speculative speculative;
    // Share of each prompt already in the KV cache when it arrives (prefix caching: a shared
    // system prompt, a conversation's earlier turns); prefill computes only the rest.
    double prefix_cache_hit = 0;
    // Beam search: each request decodes `beams` hypotheses side by side, sharing its prompt's
    // KV cache, and returns one (the output tokens count once).
    int64_t beams = 1;
    // Share of the KV cache kept in the host's memory (KV offload, e.g. LMCache, vLLM's CPU
    // offload): read over the host link at every decode step instead of from HBM.
    double kv_offload = 0;
    // Chunked prefill: prompts run in passes of at most this many tokens (0: whole), each
    // attending over the chunks before it and reading every weight again.
    int64_t prefill_chunk = 0;
    RequestLengths lengths;
    // server mode: requests per second offered to the whole job (all replicas together).
    double request_rate = 0;
    // The requests of a finite run (a benchmark's --num-prompts); 0: unbounded. server mode:
    // rates are then over the run, N requests from the first arrival to the last completion;
    // concurrency mode: the run's rounds, the first a burst of every client (serving.hpp).
    int64_t requests = 0;

    // Prompt tokens prefill finds cached: ⌊hit · input⌋, leaving at least one to compute.
    int64_t cached_prompt_tokens() const {
        const auto cached = static_cast<int64_t>(prefix_cache_hit * static_cast<double>(input_tokens));
        return cached < input_tokens ? cached : input_tokens - 1;
    }
};

}  // namespace envelope
