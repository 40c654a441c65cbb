// Multi-head latent attention on one chip (DeepSeek-V2, arXiv:2405.04434 §2.1 and its
// Appendix C on absorbing the up projections; DeepSeek-V3, arXiv:2412.19437 §2.1.1), T = b·n
// new tokens, per chip H = heads / tp heads of d_qk = qk_nope + qk_rope and d_v = v_head_dim,
// latents r_q = q_lora_rank, r_kv = kv_lora_rank, RoPE key width ρ = qk_rope_dim:
//   q_down  [T × h]·[h × r_q], q_norm, q_up [T × r_q]·[r_q × H·d_qk]   (or q_proj [h × H·d_qk])
//   kv_down [T × h]·[h × (r_kv + ρ)], kv_norm; the cache keeps the r_kv + ρ elements per token
// Prefill and training rebuild each head's keys and values from the latent (the "naive" form
// the engines use for long prompts):
//   kv_up   [T × r_kv]·[r_kv × H·(qk_nope + d_v)]
//   attention per pair and head: 2·d_qk (Q·Kᵀ) + 2·d_v (P·V) FLOPs; reads Q, K, V, writes O
// Decode absorbs the up projections into the query and the output (Appendix C): attention
// runs in the latent space, as multi-query attention with one key of r_kv + ρ and one value
// of r_kv that every head shares, read once from the cache:
//   q_absorb  each head's nope query times its slice of kv_up: 2·T·H·qk_nope·r_kv FLOPs
//   attention per pair and head: 2·(r_kv + ρ) + 2·r_kv FLOPs
//   v_absorb  each head's latent output times its value slice: 2·T·H·r_kv·d_v FLOPs
// The absorbed products are counted as one GEMM over all heads' weights (their inputs, a few
// kilobytes per token, are counted once).
#include "ops/builders.hpp"
#include "ops/elementwise_costs.hpp"
#include "ops/lower.hpp"

namespace envelope {

namespace {

// The fused attention kernel over `pairs` (query, key) pairs per sequence and head.
Op attention_op(const LowerInput& in, double layers, double heads, const Affine& pairs, double flops_per_pair_head,
                double q_read, const Affine& kv_read, double o_written) {
    Op a = build::attention(layers, wider(in.precision.residual, in.precision.kv_cache), pairs, flops_per_pair_head,
                            attention_rows(in, heads));
    a.traffic.activations_read = constant(q_read);
    a.traffic.kv_read = kv_read;
    a.traffic.activations_written = constant(o_written);
    return a;
}

}  // namespace

void lower_mla_attention(const LowerInput& in, const AttentionSpec& spec, const LayerShard& s, double layers,
                         std::vector<Op>& out) {
    const Pass& p = in.pass;
    const PrecisionPlan& pr = in.precision;
    const MlaSpec& m = spec.mla;
    const double b = static_cast<double>(p.batch);
    const double n = static_cast<double>(p.new_tokens);
    const double tokens = b * n;
    const double heads = static_cast<double>(s.heads);
    const double ab = bytes_per_element(pr.residual);
    const double kvb = bytes_per_element(pr.kv_cache);
    const double r_q = static_cast<double>(m.q_lora_rank), r_kv = static_cast<double>(m.kv_lora_rank);
    const double rope = static_cast<double>(m.qk_rope_dim), nope = static_cast<double>(m.qk_nope_dim);
    const double d_qk = static_cast<double>(m.qk_dim()), d_v = static_cast<double>(m.v_head_dim);
    const auto gemm = [&](const char* name, double k, double width) {
        return build::matmul(name, layers, tokens, k, width, pr.weights, pr.activations, pr.residual, false);
    };
    const auto latent_norm = [&](const char* name, double width) {
        return build::vector(name, layers, constant(tokens * width), constant(tokens * width),
                             elementwise_flops::kRmsNorm, pr.residual, width, pr.weights);
    };
    const std::size_t first = out.size();

    if (m.q_lora_rank > 0) {
        out.push_back(gemm(s.q_down.name, s.q_down.k, s.q_down.n));
        out.push_back(latent_norm("q_norm", r_q));
    }
    out.push_back(gemm(s.q_up.name, s.q_up.k, s.q_up.n));
    out.push_back(gemm(s.kv_down.name, s.kv_down.k, s.kv_down.n));
    out.push_back(latent_norm("kv_norm", r_kv));
    if (!p.training) {
        Op append = build::vector("kv_append", layers, constant(tokens * (r_kv + rope)), constant(0), 0, pr.residual);
        append.traffic.kv_written = constant(tokens * (r_kv + rope) * kvb);
        out.push_back(append);
    }

    const Affine pairs = (b * heads) * causal_pairs(p, spec.window);
    const Affine context = p.cached_tokens + constant(n);  // tokens attended over, per sequence
    if (p.decode) {
        out.push_back(gemm("q_absorb", nope, heads * r_kv));
        const double q_latent = tokens * heads * (r_kv + rope);
        out.push_back(attention_op(in, layers, heads, pairs, 2 * (r_kv + rope) + 2 * r_kv, q_latent * ab,
                                   (b * (r_kv + rope) * kvb) * context, tokens * heads * r_kv * ab));
        out.push_back(gemm("v_absorb", r_kv, heads * d_v));
        if (spec.window > 0) {
            for (std::size_t i = first; i < out.size(); ++i) out[i].context_cap = spec.window;
        }
        return;
    }
    out.push_back(gemm(s.kv_up.name, s.kv_up.k, s.kv_up.n));
    // Keys (with the shared RoPE part) and values of every attended token, per head.
    const Affine kv_elements = (b * heads * (d_qk + d_v)) * context;
    out.push_back(attention_op(in, layers, heads, pairs, 2 * d_qk + 2 * d_v, tokens * heads * d_qk * ab, ab * kv_elements,
                               tokens * heads * d_v * ab));
}

}  // namespace envelope
