// One dense decoder layer on one chip under tensor parallelism.
//
// Shapes per chip (T = batch · new tokens, h = hidden, d = head_dim, tp = TP degree):
//   qkv_proj   [T × h] · [h × (heads/tp + 2·kvc)·d]                column-parallel,
//              kvc = max(1, kv_heads/tp) KV heads per chip
//   attention  per head: scores Q·Kᵀ and context P·V over the cached + new tokens
//   out_proj   [T × heads/tp·d] · [heads/tp·d × h]               row-parallel → all-reduce
//   mlp_up     [T × h] · [h × m·ffn/tp], m = 2 when gated (gate and up fused); an engine
//              that does not fuse them runs mlp_gate and mlp_up, [h × ffn/tp] each
//   mlp_down   [T × ffn/tp] · [ffn/tp × h]                       row-parallel → all-reduce
// Norms and residual adds act on the full [T × h] stream, replicated on every chip
// (no sequence parallelism in inference).
#include "ops/builders.hpp"
#include "ops/elementwise_costs.hpp"
#include "ops/lower.hpp"

namespace envelope {

namespace {

double norm_flops(NormKind k) {
    return k == NormKind::layernorm ? elementwise_flops::kLayerNorm : elementwise_flops::kRmsNorm;
}
double norm_params(const Model& m) {
    return (m.norm == NormKind::layernorm ? 2.0 : 1.0) * static_cast<double>(m.hidden);
}

// Causal attention pairs (query, key) per sequence and head: each new token attends to
// every cached token and to the new tokens up to itself:
//   pairs = new·cached + new·(new+1)/2
// Prefill (cached = 0): s(s+1)/2 ≈ s²/2 — causal masking halves the work.
// Decode (new = 1, cached = L−1): L.
Affine causal_pairs(const Pass& p) {
    const double n = static_cast<double>(p.new_tokens);
    return n * p.cached_tokens + constant(n * (n + 1) / 2);
}

// Full score rectangle (what an unfused kernel computes and stores before masking).
Affine score_rectangle(const Pass& p) {
    const double n = static_cast<double>(p.new_tokens);
    return n * (p.cached_tokens + constant(n));
}

// Attention core. Fused (FlashAttention, Dao et al. 2022, arXiv:2205.14135): Q read,
// O written once, K/V read from the cache once, scores stay on chip, masked blocks
// skipped. Unfused: scores S and probabilities P go through HBM.
void lower_attention(const LowerInput& in, std::vector<Op>& out) {
    const Model& m = in.model;
    const Pass& p = in.pass;
    const double layers = static_cast<double>(m.layers);
    const double b = static_cast<double>(p.batch);
    const double n = static_cast<double>(p.new_tokens);
    const double d = static_cast<double>(m.head_dim);
    const double heads = static_cast<double>(in.shard.heads);
    const double kv_heads = static_cast<double>(in.shard.kv_heads);
    // Q, O and the scores are in the residual format; the math runs in the wider of it
    // and the cache's format (an fp8 cache is converted on the fly).
    const double ab = bytes_per_element(in.precision.residual);
    const double kvb = bytes_per_element(in.precision.kv_cache);
    const Precision math = wider(in.precision.residual, in.precision.kv_cache);

    const Affine context = p.cached_tokens + constant(n);           // tokens attended over
    const double q_elems = b * n * heads * d;                       // Q (and O) elements
    // K (or V) elements read from the cache: the filled part, or, for a static-shape engine
    // in decode, every slot reserved for the sequence.
    const bool decode = p.decode;
    const bool whole_allocation = decode && in.engine.kv_read_allocated_length && p.allocated_tokens > 0;
    const Affine kv_elems_one =
        (b * kv_heads * d) * (whole_allocation ? constant(static_cast<double>(p.allocated_tokens)) : context);
    // A decode kernel written for multi-head attention reads each KV head once per query
    // head that uses it (heads / kv_heads times); a GQA-aware one once per group.
    const double kv_reads = decode && !in.engine.kv_read_once_per_group ? heads / kv_heads : 1.0;

    // Append this pass's K and V to the cache (converting to the KV format).
    Op append = build::vector("kv_append", layers, constant(2 * b * n * kv_heads * d),
                              constant(0), 0, in.precision.residual);
    append.traffic.kv_written = constant(2 * b * n * kv_heads * d * kvb);
    out.push_back(append);

    if (in.flash_attention) {
        Op a;
        a.name = "attention";
        a.cls = OpClass::attention;
        a.precision = math;
        a.count = layers;
        a.flops = (4 * b * heads * d) * causal_pairs(p);  // 2 for Q·Kᵀ + 2 for P·V per pair
        a.traffic.activations_read = constant(q_elems * ab);
        a.traffic.kv_read = (2 * kvb * kv_reads) * kv_elems_one;
        a.traffic.activations_written = constant(q_elems * ab);
        out.push_back(a);
        return;
    }

    const Affine scores = (b * heads) * score_rectangle(p);  // S (and P) elements
    Op qk;
    qk.name = "attn_scores";
    qk.cls = OpClass::matmul;
    qk.precision = math;
    qk.count = layers;
    qk.flops = (2 * d) * scores;
    qk.traffic.activations_read = constant(q_elems * ab);
    qk.traffic.kv_read = (kvb * kv_reads) * kv_elems_one;
    qk.traffic.activations_written = ab * scores;
    out.push_back(qk);

    out.push_back(build::vector("softmax", layers, scores, scores, elementwise_flops::kSoftmax,
                                in.precision.residual));

    Op pv;
    pv.name = "attn_context";
    pv.cls = OpClass::matmul;
    pv.precision = math;
    pv.count = layers;
    pv.flops = (2 * d) * scores;
    pv.traffic.activations_read = ab * scores;
    pv.traffic.kv_read = (kvb * kv_reads) * kv_elems_one;
    pv.traffic.activations_written = constant(q_elems * ab);
    out.push_back(pv);
}

}  // namespace

void lower_dense_layer(const LowerInput& in, std::vector<Op>& out) {
    const Model& m = in.model;
    const TpShard& s = in.shard;
    const PrecisionPlan& pr = in.precision;
    const double layers = static_cast<double>(m.layers);
    const double tokens = static_cast<double>(in.pass.batch * in.pass.new_tokens);
    const double h = static_cast<double>(m.hidden);
    const Affine stream = constant(tokens * h);  // elements of the [T × h] residual stream
    const double rb = bytes_per_element(pr.residual);
    const int64_t tp = s.tp;

    out.push_back(build::vector("attn_norm", layers, stream, stream, norm_flops(m.norm),
                                pr.residual, norm_params(m), pr.weights));
    out.push_back(build::matmul("qkv_proj", layers, tokens, h,
                                static_cast<double>(s.q_dim(m) + 2 * s.kv_dim(m)), pr.weights,
                                pr.activations, pr.residual, m.linear_bias));
    lower_attention(in, out);
    out.push_back(build::matmul("out_proj", layers, tokens, static_cast<double>(s.q_dim(m)), h,
                                pr.weights, pr.activations, pr.residual, m.linear_bias));
    if (tp > 1) {
        out.push_back(build::collective("attn_allreduce", layers, CollectiveKind::all_reduce,
                                        constant(tokens * h * rb), tp, pr.residual));
    }
    out.push_back(build::vector("attn_residual", layers, 2 * stream, stream,
                                elementwise_flops::kResidualAdd, pr.residual));

    const double ffn = static_cast<double>(s.ffn);
    const double up_width = (m.gated_ffn ? 2.0 : 1.0) * ffn;
    out.push_back(build::vector("mlp_norm", layers, stream, stream, norm_flops(m.norm),
                                pr.residual, norm_params(m), pr.weights));
    if (m.gated_ffn && !in.engine.fused_gate_up) {
        out.push_back(build::matmul("mlp_gate", layers, tokens, h, ffn, pr.weights, pr.activations, pr.residual,
                                    m.linear_bias));
        out.push_back(build::matmul("mlp_up", layers, tokens, h, ffn, pr.weights, pr.activations, pr.residual,
                                    m.linear_bias));
    } else {
        out.push_back(build::matmul("mlp_up", layers, tokens, h, up_width, pr.weights, pr.activations,
                                    pr.residual, m.linear_bias));
    }
    out.push_back(build::vector("mlp_act", layers, constant(tokens * up_width),
                                constant(tokens * ffn),
                                m.gated_ffn ? elementwise_flops::kSiluMul : elementwise_flops::kGelu,
                                pr.residual));
    out.push_back(build::matmul("mlp_down", layers, tokens, ffn, h, pr.weights, pr.activations,
                                pr.residual, m.linear_bias));
    if (tp > 1) {
        out.push_back(build::collective("mlp_allreduce", layers, CollectiveKind::all_reduce,
                                        constant(tokens * h * rb), tp, pr.residual));
    }
    out.push_back(build::vector("mlp_residual", layers, 2 * stream, stream,
                                elementwise_flops::kResidualAdd, pr.residual));
}

}  // namespace envelope
