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
// Norms and residual adds act on the full [T × h] stream, replicated on every chip, or on
// T/tp tokens of it under sequence parallelism, where each all-reduce becomes a
// reduce-scatter after the row-parallel GEMM and an all-gather before the next
// column-parallel one (Korthikanti et al. 2022, arXiv:2205.05198 §4.2.2).
// The shapes come from model/layer_shard.hpp, the one definition of a layer's matrices.
#include <algorithm>
#include <cmath>

#include "ops/builders.hpp"
#include "ops/elementwise_costs.hpp"
#include "ops/lower.hpp"
#include "parallel/expert_layout.hpp"

namespace envelope {

// Causal attention pairs (query, key) per sequence and head: each new token attends to
// every cached token and to the new tokens up to itself:
//   pairs = new·cached + new·(new+1)/2
// Prefill (cached = 0): s(s+1)/2 ≈ s²/2 — causal masking halves the work.
// Decode (new = 1, cached = L−1): L.
// With a sliding window of W tokens, new token j (at position c + j) attends to
// min(c + j, W) of them: Σ_j = k·c + k(k+1)/2 + (n − k)·W, k = clamp(W − c, 0, n) the new
// tokens still inside the window's growth. A decode step's min(L, W) is left to the op's
// context cap (ops/op.hpp).
Affine causal_pairs(const Pass& p, int64_t window) {
    const double n = static_cast<double>(p.new_tokens);
    if (window > 0 && !p.decode && p.cached_tokens.per_context == 0) {
        const double c = p.cached_tokens.base, w = static_cast<double>(window);
        const double k = std::clamp(w - c, 0.0, n);
        return constant(k * c + k * (k + 1) / 2 + (n - k) * w);
    }
    return n * p.cached_tokens + constant(n * (n + 1) / 2);
}

// Each query row of a fused attention kernel pays fixed work besides its keys (Q load, softmax
// rescale, O store), once per kernel call. A pass runs one call, except a training pass under
// context parallelism: one per ring step, cp of them, each over the chip's n = s/cp query
// tokens (TransformerEngine's load-balanced ring, AttnFuncWithCPAndKVP2P).
double attention_rows(const LowerInput& in, double heads) {
    const Pass& p = in.pass;
    const double calls = p.training ? static_cast<double>(in.parallelism.cp) : 1.0;
    return static_cast<double>(p.batch) * heads * static_cast<double>(p.new_tokens) * calls;
}

namespace {

double norm_flops(NormKind k) {
    return k == NormKind::layernorm ? elementwise_flops::kLayerNorm : elementwise_flops::kRmsNorm;
}

// Full score rectangle (what an unfused kernel computes and stores before masking).
Affine score_rectangle(const Pass& p) {
    const double n = static_cast<double>(p.new_tokens);
    return n * (p.cached_tokens + constant(n));
}

// A decode step of a sliding-window layer attends over (and reads the cache of) min(L, W)
// tokens: its attention ops stop growing at L = W. A prompt chunk j (cached = c₀ + C·j) stops
// growing once its cache holds W tokens, at j = ⌈(W − c₀)/C⌉ (from there each of its tokens is
// taken to attend over W, the chunk's own triangle included: at most C²/2 pairs too many). The
// KV append does not depend on L.
void cap_decode_context(const AttentionSpec& spec, const Pass& p, std::vector<Op>& ops, std::size_t first) {
    if (spec.window <= 0) return;
    int64_t cap = 0;
    if (p.decode) cap = spec.window;
    const double step = p.cached_tokens.per_context;
    if (!p.decode && step > 0) {
        cap = std::max<int64_t>(1, static_cast<int64_t>(std::ceil((static_cast<double>(spec.window) - p.cached_tokens.base) / step)));
    }
    if (cap == 0) return;
    for (std::size_t i = first; i < ops.size(); ++i) ops[i].context_cap = cap;
}

// Attention core. Fused (FlashAttention, Dao et al. 2022, arXiv:2205.14135): Q read,
// O written once, K/V read from the cache once, scores stay on chip, masked blocks
// skipped. Unfused: scores S and probabilities P go through HBM.
void lower_attention(const LowerInput& in, const LayerShard& shard, double layers, const AttentionSpec& spec,
                     std::vector<Op>& out) {
    const Pass& p = in.pass;
    const int64_t head_dim = spec.head_dim;
    const std::size_t first_op = out.size();
    const double b = static_cast<double>(p.batch);
    const double n = static_cast<double>(p.new_tokens);
    const double d = static_cast<double>(head_dim);
    const double heads = static_cast<double>(shard.heads);
    const double kv_heads = static_cast<double>(shard.kv_heads);
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

    // Append this pass's K and V to the cache (converting to the KV format); training keeps
    // no cache.
    if (!p.training) {
        Op append = build::vector("kv_append", layers, constant(2 * b * n * kv_heads * d), constant(0), 0,
                                  in.precision.residual);
        append.traffic.kv_written = constant(2 * b * n * kv_heads * d * kvb);
        out.push_back(append);
    }

    if (in.flash_attention) {
        // 2 FLOPs for Q·Kᵀ and 2 for P·V per pair and head dimension.
        Op a = build::attention(layers, math, (b * heads) * causal_pairs(p, spec.window), 4 * d, attention_rows(in, heads));
        a.traffic.activations_read = constant(q_elems * ab);
        a.traffic.kv_read = (2 * kvb * kv_reads) * kv_elems_one;
        a.traffic.activations_written = constant(q_elems * ab);
        out.push_back(a);
        cap_decode_context(spec, p, out, first_op);
        return;
    }

    const Affine scores = (b * heads) * score_rectangle(p);  // S (and P) elements
    Op qk;
    qk.name = "attn_scores";
    qk.cls = OpClass::matmul;
    qk.role = OpRole::attention_core;
    qk.precision = math;
    qk.count = layers;
    qk.flops = (2 * d) * scores;
    qk.traffic.activations_read = constant(q_elems * ab);
    qk.traffic.kv_read = (kvb * kv_reads) * kv_elems_one;
    qk.traffic.activations_written = ab * scores;
    out.push_back(qk);

    Op softmax = build::vector("softmax", layers, scores, scores, elementwise_flops::kSoftmax, in.precision.residual);
    softmax.role = OpRole::attention_core;
    out.push_back(softmax);
    if (p.training && in.dropout) {
        // Dropout on the probabilities (Megatron-LM's CoreAttention applies torch dropout to
        // them, a kernel of its own): reads P, writes the dropped P and a 1-byte mask per
        // score (the 5·a·s²·b of Korthikanti et al. 2022 Table 2: P 2 B, mask 1 B, output 2 B).
        Op drop = build::vector("attn_dropout", layers, scores, scores, elementwise_flops::kDropout,
                                in.precision.residual);
        drop.traffic.activations_written = drop.traffic.activations_written + kDropoutMaskBytes * scores;
        drop.role = OpRole::attention_core;
        drop.backward = Backward::dropout_mask;
        out.push_back(drop);
    }

    Op pv;
    pv.name = "attn_context";
    pv.cls = OpClass::matmul;
    pv.role = OpRole::attention_core;
    pv.precision = math;
    pv.count = layers;
    pv.flops = (2 * d) * scores;
    pv.traffic.activations_read = ab * scores;
    pv.traffic.kv_read = (kvb * kv_reads) * kv_elems_one;
    pv.traffic.activations_written = constant(q_elems * ab);
    out.push_back(pv);
    cap_decode_context(spec, p, out, first_op);
}

// Context parallelism (Megatron-LM, ring attention): each chip gathers the K and V of every
// chunk of the sequence, cp − 1 of them from its peers, passed round the ring and overlapped
// with the attention blocks (training/step.hpp).
void add_cp_gather(const LowerInput& in, const LayerShard& s, double layers, std::vector<Op>& out) {
    if (in.parallelism.cp <= 1) return;
    const PrecisionPlan& pr = in.precision;
    const double kv_bytes = 2 * static_cast<double>(in.pass.batch * in.pass.new_tokens * in.parallelism.cp) *
                            static_cast<double>(s.kv_dim) * bytes_per_element(pr.residual);
    Op gather = build::collective("cp_kv_allgather", layers, CollectiveKind::all_gather, constant(kv_bytes),
                                  ParallelDim::cp, in.parallelism.cp, pr.residual);
    gather.backward = Backward::regather;
    out.push_back(gather);
}

}  // namespace

double LowerInput::stream_tokens() const {
    const double tokens = static_cast<double>(pass.batch * pass.new_tokens);
    return parallelism.sp ? tokens / static_cast<double>(parallelism.tp) : tokens;
}

namespace {

// After a row-parallel GEMM: the partial sums are all-reduced, or reduce-scattered over
// the sequence under SP.
void add_tp_reduction(const LowerInput& in, const char* all_reduce, const char* reduce_scatter, double count,
                      double buffer_bytes, std::vector<Op>& out) {
    const int64_t tp = in.parallelism.tp;
    if (tp <= 1) return;
    const Precision r = in.precision.residual;
    out.push_back(in.parallelism.sp ? build::collective(reduce_scatter, count, CollectiveKind::reduce_scatter,
                                                        constant(buffer_bytes), ParallelDim::tp, tp, r)
                                    : build::collective(all_reduce, count, CollectiveKind::all_reduce,
                                                        constant(buffer_bytes), ParallelDim::tp, tp, r));
}

// Before a column-parallel GEMM under SP: the sequence shards are gathered.
void add_sp_gather(const LowerInput& in, const char* name, double count, double buffer_bytes,
                   std::vector<Op>& out) {
    const int64_t tp = in.parallelism.tp;
    if (tp <= 1 || !in.parallelism.sp) return;
    out.push_back(build::collective(name, count, CollectiveKind::all_gather, constant(buffer_bytes), ParallelDim::tp,
                                    tp, in.precision.residual));
}

}  // namespace

void lower_mlp(const LowerInput& in, bool gated, const MlpNames& names, const WeightMatrix& up,
               const WeightMatrix& down, double count, double tokens, std::vector<Op>& out) {
    const PrecisionPlan& pr = in.precision;
    const double ffn = down.k;
    const auto gemm = [&](const char* name, const WeightMatrix& w, double n) {
        return build::matmul(name, count, tokens, w.k, n, pr.weights, pr.activations, pr.residual, w.bias);
    };
    if (gated && !in.engine.fused_gate_up) {
        out.push_back(gemm(names.gate, up, ffn));
        out.push_back(gemm(up.name, up, ffn));
    } else {
        out.push_back(gemm(up.name, up, up.n));
    }
    out.push_back(build::vector(names.act, count, constant(tokens * up.n), constant(tokens * ffn),
                                gated ? elementwise_flops::kSiluMul : elementwise_flops::kGelu, pr.residual));
    out.push_back(gemm(down.name, down, down.n));
}

void lower_layers(const LowerInput& in, const LayerGroup& group, std::vector<Op>& out) {
    const LayerSpec& layer = group.layer;
    const LayerShard s = shard_layer(layer, in.model.hidden, in.parallelism.tp, in.parallelism.ep,
                                       expert_layout(in.parallelism).etp);
    const PrecisionPlan& pr = in.precision;
    const double layers = static_cast<double>(group.count);
    const double tokens = static_cast<double>(in.pass.batch * in.pass.new_tokens);
    const double h = static_cast<double>(in.model.hidden);
    const Affine stream = constant(in.stream_tokens() * h);  // the residual stream on this chip
    const double buffer = tokens * h * bytes_per_element(pr.residual);  // the whole [T × h] stream
    const double norm_params = norm_vector_params(layer.norm, in.model.hidden);
    const auto gemm = [&](const WeightMatrix& w, double n) {
        return build::matmul(w.name, layers, tokens, w.k, n, pr.weights, pr.activations, pr.residual, w.bias);
    };
    const WeightMatrix& qkv = s.qkv;
    const WeightMatrix& proj = s.out;
    const std::size_t first = out.size();
    // A residual add; with dropout in training it is Megatron-LM's fused bias-dropout-add,
    // which also writes the 1-byte mask of the branch it drops.
    const auto residual = [&](const char* name, double inputs) {
        Op add = build::vector(name, layers, inputs * stream, stream, (inputs - 1) * elementwise_flops::kResidualAdd,
                               pr.residual);
        if (in.pass.training && in.dropout) {
            add.traffic.activations_written = add.traffic.activations_written + kDropoutMaskBytes * stream;
        }
        return add;
    };

    out.push_back(build::vector("attn_norm", layers, stream, stream, norm_flops(layer.norm), pr.residual,
                                norm_params, pr.weights));
    add_sp_gather(in, "attn_allgather", layers, buffer, out);
    if (s.mamba) {
        lower_mamba_mixer(in, layer.mamba, s, layers, out);
    } else if (s.mla) {
        lower_mla_attention(in, layer.attention, s, layers, out);
    } else {
        out.push_back(gemm(qkv, qkv.n));
        add_cp_gather(in, s, layers, out);
        lower_attention(in, s, layers, layer.attention, out);
    }
    out.push_back(gemm(proj, proj.n));
    // A parallel block (GPT-J, Falcon) feeds the MLP the layer's input too: the attention's
    // partial sums wait for the MLP's, and one reduction and one residual add take both.
    if (!layer.parallel_block) {
        add_tp_reduction(in, "attn_allreduce", "attn_reducescatter", layers, buffer, out);
        out.push_back(residual("attn_residual", 2));
    }

    if (!layer.ffn.present()) {  // a block that is only its mixer (Mamba): no MLP half
        if (layer.parallel_block) {  // nothing to wait for: reduce and add now
            add_tp_reduction(in, "attn_allreduce", "attn_reducescatter", layers, buffer, out);
            out.push_back(residual("attn_residual", 2));
        }
        for (std::size_t i = first; i < out.size(); ++i) out[i].layer = true;
        return;
    }
    out.push_back(build::vector("mlp_norm", layers, stream, stream, norm_flops(layer.norm), pr.residual,
                                norm_params, pr.weights));
    // Folded experts under SP with whole experts (moe_tp 1) and no shared experts take each
    // rank's sequence shard straight to the all-to-all and return it complete (Megatron-Core's
    // all-to-all dispatcher): no gather before the mixture, no reduce-scatter after.
    const ExpertLayout experts = expert_layout(in.parallelism);
    const bool sharded_experts = layer.ffn.is_moe() && in.parallelism.sp && experts.folded &&
                                 experts.all_to_all() && experts.etp == 1 && s.ffn == 0;
    if (!sharded_experts) add_sp_gather(in, "mlp_allgather", layers, buffer, out);
    if (layer.ffn.is_moe()) {
        lower_moe(in, layer, s, layers, out);
    } else {
        lower_mlp(in, layer.ffn.gated, MlpNames{"mlp_gate", "mlp_act"}, s.up, s.down, layers, tokens, out);
    }
    if (!sharded_experts) add_tp_reduction(in, "mlp_allreduce", "mlp_reducescatter", layers, buffer, out);
    // x + attention + MLP in a parallel block (2 FLOPs an element), x + MLP otherwise.
    const double inputs = layer.parallel_block ? 3 : 2;
    out.push_back(residual("mlp_residual", inputs));
    for (std::size_t i = first; i < out.size(); ++i) out[i].layer = true;
}

}  // namespace envelope
