#include "model/params.hpp"

#include "model/layer_shard.hpp"

namespace envelope {

ParamCount count_group_params(const LayerGroup& g, int64_t hidden, int64_t tp, int64_t ep, int64_t etp) {
    const LayerShard s = shard_layer(g.layer, hidden, tp, ep, etp);
    const double count = static_cast<double>(g.count);
    // Row-parallel biases (out_proj, mlp_down) are whole on every chip: their n = h is not split.
    ParamCount p;
    p.mixer = count * (s.qkv.params() + s.out.params() + s.q_down.params() + s.q_up.params() + s.kv_down.params() +
                       s.kv_up.params() + s.in_proj.params() + s.x_proj.params() + s.dt_proj.params() +
                       s.mixer_vector_params);
    p.mlp = s.ffn > 0 ? count * (s.up.params() + s.down.params()) : 0.0;  // no shared experts: none
    if (g.layer.ffn.is_moe()) {
        p.router = count * s.router.params();
        p.experts = count * static_cast<double>(s.local_experts) * (s.expert_up.params() + s.expert_down.params());
    }
    p.norms = count * (s.norm_params + s.latent_norm_params);
    return p;
}

ParamCount count_slice_params(const Model& m, const std::vector<LayerGroup>& groups, bool embedding, bool head,
                              int64_t tp, int64_t ep, int64_t etp) {
    ParamCount p;
    for (const LayerGroup& g : groups) {
        const ParamCount gp = count_group_params(g, m.hidden, tp, ep, etp);
        p.mixer += gp.mixer;
        p.mlp += gp.mlp;
        p.router += gp.router;
        p.experts += gp.experts;
        p.norms += gp.norms;
    }
    const double matrix = static_cast<double>((m.vocab + tp - 1) / tp) * static_cast<double>(m.hidden);
    if (embedding) p.embedding = matrix;
    if (head) {
        p.lm_head = m.tied_embeddings && embedding ? 0.0 : matrix;
        p.final_norm = m.vocab > 0 ? norm_vector_params(m.final_norm, m.hidden) : 0.0;  // none without a head
    }
    return p;
}

ParamCount count_params(const Model& m, int64_t tp) { return count_slice_params(m, m.groups, true, true, tp, 1); }

double active_params(const Model& m) {
    double active = count_params(m).total();
    for (const LayerGroup& g : m.groups) {
        if (!g.layer.ffn.is_moe()) continue;
        const ParamCount all = count_group_params(g, m.hidden, 1, 1);
        const MoeSpec& moe = g.layer.ffn.moe;
        active -= all.experts * (1 - static_cast<double>(moe.top_k) / static_cast<double>(moe.experts));
    }
    return active;
}

}  // namespace envelope
