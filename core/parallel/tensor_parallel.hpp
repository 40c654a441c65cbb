#pragma once
// How Megatron-style tensor parallelism splits one layer over `tp` chips
// (Shoeybi et al. 2019, arXiv:1909.08053 §3): Q/K/V and the MLP up (and gate)
// projections are split by columns (heads / FFN width), the attention output and MLP
// down projections by rows, so each layer needs one all-reduce after attention and
// one after the MLP. Embedding and LM head are split over the vocabulary.
#include <cstdint>

#include "model/model.hpp"

namespace envelope {

struct TpShard {
    int64_t tp = 1;
    int64_t heads = 0;      // query heads per chip: heads / tp
    int64_t kv_heads = 0;   // KV heads per chip: kv_heads / tp, or 1 when tp > kv_heads
                            // (each KV head is then replicated on tp / kv_heads chips)
    int64_t ffn = 0;        // MLP inner width per chip: ceil(ffn / tp)
    int64_t vocab = 0;      // vocabulary rows per chip: ceil(vocab / tp)

    int64_t q_dim(const Model& m) const { return heads * m.head_dim; }
    int64_t kv_dim(const Model& m) const { return kv_heads * m.head_dim; }
};

// Precondition: tp divides heads, and tp divides kv_heads or kv_heads divides tp
// (checked by check_inference).
TpShard shard_for_tp(const Model& m, int64_t tp);

}  // namespace envelope
