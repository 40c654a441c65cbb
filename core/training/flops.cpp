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
        const double f = static_cast<double>(l.ffn.ffn);
        const double count = static_cast<double>(g.count);
        linear += count * 2 * (h * (q + 2 * kv) + q * h + h * f * (l.ffn.gated ? 3 : 2));
        attention += count * 4 * q * s;
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
