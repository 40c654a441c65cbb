#include "model/params.hpp"

#include "model/layer_shard.hpp"

namespace envelope {

namespace {

double matrix_params(const WeightMatrix& w) { return w.k * w.n + (w.bias ? w.n : 0.0); }

}  // namespace

ParamCount count_group_params(const LayerGroup& g, int64_t hidden, int64_t tp) {
    const LayerShard s = shard_layer(g.layer, hidden, tp);
    const double count = static_cast<double>(g.count);
    // Row-parallel biases (out_proj, mlp_down) are whole on every chip: their n = h is not split.
    ParamCount p;
    p.attention = count * (matrix_params(s.matrices[0]) + matrix_params(s.matrices[1]));
    p.mlp = count * (matrix_params(s.matrices[2]) + matrix_params(s.matrices[3]));
    p.norms = count * s.norm_params;
    return p;
}

ParamCount count_slice_params(const Model& m, const std::vector<LayerGroup>& groups, bool embedding, bool head,
                              int64_t tp) {
    ParamCount p;
    for (const LayerGroup& g : groups) {
        const ParamCount gp = count_group_params(g, m.hidden, tp);
        p.attention += gp.attention;
        p.mlp += gp.mlp;
        p.norms += gp.norms;
    }
    const double matrix = static_cast<double>((m.vocab + tp - 1) / tp) * static_cast<double>(m.hidden);
    if (embedding) p.embedding = matrix;
    if (head) {
        p.lm_head = m.tied_embeddings && embedding ? 0.0 : matrix;
        p.final_norm = norm_vector_params(m.final_norm, m.hidden);
    }
    return p;
}

ParamCount count_params(const Model& m, int64_t tp) { return count_slice_params(m, m.groups, true, true, tp); }

}  // namespace envelope
