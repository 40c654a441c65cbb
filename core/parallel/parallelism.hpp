#pragma once
// How a workload is spread over the chips: the degree of each parallel dimension and the
// order in which the dimensions map onto the network (Megatron-LM's "tp-cp-ep-dp-pp":
// tensor parallelism innermost, on the fastest level; pipeline stages outermost).
//
//   tp  tensor parallel (Megatron column/row split of every layer), with sp: the norms and
//       residual adds split over the sequence too (Korthikanti et al. 2022), all-reduces
//       become reduce-scatter + all-gather
//   cp  context parallel (the sequence split, attention's K/V passed round a ring)
//   ep  expert parallel (experts spread over ep chips: carved out of the data-parallel
//       group when ep divides dp, else folded over tp · cp · dp; parallel/expert_layout.hpp)
//   moe_tp  expert tensor parallel (each expert split over moe_tp chips; 0: the default of
//       expert_layout.hpp, tp when carved)
//   dp  data parallel: replicas (inference) or gradient all-reduce (training)
//   pp  pipeline stages, each a slice of the layers; virtual_stages > 1 interleaves
// Chips used = tp · cp · dp · pp (the experts' ep · moe_tp run on the same chips).
#include <array>
#include <cstdint>
#include <vector>

#include "common/spelling.hpp"

namespace envelope {

// etp: the expert tensor-parallel group of a folded expert layout whose experts span chips of
// different attention groups (parallel/expert_layout.hpp); it is not in `order` (it is innermost).
enum class ParallelDim { tp, cp, ep, dp, pp, etp };
inline constexpr std::size_t kOrderedDims = 5;   // the dimensions `order` lists
inline constexpr std::size_t kParallelDims = 6;
inline constexpr Spelling<ParallelDim> kParallelDimNames[] = {
    {ParallelDim::tp, "tp"}, {ParallelDim::cp, "cp"}, {ParallelDim::ep, "ep"},
    {ParallelDim::dp, "dp"}, {ParallelDim::pp, "pp"}, {ParallelDim::etp, "etp"},
};
inline const char* to_string(ParallelDim d) { return spelling_of(kParallelDimNames, d); }

// gpipe: all forwards, then all backwards; 1F1B (PipeDream-Flush); interleaved 1F1B with
// virtual stages; ZB-H1 (Qi et al. 2024, arXiv:2401.10241): 1F1B's memory, the weight
// gradients deferred into the bubble.
enum class PipelineSchedule { gpipe, one_f_one_b, interleaved_1f1b, zero_bubble };

struct Parallelism {
    int64_t tp = 1;
    bool sp = false;
    int64_t cp = 1;
    int64_t ep = 1;
    int64_t moe_tp = 0;             // expert tensor parallel; 0: expert_layout's default
    int64_t dp = 1;
    int64_t pp = 1;
    int64_t virtual_stages = 1;     // model chunks per pipeline stage (interleaving)
    int64_t micro_batches = 0;      // 0: the workload's default (inference: pp)
    PipelineSchedule schedule = PipelineSchedule::one_f_one_b;
    int zero = 0;                   // ZeRO stage 0..3 (training)
    // Innermost first: the first dimension gets consecutive chips.
    std::array<ParallelDim, kOrderedDims> order{ParallelDim::tp, ParallelDim::cp, ParallelDim::ep,
                                                 ParallelDim::dp, ParallelDim::pp};
    std::vector<int64_t> stage_layers;  // layers per pipeline stage; empty: as even as possible

    int64_t degree(ParallelDim d) const {
        switch (d) {
            case ParallelDim::tp: return tp;
            case ParallelDim::cp: return cp;
            case ParallelDim::ep: return ep;
            case ParallelDim::dp: return dp;
            case ParallelDim::pp: return pp;
            case ParallelDim::etp: return moe_tp;
        }
        return 1;
    }
    int64_t chips() const { return tp * cp * dp * pp; }
    int64_t chips_per_replica() const { return tp * cp * pp; }
};

}  // namespace envelope
