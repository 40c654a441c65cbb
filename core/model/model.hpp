#pragma once
// The architecture of a decoder-only transformer, as published in its config: an embedding,
// a list of layer groups (a layer spec and how many layers share it), a final norm and the
// LM head.
//
// A layer spec is a token mixer and a feed-forward block. Dense attention (MHA, GQA, MQA,
// with an optional sliding window) and plain or gated MLPs are modelled here; the other
// kinds fit the same places without changing the shape: MLA as low-rank projections of
// AttentionSpec, a state-space mixer beside it, a mixture of experts in FfnSpec. A hybrid
// model (Jamba-style) is several groups; a pipeline stage holds a slice of them.
#include <cstdint>
#include <string>
#include <vector>

namespace envelope {

enum class NormKind { rmsnorm, layernorm };

// Multi-head latent attention (DeepSeek-V2, arXiv:2405.04434 §2.1): keys and values are
// rebuilt per head from a compressed latent of kv_lora_rank elements, which is all the KV
// cache keeps, plus one decoupled RoPE key of qk_rope_dim shared by the heads. Queries come
// through their own low-rank latent of q_lora_rank (0: straight from the hidden state). Each
// head's query and key have qk_nope_dim + qk_rope_dim elements, its value v_head_dim.
struct MlaSpec {
    int64_t q_lora_rank = 0;
    int64_t kv_lora_rank = 0;   // 0: not MLA
    int64_t qk_rope_dim = 0;
    int64_t qk_nope_dim = 0;
    int64_t v_head_dim = 0;

    bool on() const { return kv_lora_rank > 0; }
    int64_t qk_dim() const { return qk_nope_dim + qk_rope_dim; }
};

// Self-attention over query heads and key/value heads: kv_heads = heads for MHA, 1 for
// MQA, between for GQA; or MLA (then head_dim is not used: the shapes are mla's).
struct AttentionSpec {
    int64_t heads = 0;
    int64_t kv_heads = 0;
    int64_t head_dim = 0;
    // Sliding-window attention (Mistral 7B, Gemma's local layers): each token attends to at
    // most `window` tokens, itself and the window − 1 before it, and the KV cache keeps
    // only those. 0: full causal attention.
    int64_t window = 0;
    MlaSpec mla;

    // Tokens a query at context length L attends over.
    int64_t attended(int64_t L) const { return window > 0 && L > window ? window : L; }

    int64_t q_dim() const { return heads * head_dim; }     // width of Q (and of the attention output)
    int64_t kv_dim() const { return kv_heads * head_dim; } // width of K (and of V)
};

// A selective state-space mixer in place of attention (Mamba, Gu & Dao 2023, arXiv:2312.00752;
// Mamba-2, Dao & Gu 2024, arXiv:2405.21060): an input projection to the inner width (and the
// gate z), a short causal depthwise convolution, the selective scan over a state of d_state per
// inner channel, the gate, an output projection. Each sequence keeps a fixed-size state (the
// scan's d_inner × d_state and the convolution's last d_conv − 1 inputs) instead of a KV cache.
// Mamba-1 derives Δ, B, C per token with x_proj and dt_proj (dt_rank); Mamba-2 (heads > 0) takes
// them from the input projection, with B and C shared by n_groups groups of heads.
struct MambaSpec {
    int64_t d_inner = 0;   // 0: not a Mamba layer
    int64_t d_state = 0;
    int64_t d_conv = 0;
    int64_t dt_rank = 0;   // Mamba-1
    int64_t heads = 0;     // Mamba-2: scan heads (0: Mamba-1)
    int64_t n_groups = 1;  // Mamba-2: groups sharing B and C

    bool on() const { return d_inner > 0; }
    bool v2() const { return heads > 0; }
    // The convolution's channels: x (Mamba-1), x, B and C (Mamba-2).
    int64_t conv_channels() const { return v2() ? d_inner + 2 * n_groups * d_state : d_inner; }
    // The input projection's width: x and z, and for Mamba-2 B, C and one Δ per head.
    int64_t in_width() const { return v2() ? 2 * d_inner + 2 * n_groups * d_state + heads : 2 * d_inner; }
};

// A mixture of experts in place of one FFN (Shazeer et al. 2017; Fedus et al. 2022): a
// router picks top_k of `experts` FFNs of width expert_ffn for each token; shared experts
// (DeepSeekMoE) see every token. experts = 0: a dense FFN.
struct MoeSpec {
    int64_t experts = 0;
    int64_t top_k = 0;
    int64_t expert_ffn = 0;
    int64_t shared_experts = 0;   // each of width expert_ffn
    // Routing skew: the busiest of the ep chips of an expert-parallel group receives this many
    // times the mean share of routed tokens, and the group waits for it (1: balanced).
    double imbalance = 1;
};

// The feed-forward block: up (and gate) projection, activation, down projection.
struct FfnSpec {
    int64_t ffn = 0;       // inner width (dense FFN); 0 and no experts: no MLP (a pure Mamba block)
    bool gated = false;    // SwiGLU/GeGLU: gate and up matrices plus down (3 matrices) vs 2
    MoeSpec moe;           // moe.experts > 0: the experts replace the dense FFN

    bool is_moe() const { return moe.experts > 0; }
    bool present() const { return ffn > 0 || is_moe(); }
};

struct LayerSpec {
    AttentionSpec attention;    // not read when mamba.on()
    MambaSpec mamba;
    FfnSpec ffn;
    NormKind norm = NormKind::rmsnorm;
    bool linear_bias = false;   // biases on every linear layer (GPT-2/3 style)
    // Attention and MLP side by side on the layer's input, summed into the residual once (GPT-J,
    // Falcon; Wang & Komatsuzaki 2021): one TP reduction per layer instead of two. Each branch
    // keeps its own norm (Falcon-40B/180B's two layer norms).
    bool parallel_block = false;
};

// Field-by-field equality: two layers cost the same exactly when they are equal.
inline bool operator==(const MlaSpec& a, const MlaSpec& b) {
    return a.q_lora_rank == b.q_lora_rank && a.kv_lora_rank == b.kv_lora_rank && a.qk_rope_dim == b.qk_rope_dim &&
           a.qk_nope_dim == b.qk_nope_dim && a.v_head_dim == b.v_head_dim;
}
inline bool operator==(const AttentionSpec& a, const AttentionSpec& b) {
    return a.heads == b.heads && a.kv_heads == b.kv_heads && a.head_dim == b.head_dim && a.window == b.window &&
           a.mla == b.mla;
}
inline bool operator==(const MambaSpec& a, const MambaSpec& b) {
    return a.d_inner == b.d_inner && a.d_state == b.d_state && a.d_conv == b.d_conv && a.dt_rank == b.dt_rank &&
           a.heads == b.heads && a.n_groups == b.n_groups;
}
inline bool operator==(const MoeSpec& a, const MoeSpec& b) {
    return a.experts == b.experts && a.top_k == b.top_k && a.expert_ffn == b.expert_ffn &&
           a.shared_experts == b.shared_experts && a.imbalance == b.imbalance;
}
inline bool operator==(const FfnSpec& a, const FfnSpec& b) {
    return a.ffn == b.ffn && a.gated == b.gated && a.moe == b.moe;
}
inline bool operator==(const LayerSpec& a, const LayerSpec& b) {
    return a.attention == b.attention && a.mamba == b.mamba && a.ffn == b.ffn && a.norm == b.norm &&
           a.linear_bias == b.linear_bias && a.parallel_block == b.parallel_block;
}

struct LayerGroup {
    LayerSpec layer;
    int64_t count = 0;          // consecutive layers of this spec
};

struct Model {
    std::string name;
    std::string source;          // where the numbers come from (config URL or paper)

    int64_t hidden = 0;          // residual stream width (d_model)
    int64_t vocab = 0;
    bool tied_embeddings = false;  // LM head shares the embedding matrix
    NormKind final_norm = NormKind::rmsnorm;
    int64_t max_seq_len = 0;     // trained context length; longer contexts give a warning
    std::vector<LayerGroup> groups;  // in execution order

    int64_t layers() const {
        int64_t n = 0;
        for (const LayerGroup& g : groups) n += g.count;
        return n;
    }
};

}  // namespace envelope
