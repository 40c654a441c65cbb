#pragma once
// One layer on one chip of a tensor-parallel (and, for a mixture of experts, expert-
// parallel) group: the one definition of a layer's shapes, read both by the parameter
// count (model/params.hpp) and by the lowering to operators (ops/), so the two can never
// disagree.
//
// Megatron-style tensor parallelism (Shoeybi et al. 2019, arXiv:1909.08053 §3): Q/K/V and
// the MLP up (and gate) projections are split by columns (heads, FFN width), the attention
// output and MLP down projections by rows, so each layer needs one all-reduce after the
// attention and one after the MLP. When tp > kv_heads each chip keeps a whole KV head
// (replicated on tp / kv_heads chips).
//
// A mixture of experts (Megatron-LM MoE): the router is replicated; the experts are spread
// over the ep chips of the expert-parallel group (experts / ep each) and each expert is
// split over etp chips like a dense MLP (expert tensor parallelism; Megatron-LM's default is
// etp = tp; parallel/expert_layout.hpp);
// shared experts are one dense MLP of shared_experts · expert_ffn, split over TP.
//
// MLA (DeepSeek-V2/V3; SGLang's and vLLM's DeepSeek layers): the down projections to the
// latents are replicated on every chip of the TP group, the up projections split by heads,
// the output projection by rows.
#include <cstdint>

#include "model/model.hpp"

namespace envelope {

// A GEMM's weight matrix on one chip: [k × n] (+ a bias of n).
struct WeightMatrix {
    const char* name = "";
    double k = 0;
    double n = 0;
    bool bias = false;

    double params() const { return k * n + (bias ? n : 0.0); }
};

struct LayerShard {
    int64_t tp = 1;
    int64_t heads = 0;      // query heads per chip: heads / tp
    int64_t kv_heads = 0;   // KV heads per chip: kv_heads / tp, or 1 when tp > kv_heads
    int64_t q_dim = 0;      // heads · head_dim
    int64_t kv_dim = 0;     // kv_heads · head_dim
    WeightMatrix qkv;       // qkv_proj [h × (q + 2·kv)]  column-parallel (not with MLA)
    WeightMatrix out;       // out_proj [o × h]           row-parallel (its bias is replicated)
    int64_t o_dim = 0;      // the attention output's width per chip: q_dim, or heads · v_head_dim (MLA)
    // Q, K and V elements per token on this chip (what training keeps for the backward).
    int64_t qkv_width = 0;
    // KV-cache elements per token and layer on this chip: K and V, 2 · kv_dim; MLA's latent
    // and RoPE key, kv_lora_rank + qk_rope_dim, whole on every chip of the TP group.
    int64_t cache_width = 0;

    // MLA (attention.mla.on()): q_dim = heads · (qk_nope + qk_rope) per chip.
    bool mla = false;
    WeightMatrix q_down;    // q_down  [h × q_lora]             replicated (absent without q_lora)
    WeightMatrix q_up;      // q_up    [q_lora × q_dim], or q_proj [h × q_dim]   column-parallel
    WeightMatrix kv_down;   // kv_down [h × (kv_lora + rope)]   replicated
    WeightMatrix kv_up;     // kv_up   [kv_lora × heads·(qk_nope + v_head)]     column-parallel
    double latent_norm_params = 0;  // RMSNorm scales of the q and kv latents

    // A Mamba mixer (layer.mamba.on()): channels split over TP like heads (in_proj by
    // columns, out_proj by rows); q_dim = kv_dim = 0, o_dim = the inner width per chip.
    bool mamba = false;
    int64_t inner = 0;            // d_inner / tp
    int64_t conv_channels = 0;    // per chip
    int64_t state_width = 0;      // state elements per sequence and layer on this chip
    WeightMatrix in_proj;         // [h × in_width/tp]
    WeightMatrix x_proj;          // Mamba-1: [inner × (dt_rank + 2·d_state)]
    WeightMatrix dt_proj;         // Mamba-1: [dt_rank × inner] (+ bias)
    double mixer_vector_params = 0;  // the convolution, A, D, Δ bias and (Mamba-2) the gated norm

    // A dense FFN (ffn > 0), or the shared experts of a mixture:
    int64_t ffn = 0;        // inner width per chip: ⌈ffn / tp⌉
    int64_t up_width = 0;   // the up projection's width: 2·ffn when gated (gate and up), else ffn
    WeightMatrix up;        // mlp_up   [h × up_width]  column-parallel (gate and up fused)
    WeightMatrix down;      // mlp_down [ffn × h]       row-parallel (its bias is replicated)

    // A mixture of experts (moe.experts > 0):
    int64_t ep = 1;
    int64_t etp = 1;                // chips one expert is split over
    int64_t local_experts = 0;      // experts on this chip: experts / ep
    int64_t expert_ffn = 0;         // one expert's inner width per chip: ⌈expert_ffn / etp⌉
    WeightMatrix router;            // moe_router [h × experts], replicated
    WeightMatrix expert_up;         // one expert's [h × (2·)expert_ffn/etp]
    WeightMatrix expert_down;       // one expert's [expert_ffn/etp × h]

    double norm_params = 0;  // two norms, replicated: 2 · (scale, + shift for LayerNorm) · h
};

// Precondition: tp divides the heads, and tp divides the KV heads or they divide tp; ep
// divides the experts (checked with the scenario, parallel/check.hpp). etp: the chips each
// expert is split over; 0 means tp.
LayerShard shard_layer(const LayerSpec& layer, int64_t hidden, int64_t tp, int64_t ep = 1, int64_t etp = 0);

// Elements of a norm's parameters: scale (+ shift for LayerNorm) of width h.
double norm_vector_params(NormKind norm, int64_t hidden);

}  // namespace envelope
