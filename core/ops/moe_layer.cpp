// A mixture of experts in place of a layer's MLP, on one chip of an expert group
// (Megatron-LM MoE with the all-to-all token dispatcher; TensorRT-LLM's and SGLang's EP). With T
// tokens in the chip's attention group, h the hidden width, E experts of which top_k per token,
// the expert group of parallel/expert_layout.hpp: ep chips sharing the experts (each holding
// E/ep of them, each split over etp chips), routing the tokens of D attention groups:
//   moe_router    [T × h] · [h × E], then top-k over the T × E scores
//   moe_dispatch  all-to-all over ep when D > 1: each token's hidden state to its k experts,
//                 s·T·k·h values sent per chip (s the dispatch share: 1 when the EP chips are
//                 data-parallel replicas, each with its own T tokens; etp/tp when the EP group
//                 is folded over TP ranks, which split their group's tokens). With D = 1 every
//                 chip of the group already holds every token (TEP): no dispatch, and the
//                 chips' partial outputs join the TP all-reduce after the layer
//   experts       the group's T·D tokens pick k experts each: T_e = T·D·k/E tokens per
//                 expert under uniform routing. An expert runs only when a token picked it:
//                 with probability p = 1 − (1 − k/E)^(T·D) (each token picks it with
//                 probability k/E), so a chip runs its E/ep experts p of the time, on T_e/p
//                 tokens each: the weights of E/ep·p experts are read, not of k and not
//                 of all (decode at small batch reads few, a large batch all of them);
//                 the experts of a layer run as one grouped GEMM
//   moe_combine   the all-to-all back, then the k outputs of each token weighted and summed
//   shared        a dense MLP of shared_experts · expert_ffn on every token
// Routing is balanced unless moe.imbalance > 1: then, with ep > 1, the busiest chip's experts
// get that many times T_e tokens and its all-to-alls that many times the bytes (no capacity
// factor, no dropped tokens).
#include <cmath>

#include "ops/builders.hpp"
#include "ops/elementwise_costs.hpp"
#include "ops/lower.hpp"
#include "parallel/expert_layout.hpp"

namespace envelope {

void lower_moe(const LowerInput& in, const LayerSpec& layer, const LayerShard& s, double count,
               std::vector<Op>& out) {
    const PrecisionPlan& pr = in.precision;
    const MoeSpec& moe = layer.ffn.moe;
    const double tokens = static_cast<double>(in.pass.batch * in.pass.new_tokens);
    const double h = s.router.k;
    const double experts = static_cast<double>(moe.experts);
    const double k = static_cast<double>(moe.top_k);
    const ExpertLayout layout = expert_layout(in.parallelism);
    const double rb = bytes_per_element(pr.residual);

    // moe_tp > tp: the ETP group's attention groups pool their tokens first (SGLang dp_gather).
    const double gathered = static_cast<double>(layout.gathered(in.parallelism.tp));
    if (gathered > 1) {
        out.push_back(build::collective("moe_gather", count, CollectiveKind::all_gather,
                                        constant(gathered * tokens * h * rb), ParallelDim::etp, layout.etp,
                                        pr.residual));
    }
    out.push_back(build::matmul("moe_router", count, tokens, h, experts, pr.weights, pr.activations, pr.residual,
                                false));
    out.push_back(build::vector("moe_topk", count, constant(tokens * experts), constant(tokens * k),
                                elementwise_flops::kSoftmax * experts / k, pr.residual));
    // The busiest chip of the EP group sets the pace: it receives `imbalance` times the mean
    // share of the routed tokens (and sends as much back). With ep = 1 every expert is here.
    const double load = s.ep > 1 ? moe.imbalance : 1.0;
    const double routed_bytes = load * layout.dispatch_share * tokens * k * h * rb;
    const bool all_to_all = s.ep > 1 && layout.all_to_all();
    if (all_to_all) {
        out.push_back(build::collective("moe_dispatch", count, CollectiveKind::all_to_all, constant(routed_bytes),
                                        ParallelDim::ep, s.ep, pr.residual));
    }

    const double group_tokens = tokens * static_cast<double>(layout.token_sets);
    const double per_expert = load * group_tokens * k / experts;               // T_e on the busiest chip
    const double hit = 1 - std::pow(1 - k / experts, group_tokens);           // p
    const double running = static_cast<double>(s.local_experts) * hit;       // experts run per layer
    const double m = per_expert / hit;
    const double gate = layer.ffn.gated ? 2 : 1;
    const double ffn = static_cast<double>(s.expert_ffn);
    // The experts of a layer run as one grouped GEMM (vLLM's fused_moe, TensorRT-LLM's MoE
    // plugin, Megatron-LM's --moe-grouped-gemm): one kernel, the FLOPs and weights of every
    // expert it runs.
    out.push_back(build::grouped_matmul("expert_up", count, running, m, h, gate * ffn, pr.weights, pr.activations,
                                        pr.residual, s.expert_up.bias));
    out.push_back(build::vector("expert_act", count, constant(running * m * gate * ffn), constant(running * m * ffn),
                                layer.ffn.gated ? elementwise_flops::kSiluMul : elementwise_flops::kGelu,
                                pr.residual));
    out.push_back(build::grouped_matmul("expert_down", count, running, m, ffn, h, pr.weights, pr.activations,
                                        pr.residual, s.expert_down.bias));

    if (all_to_all) {
        out.push_back(build::collective("moe_combine", count, CollectiveKind::all_to_all, constant(routed_bytes),
                                        ParallelDim::ep, s.ep, pr.residual));
    }
    // Each token's k expert outputs, weighted by the router and summed.
    out.push_back(build::vector("moe_unpermute", count, constant(gathered * tokens * k * h),
                                constant(gathered * tokens * h), 2 * k, pr.residual));
    if (gathered > 1) {  // each attention group's partial outputs back to it (SGLang dp_scatter)
        out.push_back(build::collective("moe_scatter", count, CollectiveKind::reduce_scatter,
                                        constant(gathered * tokens * h * rb), ParallelDim::etp, layout.etp,
                                        pr.residual));
    }
    if (s.ffn > 0) {
        lower_mlp(in, layer.ffn.gated, MlpNames{"shared_gate", "shared_act"}, s.up, s.down, count, tokens, out);
    }
}

}  // namespace envelope
