// Once-per-model operators: token embedding before the first layer; final norm and
// LM head after the last. Both vocabulary matrices are split over TP by rows of the
// vocabulary (Megatron "vocab-parallel" embedding, arXiv:1909.08053 §3).
#include "ops/builders.hpp"
#include "ops/elementwise_costs.hpp"
#include "ops/lower.hpp"

namespace envelope {

void lower_model_head(const LowerInput& in, std::vector<Op>& out) {
    const Model& m = in.model;
    const PrecisionPlan& pr = in.precision;
    const double tokens = static_cast<double>(in.pass.batch * in.pass.new_tokens);
    const double h = static_cast<double>(m.hidden);
    const int64_t tp = in.shard.tp;

    // Each token's row lives on one chip of the TP group: a chip gathers tokens/tp rows on
    // average and writes a full [T × h] buffer (zeros for rows it does not own), which
    // the all-reduce then sums.
    Op embed;
    embed.name = "embedding";
    embed.cls = OpClass::lookup;
    embed.precision = pr.residual;
    embed.count = 1;
    embed.traffic.weights_read = constant(tokens / static_cast<double>(tp) * h *
                                          bytes_per_element(pr.weights));
    embed.traffic.activations_written = constant(tokens * h * bytes_per_element(pr.residual));
    out.push_back(embed);
    if (tp > 1) {
        out.push_back(build::collective("embed_allreduce", 1, CollectiveKind::all_reduce,
                                        constant(tokens * h * bytes_per_element(pr.residual)),
                                        tp, pr.residual));
    }
}

void lower_model_tail(const LowerInput& in, std::vector<Op>& out) {
    const Model& m = in.model;
    const PrecisionPlan& pr = in.precision;
    const double tokens = static_cast<double>(in.pass.batch * in.pass.new_tokens);
    const double logit_tokens = static_cast<double>(in.pass.batch * in.pass.logit_tokens);
    const double h = static_cast<double>(m.hidden);
    const int64_t tp = in.shard.tp;
    const double norm_params = (m.norm == NormKind::layernorm ? 2.0 : 1.0) * h;

    out.push_back(build::vector("final_norm", 1, constant(tokens * h), constant(tokens * h),
                                m.norm == NormKind::layernorm ? elementwise_flops::kLayerNorm
                                                              : elementwise_flops::kRmsNorm,
                                pr.residual, norm_params, pr.weights));
    // Logits only for the tokens that sample the next token: the last prompt token in
    // prefill, the new token in decode.
    out.push_back(build::matmul("lm_head", 1, logit_tokens, h,
                                static_cast<double>(in.shard.vocab), pr.weights, pr.activations,
                                pr.residual, false));
    if (tp > 1) {
        // Gathers every chip's (padded) vocabulary shard of the logits.
        const double padded_vocab = static_cast<double>(in.shard.vocab * tp);
        out.push_back(build::collective(
            "logits_allgather", 1, CollectiveKind::all_gather,
            constant(logit_tokens * padded_vocab * bytes_per_element(pr.residual)), tp,
            pr.residual));
    }
}

}  // namespace envelope
