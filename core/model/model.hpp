#pragma once
// The architecture of a decoder-only transformer, as published in its config.
//
// Only dense layers exist today. Mixture-of-experts, MLA, Mamba and hybrid stacks
// will add optional blocks here (e.g. `std::optional<Moe> moe`) and a layer pattern;
// the lowering in ops/ already works per distinct layer type times its count, so a
// hybrid model becomes several layer types rather than a rewrite.
#include <cstdint>
#include <string>

namespace envelope {

enum class NormKind { rmsnorm, layernorm };

struct Model {
    std::string name;
    std::string source;       // where the numbers come from (config URL or paper)

    int64_t layers = 0;       // decoder layers
    int64_t hidden = 0;       // residual stream width (d_model)
    int64_t heads = 0;        // query heads
    int64_t kv_heads = 0;     // key/value heads: = heads for MHA, 1 for MQA, between for GQA
    int64_t head_dim = 0;     // per-head width (usually hidden / heads)
    int64_t ffn = 0;          // MLP inner width
    bool gated_ffn = false;   // SwiGLU/GeGLU: gate and up matrices plus down (3 matrices) vs 2
    int64_t vocab = 0;
    bool tied_embeddings = false;  // LM head shares the embedding matrix
    NormKind norm = NormKind::rmsnorm;
    bool linear_bias = false;      // biases on every linear layer (GPT-2/3 style)
    int64_t max_seq_len = 0;       // trained context length; longer contexts give a warning

    int64_t q_dim() const { return heads * head_dim; }       // width of Q (and of attention output)
    int64_t kv_dim() const { return kv_heads * head_dim; }   // width of K (and of V)
};

}  // namespace envelope
