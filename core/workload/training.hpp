#pragma once
// A training workload: one optimizer step over a global batch of sequences, split into
// micro-batches (gradient accumulation: global batch = micro-batch × micro-batches × DP),
// and the framework choices that change its time and memory (Megatron-LM's names where it
// has them).
#include <cstdint>

#include "common/precision.hpp"
#include "workload/peft.hpp"

namespace envelope {

// Activations kept for the backward pass or recomputed (Korthikanti et al. 2022):
// none; the attention core recomputed (selective); every layer recomputed from its input
// (full).
enum class Recompute { none, selective, full };

// Where ZeRO-Offload / ZeRO-Infinity keep a model state instead of the chip's memory.
enum class OffloadTarget { none, cpu, nvme };

struct Offload {
    OffloadTarget optimizer = OffloadTarget::none;   // Adam states, fp32 master weights and gradients
    OffloadTarget parameters = OffloadTarget::none;  // the 16-bit parameter shards (ZeRO-3 only)
    bool any() const { return optimizer != OffloadTarget::none || parameters != OffloadTarget::none; }
};

struct TrainingWorkload {
    int64_t seq_len = 1;        // tokens per sequence
    int64_t global_batch = 1;   // sequences per optimizer step, all replicas together
    int64_t micro_batch = 1;    // sequences per micro-batch on one replica
    Recompute recompute = Recompute::none;
    Precision precision = Precision::bf16;   // the GEMMs' inputs (fp8: Transformer Engine recipes)
    bool flash_attention = true;
    bool dropout = false;       // dropout masks kept for backward (GPT-3-era recipes; 0 today)

    // Overlap of communication with compute (Megatron-LM DistributedDataParallelConfig and
    // ModelParallelConfig): the gradient reduce-scatter/all-reduce with the backward pass,
    // the distributed optimizer's parameter all-gather with the next forward pass, TP
    // collectives with the GEMMs beside them (Transformer Engine userbuffers).
    bool overlap_grad_reduce = true;
    bool overlap_param_gather = true;
    bool tp_comm_overlap = false;

    Offload offload;

    // Parameter-efficient fine-tuning (LoRA, QLoRA); method none: every weight trains.
    Peft peft;

    // Tokens to train on, for the time and chip-hours of a whole run; 0: not asked.
    double train_tokens = 0;
};

}  // namespace envelope
