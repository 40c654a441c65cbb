#include "model/params.hpp"

namespace envelope {

ParamCount count_params(const Model& m, const TpShard& s) {
    const double h = static_cast<double>(m.hidden);
    const double q = static_cast<double>(s.q_dim(m));
    const double kv = static_cast<double>(s.kv_dim(m));
    const double f = static_cast<double>(s.ffn);
    const double v = static_cast<double>(s.vocab);
    const double bias = m.linear_bias ? 1.0 : 0.0;
    const double norm_vectors = m.norm == NormKind::layernorm ? 2.0 : 1.0;  // scale (+ shift)
    const double mlp_in_matrices = m.gated_ffn ? 2.0 : 1.0;                 // (gate +) up

    ParamCount p;
    p.attention = h * (q + 2 * kv) + q * h + bias * (q + 2 * kv + h);
    p.mlp = mlp_in_matrices * h * f + f * h + bias * (mlp_in_matrices * f + h);
    p.norms = 2 * norm_vectors * h;
    p.embedding = v * h;
    p.lm_head = m.tied_embeddings ? 0.0 : v * h;
    p.final_norm = norm_vectors * h;
    return p;
}

ParamCount count_params(const Model& m) { return count_params(m, shard_for_tp(m, 1)); }

}  // namespace envelope
