#include "training/flops.hpp"

namespace envelope {

TrainingFlops training_flops(const Model& m, const TrainingWorkload& w) {
    const double h = static_cast<double>(m.hidden);
    const double s = static_cast<double>(w.seq_len);
    const double tokens = static_cast<double>(w.global_batch) * s;
    double linear = 0, attention = 0;  // per token, forward only, summed over layers
    for (const LayerGroup& g : m.groups) {
        const LayerSpec& l = g.layer;
        const double q = static_cast<double>(l.attention.q_dim());
        const double kv = static_cast<double>(l.attention.kv_dim());
        const double count = static_cast<double>(g.count);
        const double matrices = l.ffn.gated ? 3 : 2;
        // A mixture: the router, and per token its top_k experts and the shared experts.
        const MoeSpec& moe = l.ffn.moe;
        const double ffn = l.ffn.is_moe()
                               ? static_cast<double>((moe.top_k + moe.shared_experts) * moe.expert_ffn)
                               : static_cast<double>(l.ffn.ffn);
        const double router = l.ffn.is_moe() ? h * static_cast<double>(moe.experts) : 0.0;
        linear += count * 2 * (h * (q + 2 * kv) + q * h + h * ffn * matrices + router);
        attention += count * 4 * q * static_cast<double>(l.attention.attended(w.seq_len));
    }
    const double logits = 2 * h * static_cast<double>(m.vocab);
    TrainingFlops f;
    f.model = tokens * 3 * (linear + attention + logits);
    double again = 0;
    if (w.recompute == Recompute::full) again = linear + attention;
    if (w.recompute == Recompute::selective) again = attention;
    f.hardware = f.model + tokens * again;
    return f;
}

}  // namespace envelope
