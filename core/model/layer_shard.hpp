#pragma once
// One layer on one chip of a tensor-parallel group: the one definition of a layer's shapes,
// read both by the parameter count (model/params.hpp) and by the lowering to operators
// (ops/), so the two can never disagree.
//
// Megatron-style tensor parallelism (Shoeybi et al. 2019, arXiv:1909.08053 §3): Q/K/V and
// the MLP up (and gate) projections are split by columns (heads, FFN width), the attention
// output and MLP down projections by rows, so each layer needs one all-reduce after the
// attention and one after the MLP. When tp > kv_heads each chip keeps a whole KV head
// (replicated on tp / kv_heads chips).
#include <array>
#include <cstdint>

#include "model/model.hpp"

namespace envelope {

// A GEMM's weight matrix on one chip: [k × n] (+ a bias of n).
struct WeightMatrix {
    const char* name;
    double k = 0;
    double n = 0;
    bool bias = false;
};

struct LayerShard {
    int64_t tp = 1;
    int64_t heads = 0;      // query heads per chip: heads / tp
    int64_t kv_heads = 0;   // KV heads per chip: kv_heads / tp, or 1 when tp > kv_heads
    int64_t q_dim = 0;      // heads · head_dim
    int64_t kv_dim = 0;     // kv_heads · head_dim
    int64_t ffn = 0;        // MLP inner width per chip: ⌈ffn / tp⌉
    int64_t up_width = 0;   // the up projection's width: 2·ffn when gated (gate and up), else ffn

    // The layer's four weight matrices, in execution order:
    //   qkv_proj [h × (q + 2·kv)]  column-parallel
    //   out_proj [q × h]           row-parallel (its bias is replicated)
    //   mlp_up   [h × up_width]    column-parallel (gate and up fused)
    //   mlp_down [ffn × h]         row-parallel (its bias is replicated)
    std::array<WeightMatrix, 4> matrices;
    double norm_params = 0;  // two norms, replicated: 2 · (scale, + shift for LayerNorm) · h
};

// Precondition: tp divides the heads, and tp divides the KV heads or they divide tp
// (checked with the scenario, inference/check.hpp).
LayerShard shard_layer(const LayerSpec& layer, int64_t hidden, int64_t tp);

// Elements of a norm's parameters: scale (+ shift for LayerNorm) of width h.
double norm_vector_params(NormKind norm, int64_t hidden);

}  // namespace envelope
