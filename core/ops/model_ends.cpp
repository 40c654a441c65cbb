// Once-per-model operators: token embedding before the first layer; final norm and
// LM head after the last. Both vocabulary matrices are split over TP by rows of the
// vocabulary (Megatron "vocab-parallel" embedding, arXiv:1909.08053 §3).
#include "ops/builders.hpp"
#include "ops/elementwise_costs.hpp"
#include "ops/lower.hpp"

namespace envelope {

namespace {

int64_t vocab_shard(const Model& m, int64_t tp) { return (m.vocab + tp - 1) / tp; }

}  // namespace

// A model without a vocabulary (vocab = 0) is a stack of layers measured alone (a layer-level
// benchmark): no embedding, final norm or LM head.
void lower_model_head(const LowerInput& in, std::vector<Op>& out) {
    const Model& m = in.model;
    if (m.vocab == 0) return;
    const PrecisionPlan& pr = in.precision;
    const double tokens = static_cast<double>(in.pass.batch * in.pass.new_tokens);
    const double h = static_cast<double>(m.hidden);
    const int64_t tp = in.parallelism.tp;
    const double buffer = tokens * h * bytes_per_element(pr.residual);

    // Each token's row lives on one chip of the TP group: a chip gathers tokens/tp rows on
    // average and writes a full [T × h] buffer (zeros for rows it does not own), which
    // the all-reduce then sums (reduce-scatters, under SP).
    Op embed;
    embed.name = "embedding";
    embed.cls = OpClass::lookup;
    embed.precision = pr.residual;
    embed.count = 1;
    embed.traffic.weights_read = constant(tokens / static_cast<double>(tp) * h * bytes_per_element(pr.weights));
    embed.traffic.activations_written = constant(buffer);
    out.push_back(embed);
    if (tp > 1 && in.parallelism.sp) {
        out.push_back(build::collective("embed_reducescatter", 1, CollectiveKind::reduce_scatter, constant(buffer),
                                        ParallelDim::tp, tp, pr.residual));
    } else if (tp > 1) {
        // Its backward is the identity: each chip already holds the whole output gradient.
        Op reduce = build::collective("embed_allreduce", 1, CollectiveKind::all_reduce, constant(buffer),
                                      ParallelDim::tp, tp, pr.residual);
        reduce.backward = Backward::identity;
        out.push_back(reduce);
    }
}

void lower_model_tail(const LowerInput& in, std::vector<Op>& out) {
    const Model& m = in.model;
    // No vocabulary, or a prompt chunk before the last (chunked prefill): no head.
    if (m.vocab == 0 || in.pass.logit_tokens == 0) return;
    const PrecisionPlan& pr = in.precision;
    const double logit_tokens = static_cast<double>(in.pass.batch * in.pass.logit_tokens);
    const double h = static_cast<double>(m.hidden);
    const int64_t tp = in.parallelism.tp;
    const double stream = in.stream_tokens() * h;

    out.push_back(build::vector("final_norm", 1, constant(stream), constant(stream),
                                m.final_norm == NormKind::layernorm ? elementwise_flops::kLayerNorm
                                                                    : elementwise_flops::kRmsNorm,
                                pr.residual, norm_vector_params(m.final_norm, m.hidden), pr.weights));
    if (tp > 1 && in.parallelism.sp) {
        // The logit tokens' hidden states, gathered from their sequence shards.
        out.push_back(build::collective("final_allgather", 1, CollectiveKind::all_gather,
                                        constant(logit_tokens * h * bytes_per_element(pr.residual)), ParallelDim::tp,
                                        tp, pr.residual));
    }
    // Logits only for the tokens that sample the next token: the last prompt token in
    // prefill, the new token in decode; every token in training.
    const int64_t vocab = vocab_shard(m, tp);
    out.push_back(build::matmul("lm_head", 1, logit_tokens, h, static_cast<double>(vocab), pr.weights,
                                pr.activations, pr.residual, false));
    if (in.pass.training) {
        // Vocabulary-parallel cross-entropy (Megatron-LM): softmax over each chip's slice of
        // the logits in fp32, with the row maxima and sums all-reduced over TP (two floats per
        // token) instead of gathering the logits. It runs as separate PyTorch kernels, each a
        // pass over the [T × V_c] logits (megatron/core/tensor_parallel/cross_entropy.py):
        // the cast to fp32 (read β_r, write 4 B), the row max (read 4), the subtraction of
        // the max (read 4, write 4), exp in place (read 4, write 4), the row sum (read 4) and the
        // division that keeps the softmax for the backward pass (read 4, write 4).
        const double logits = logit_tokens * static_cast<double>(vocab);
        Op ce = build::vector("cross_entropy", 1, constant(logits), constant(logit_tokens),
                              elementwise_flops::kSoftmax * static_cast<double>(vocab), pr.residual);
        ce.traffic.activations_read = constant(logits * (bytes_per_element(pr.residual) + kCrossEntropyReadPasses * 4));
        ce.traffic.activations_written = constant(logits * kCrossEntropyWritePasses * 4 + logit_tokens * 4);
        ce.backward = Backward::softmax_loss;
        out.push_back(ce);
        if (tp > 1) {
            // Of scalars: nothing to carry back.
            Op reduce = build::collective("loss_allreduce", 1, CollectiveKind::all_reduce, constant(logit_tokens * 2 * 4),
                                          ParallelDim::tp, tp, Precision::fp32);
            reduce.backward = Backward::identity;
            out.push_back(reduce);
        }
        return;
    }
    if (tp > 1) {
        // Gathers every chip's (padded) vocabulary shard of the logits.
        const double padded_vocab = static_cast<double>(vocab * tp);
        out.push_back(build::collective("logits_allgather", 1, CollectiveKind::all_gather,
                                        constant(logit_tokens * padded_vocab * bytes_per_element(pr.residual)),
                                        ParallelDim::tp, tp, pr.residual));
    }
}

}  // namespace envelope
