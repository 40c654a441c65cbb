#pragma once
// One forward pass of the model over a batch of sequences.
//
// Prefill: every prompt token is new and nothing is cached.
// Decode:  one new token per sequence attends over a cache that grows with the
//          context length L (cache = L − 1 earlier tokens plus the new one).
// Chunked prefill and speculative decoding are further choices of these fields.
#include <cstdint>

#include "common/affine.hpp"
#include "common/precision.hpp"

namespace envelope {

struct Pass {
    int64_t batch = 1;          // sequences
    int64_t new_tokens = 1;     // tokens per sequence processed in this pass
    Affine cached_tokens;       // tokens per sequence already in the KV cache (affine in L)
    int64_t logit_tokens = 1;   // tokens per sequence whose logits are computed
    int64_t allocated_tokens = 0;  // KV-cache slots reserved per sequence (prompt + generation)
    bool decode = false;        // a generation step (decode kernels), not a prefill
    // A training forward pass: no KV cache is written, every token gets logits and a
    // vocabulary-parallel cross-entropy loss (no logits gathered).
    bool training = false;
};

// The prompt's first `cached_tokens` are already in the KV cache (a prefix-cache hit): only
// the rest are computed, attending over all of them.
Pass prefill_pass(int64_t batch, int64_t input_tokens, int64_t allocated_tokens, int64_t cached_tokens = 0);
// Decode step whose new token sits at context length L (it attends over L tokens).
Pass decode_pass(int64_t batch, int64_t allocated_tokens);
// Prompt chunk j = 0, 1, … of `chunk` tokens after `cached` prompt tokens: cached + chunk·j
// tokens already in the cache (affine in j, the sum's variable), no logits.
Pass chunk_pass(int64_t batch, int64_t chunk, int64_t cached, int64_t allocated_tokens);
// The target's check of a speculative draft: `tokens` new tokens per sequence (the k drafts
// and the token before them), the first at context length L, all with logits.
Pass verify_pass(int64_t batch, int64_t allocated_tokens, int64_t tokens);
// A training micro-batch of `batch` sequences of `seq_len` tokens, split over `cp` chips of
// a context-parallel group: each holds seq_len/cp query tokens that attend, with the
// load-balanced (zig-zag) split, over (seq_len − seq_len/cp)/2 earlier tokens on average.
Pass training_pass(int64_t batch, int64_t seq_len, int64_t cp);

}  // namespace envelope
