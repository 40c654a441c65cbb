#include "model/layer_shard.hpp"

#include <algorithm>

namespace envelope {

double norm_vector_params(NormKind norm, int64_t hidden) {
    return (norm == NormKind::layernorm ? 2.0 : 1.0) * static_cast<double>(hidden);
}

LayerShard shard_layer(const LayerSpec& layer, int64_t hidden, int64_t tp) {
    const AttentionSpec& a = layer.attention;
    LayerShard s;
    s.tp = tp;
    s.heads = a.heads / tp;
    s.kv_heads = std::max<int64_t>(1, a.kv_heads / tp);
    s.q_dim = s.heads * a.head_dim;
    s.kv_dim = s.kv_heads * a.head_dim;
    s.ffn = (layer.ffn.ffn + tp - 1) / tp;
    s.up_width = (layer.ffn.gated ? 2 : 1) * s.ffn;

    const double h = static_cast<double>(hidden);
    const bool bias = layer.linear_bias;
    s.matrices = {WeightMatrix{"qkv_proj", h, static_cast<double>(s.q_dim + 2 * s.kv_dim), bias},
                  WeightMatrix{"out_proj", static_cast<double>(s.q_dim), h, bias},
                  WeightMatrix{"mlp_up", h, static_cast<double>(s.up_width), bias},
                  WeightMatrix{"mlp_down", static_cast<double>(s.ffn), h, bias}};
    s.norm_params = 2 * norm_vector_params(layer.norm, hidden);
    return s;
}

}  // namespace envelope
