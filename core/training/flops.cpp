#include "training/flops.hpp"

#include "model/adapters.hpp"
#include "model/layer_shard.hpp"
#include "ops/elementwise_costs.hpp"
#include "ops/lower.hpp"

namespace envelope {

TrainingFlops training_flops(const Model& m, const TrainingWorkload& w) {
    const double h = static_cast<double>(m.hidden);
    const double s = static_cast<double>(w.seq_len);
    const double tokens = static_cast<double>(w.global_batch) * s;
    double linear = 0, attention = 0;  // per token, forward only, summed over layers
    double attention_run = 0;          // what the kernels compute of it (hardware FLOPs)
    for (const LayerGroup& g : m.groups) {
        const LayerSpec& l = g.layer;
        const double count = static_cast<double>(g.count);
        // The attention's projections, weights only (the published counts leave biases out):
        // h·(q + 2kv) + q·h for MHA/GQA, MLA's down and up projections and its output.
        const LayerShard a = shard_layer(l, m.hidden, 1);
        double projections = 0;
        for (const WeightMatrix* w : {&a.qkv, &a.out, &a.q_down, &a.q_up, &a.kv_down, &a.kv_up, &a.in_proj, &a.x_proj,
                                      &a.dt_proj}) {
            projections += w->k * w->n;
        }
        // Q·Kᵀ over q_dim and P·V over the output width, per attended token: 2·(q + o).
        const double matrices = l.ffn.gated ? 3 : 2;
        // A mixture: the router, and per token its top_k experts and the shared experts.
        const MoeSpec& moe = l.ffn.moe;
        const double ffn = l.ffn.is_moe()
                               ? static_cast<double>((moe.top_k + moe.shared_experts) * moe.expert_ffn)
                               : static_cast<double>(l.ffn.ffn);
        const double router = l.ffn.is_moe() ? h * static_cast<double>(moe.experts) : 0.0;
        linear += count * 2 * (projections + h * ffn * matrices + router);
        // A Mamba mixer's scan instead: its FLOPs per token (ops/elementwise_costs.hpp).
        if (l.mamba.on()) {
            const double scan = count * elementwise_flops::kScanPerState * static_cast<double>(l.mamba.d_inner * l.mamba.d_state);
            attention += scan;
            attention_run += scan;
            continue;
        }
        const double per_key = count * 2 * static_cast<double>(a.q_dim + a.o_dim);
        attention += per_key * static_cast<double>(l.attention.attended(w.seq_len));
        // Run: FlashAttention skips the masked blocks, so a query meets the keys before it (the
        // causal pairs over s, (s + 1)/2 without a window); unfused kernels the whole rectangle.
        const double keys_run = w.flash_attention
                                    ? causal_pairs(training_pass(1, w.seq_len, 1), l.attention.window).base / s
                                    : s;
        attention_run += per_key * keys_run;
    }
    const double logits = 2 * h * static_cast<double>(m.vocab);
    // Fine-tuning: the frozen matrices (the LM head too) run forward and input gradient, 2 of the
    // 3 passes; attention keeps its whole backward (it has no weights); the adapters all 3 passes,
    // 2·r·(k + n) a token forward (model/adapters.hpp).
    const bool peft = w.peft.on();
    const double frozen_passes = peft ? 2 : 3;
    const double adapters = peft ? 2 * slice_adapter_params(m, m.groups, w.peft, 1) : 0.0;
    TrainingFlops f;
    f.model = tokens * (frozen_passes * (linear + logits) + 3 * (attention + adapters));
    double again = 0;
    if (w.recompute == Recompute::full) again = linear + attention_run + adapters;
    if (w.recompute == Recompute::selective) again = attention_run;
    f.hardware = tokens * (frozen_passes * (linear + logits) + 3 * (attention_run + adapters) + again);
    return f;
}

}  // namespace envelope
