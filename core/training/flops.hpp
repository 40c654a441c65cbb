#pragma once
// FLOPs of one training step, by the conventions published numbers use. Per token and
// layer, forward + backward (Narayanan et al. 2021 §5.1; Megatron-LM
// num_floating_point_operations, generalised to GQA and gated MLPs):
//   linear     6 · [h·(q + 2·kv) + q·h + h·f·(3 gated | 2)], for a mixture of experts with
//              f = (top_k + shared_experts)·expert_ffn and the router's h·experts added
//   attention  12 · q · s       (QKᵀ and P·V over the whole sequence, the causal mask not
//                                halved: the convention of Korthikanti et al. 2022 eq. 7,
//                                PaLM and FlashAttention-2's MFU tables)
//   logits     6 · h · V        (once per model)
// Model FLOPs (MFU) count these. Hardware FLOPs (HFU; Narayanan et al. 2021 count them in
// their TFLOP/s) are what the kernels run: the attention term over the keys a query actually
// meets (FlashAttention skips the causal mask's blocks: (s + 1)/2 keys on average, within a
// window its pairs over s; an unfused kernel computes all s), and what recomputation runs
// again: full recompute one more forward of every layer, selective the attention core's.
// Fine-tuning (workload.peft): the frozen matrices and the logits 4 (forward and input
// gradient, no weight gradient), attention its 12 · q · s, the adapters 6 · r·(k + n) each
// (METHODOLOGY.md §39.4; NeMo AutoModel's benchmark counts full training × (2 + trainable/frozen)/3,
// its attention's backward at ⅔ too).
#include "model/model.hpp"
#include "workload/training.hpp"

namespace envelope {

struct TrainingFlops {
    double model = 0;     // per step, whole job
    double hardware = 0;  // with recomputation
};

TrainingFlops training_flops(const Model& m, const TrainingWorkload& w);

}  // namespace envelope
