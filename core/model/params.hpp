#pragma once
// Parameter counts of a dense decoder-only transformer, whole or per TP shard.
#include "model/model.hpp"
#include "parallel/tensor_parallel.hpp"

namespace envelope {

struct ParamCount {
    double attention = 0;   // per layer: Wq, Wk, Wv, Wo (+ biases)
    double mlp = 0;         // per layer: up (+ gate), down (+ biases)
    double norms = 0;       // per layer: two norms (scale, + shift for LayerNorm)
    double embedding = 0;   // token embedding (vocab × hidden)
    double lm_head = 0;     // output projection; 0 when tied to the embedding
    double final_norm = 0;

    double per_layer() const { return attention + mlp + norms; }
    double total(int64_t layers) const {
        return per_layer() * static_cast<double>(layers) + embedding + lm_head + final_norm;
    }
};

// Parameters one chip holds under the given TP split (the shapes of ops/dense_layer.cpp).
// Norm vectors and the row-parallel output biases are replicated on every chip; KV
// projections are replicated when tp > kv_heads.
//
// Positional embeddings are not counted: rotary ones have no parameters, and learned
// ones (max_seq_len × hidden) are < 0.1 % of any preset model.
ParamCount count_params(const Model& m, const TpShard& shard);

// The whole model (one shard of TP = 1).
ParamCount count_params(const Model& m);

}  // namespace envelope
