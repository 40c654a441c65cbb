#include "model/layer_shard.hpp"

#include <algorithm>

namespace envelope {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Precondition: tp divides d_inner, and for Mamba-2 the heads and groups (parallel/check.hpp).
void shard_mamba(const LayerSpec& layer, int64_t hidden, int64_t tp, LayerShard& s) {
    const MambaSpec& m = layer.mamba;
    const double h = static_cast<double>(hidden);
    s.mamba = true;
    s.heads = s.kv_heads = 0;
    s.q_dim = s.kv_dim = 0;
    s.qkv = WeightMatrix{"qkv_proj", 0, 0, false};
    s.cache_width = 0;
    s.inner = m.d_inner / tp;
    s.conv_channels = m.conv_channels() / tp;
    s.o_dim = s.inner;
    const double inner = static_cast<double>(s.inner);
    const double state = static_cast<double>(m.d_state);
    s.in_proj = WeightMatrix{"in_proj", h, static_cast<double>(m.in_width() / tp), layer.linear_bias};
    s.out = WeightMatrix{"out_proj", inner, h, layer.linear_bias};
    const double conv = static_cast<double>(s.conv_channels) * static_cast<double>(m.d_conv + 1);  // taps + bias
    if (m.v2()) {
        const double heads = static_cast<double>(m.heads / tp);
        s.mixer_vector_params = conv + 3 * heads + inner;  // A, D, Δ bias per head; the gated RMSNorm
    } else {
        const double dt = static_cast<double>(m.dt_rank);
        s.x_proj = WeightMatrix{"x_proj", inner, dt + 2 * state, false};
        s.dt_proj = WeightMatrix{"dt_proj", dt, inner, true};
        s.mixer_vector_params = conv + inner * state + inner;  // A (d_inner × d_state), D
    }
    s.state_width = s.inner * m.d_state + (m.d_conv - 1) * s.conv_channels;
    // Training keeps the projection's output, the convolution's and the scan's.
    s.qkv_width = m.in_width() / tp + s.conv_channels + s.inner;
}

}  // namespace

double norm_vector_params(NormKind norm, int64_t hidden) {
    return (norm == NormKind::layernorm ? 2.0 : 1.0) * static_cast<double>(hidden);
}

LayerShard shard_layer(const LayerSpec& layer, int64_t hidden, int64_t tp, int64_t ep, int64_t etp) {
    const AttentionSpec& a = layer.attention;
    const FfnSpec& f = layer.ffn;
    LayerShard s;
    s.tp = tp;
    s.heads = a.heads / tp;
    s.kv_heads = std::max<int64_t>(1, a.kv_heads / tp);
    s.q_dim = s.heads * a.head_dim;
    s.kv_dim = s.kv_heads * a.head_dim;

    const double h = static_cast<double>(hidden);
    const bool bias = layer.linear_bias;
    const int64_t gate = f.gated ? 2 : 1;
    s.qkv = WeightMatrix{"qkv_proj", h, static_cast<double>(s.q_dim + 2 * s.kv_dim), bias};
    s.out = WeightMatrix{"out_proj", static_cast<double>(s.q_dim), h, bias};
    s.o_dim = s.q_dim;
    s.qkv_width = s.q_dim + 2 * s.kv_dim;
    s.cache_width = 2 * s.kv_dim;
    if (a.mla.on()) {
        const MlaSpec& m = a.mla;
        const double heads = static_cast<double>(s.heads);
        s.mla = true;
        s.q_dim = s.heads * m.qk_dim();
        s.kv_dim = 0;
        s.o_dim = s.heads * m.v_head_dim;
        s.qkv_width = 2 * s.q_dim + s.o_dim;
        s.cache_width = m.kv_lora_rank + m.qk_rope_dim;
        s.qkv = WeightMatrix{"qkv_proj", 0, 0, false};
        const double qk = static_cast<double>(s.q_dim);
        if (m.q_lora_rank > 0) {
            s.q_down = WeightMatrix{"q_down", h, static_cast<double>(m.q_lora_rank), false};
            s.q_up = WeightMatrix{"q_up", static_cast<double>(m.q_lora_rank), qk, false};
        } else {
            s.q_up = WeightMatrix{"q_proj", h, qk, false};
        }
        s.kv_down = WeightMatrix{"kv_down", h, static_cast<double>(s.cache_width), false};
        s.kv_up = WeightMatrix{"kv_up", static_cast<double>(m.kv_lora_rank),
                               heads * static_cast<double>(m.qk_nope_dim + m.v_head_dim), false};
        s.out = WeightMatrix{"out_proj", static_cast<double>(s.o_dim), h, bias};
        s.latent_norm_params = static_cast<double>(m.q_lora_rank + m.kv_lora_rank);
    }

    // The dense part: the FFN of a dense layer, or a mixture's shared experts.
    const int64_t dense = f.is_moe() ? f.moe.shared_experts * f.moe.expert_ffn : f.ffn;
    s.ffn = ceil_div(dense, tp);
    s.up_width = gate * s.ffn;
    const char* up_name = f.is_moe() ? "shared_up" : "mlp_up";
    const char* down_name = f.is_moe() ? "shared_down" : "mlp_down";
    s.up = WeightMatrix{up_name, h, static_cast<double>(s.up_width), bias};
    s.down = WeightMatrix{down_name, static_cast<double>(s.ffn), h, bias};

    if (f.is_moe()) {
        s.ep = ep;
        s.etp = etp > 0 ? etp : tp;
        s.local_experts = f.moe.experts / ep;
        s.expert_ffn = ceil_div(f.moe.expert_ffn, s.etp);
        s.router = WeightMatrix{"moe_router", h, static_cast<double>(f.moe.experts), false};
        s.expert_up = WeightMatrix{"expert_up", h, static_cast<double>(gate * s.expert_ffn), bias};
        s.expert_down = WeightMatrix{"expert_down", static_cast<double>(s.expert_ffn), h, bias};
    }
    // Two norms with an MLP, one for a block that is only its mixer.
    s.norm_params = (f.present() ? 2 : 1) * norm_vector_params(layer.norm, hidden);
    if (layer.mamba.on()) shard_mamba(layer, hidden, tp, s);
    return s;
}

}  // namespace envelope
