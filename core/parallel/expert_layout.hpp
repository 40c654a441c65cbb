#pragma once
// How a mixture of experts' layers are spread over the chips: the one definition of the
// expert side of a mapping, read by the checks, the placement, the layer shapes, the MoE
// operators and the gradient reduction.
//
// The attention (and dense) part of a layer runs TP × CP × DP (× PP). The experts run
// ETP × EP (× expert-DP) over the same chips (Megatron-Core's "parallel folding",
// megatron/core/transformer/moe/README.md: --expert-tensor-parallel-size, EP × ETP folded over
// TP × CP × DP; TensorRT-LLM's mapping: moe_tp_size × moe_ep_size = tp_size; SGLang's
// --tp N --ep N). Two layouts:
//
//   carved  (the default when ep divides dp and moe_tp is 0 or tp): every expert is split over
//           the TP group (ETP = TP, Megatron-LM's default) and the EP groups are ep members of a
//           data-parallel group (dp's stride): ep replicas, each with its own T tokens, share
//           the experts (DeepSeek-style attention DP + EP when tp = 1).
//   folded  (otherwise): an expert group is etp · ep consecutive chips of the attention's
//           tp-cp-dp numbering: the ETP group innermost (stride 1), the EP group at stride etp.
//           moe_tp = 0 takes etp = tp / ep when ep < tp (TensorRT-LLM's default, moe_tp = tp /
//           moe_ep) and 1 otherwise (Megatron-Core's folding practice, SGLang's EP).
//
// Tokens. The tp chips of an attention group hold the same T tokens; cp and dp ranks hold
// others. An expert group spans D = max(1, etp·ep / tp) of those token sets, so it routes
// D·T tokens. With D = 1 (the experts inside one TP group: TensorRT-LLM's TEP, SGLang --tp 8
// --ep 8) every chip already has every token: no all-to-all; each chip runs its local experts
// on the tokens routed to them and the partial outputs join the TP all-reduce. With D > 1 the
// tokens go to their experts' chips by an all-to-all over EP; each chip sends a share etp/tp of
// its group's T tokens (the tp/etp EP members of one TP group split them; with SP that is the
// sequence shard each rank already holds; carved: all T, share 1). With etp > tp the ETP group
// spans etp/tp attention groups (SGLang's DP attention with the MoE tensor-parallel over the
// DP ranks): their tokens are all-gathered over it before the experts and the outputs
// reduce-scattered back after (SGLang dp_gather / dp_scatter), so each chip holds etp/tp · T.
#include <cstdint>

#include "parallel/parallelism.hpp"

namespace envelope {

struct ExpertLayout {
    int64_t etp = 1;             // expert tensor parallel: each expert's FFN split over etp chips
    int64_t ep = 1;              // experts spread over ep chips (experts / ep each)
    bool folded = false;         // EP × ETP folded over TP × CP × DP (else EP carved out of DP)
    int64_t token_sets = 1;      // D: attention token sets one expert group routes (T each)
    double dispatch_share = 1;   // of its attention group's T tokens, the share a chip dispatches
    int64_t expert_dp = 1;       // replicas of each expert: tp · cp · dp / (ep · etp)

    int64_t group() const { return etp * ep; }
    bool all_to_all() const { return ep > 1 && token_sets > 1; }
    // Attention groups an ETP group spans (> 1 only when etp > tp): gathered before the experts.
    int64_t gathered(int64_t tp) const { return folded && etp > tp ? etp / tp : 1; }
};

// Precondition for folded layouts: check_parallelism accepted p (etp · ep divides tp · cp · dp
// and is a multiple of tp; etp divides tp or is a multiple of it).
ExpertLayout expert_layout(const Parallelism& p);

}  // namespace envelope
