#pragma once
// Memory one chip of one pipeline stage needs to train: the model state and the
// activations the micro-batches in flight keep for their backward pass.
#include <cstdint>
#include <string>
#include <vector>

#include "hardware/chip.hpp"
#include "model/model.hpp"
#include "parallel/parallelism.hpp"
#include "parallel/stages.hpp"
#include "workload/training.hpp"

namespace envelope {

struct TrainingMemory {
    int64_t stage = 0;
    double weights_bytes = 0;
    double gradient_bytes = 0;
    double optimizer_bytes = 0;
    double activation_bytes = 0;     // all micro-batches in flight
    double activations_per_micro_batch = 0;
    double in_flight = 0;            // micro-batches (or their equivalent) whose activations are held
    double total_bytes = 0;
    double capacity_bytes = 0;
    bool fits = true;
    // Model state offloaded to the host's memory (NVMe-resident state is not counted here).
    double host_bytes = 0;
    double host_capacity_bytes = 0;
    bool host_fits = true;
};

// A change of the scenario that makes a step fit (training/fit_advice.hpp).
struct Setting {
    std::string field;  // a scenario field, as in error paths ("parallelism.zero")
    std::string value;  // its new value, as JSON text ("3", "\"full\"")
};

struct FitAdvice {
    std::vector<Setting> settings;  // one change (two fields when chips move from DP to PP or TP)
    double peak_bytes = 0;          // the largest stage's memory per chip with the change
    double capacity_bytes = 0;
};

struct TrainingMemoryInput {
    const Model& model;
    const Stage& stage;
    const Parallelism& parallelism;
    const TrainingWorkload& workload;
    const Chip& chip;
    int64_t micro_batches = 1;   // per step (gradient accumulation)
    double host_memory_gb = 0;   // the host memory per chip (system.host), for offload
};

// Model state per chip, with Ψ the stage's parameters on one chip (model/params.hpp) and d
// the data-parallel degree (Rajbhandari et al. 2020 §5; Megatron-LM's distributed
// optimizer, docs/user-guide/features/dist_optimizer.md; d counts the CP chips too, which
// hold the same parameters):
//   weights     2·Ψ (bf16/fp16), ZeRO-3: 2·Ψ/d plus two layers gathered
//   gradients   4·Ψ fp32 main gradients, ZeRO-2 and 3: 4·Ψ/d
//   optimizer   Adam: fp32 master weights, m and v, 12·Ψ, ZeRO-1 and up: 12·Ψ/d
// Offloaded (ZeRO-Offload, Ren et al. 2021 §4; ZeRO-Infinity, Rajbhandari et al. 2021 §5):
//   optimizer   none on the chip; gradients stay 16-bit there until copied out: 2·Ψ/d
//               (ZeRO-2 and 3) or 2·Ψ; the host holds 12·Ψ/d of states and 4·Ψ/d of fp32
//               gradients (on "nvme": only the transfer buffers, not counted)
//   parameters  (ZeRO-3) only the two gathered layers stay: 2·2·(largest layer); the host
//               holds the 2·Ψ/d shard
// Activations per layer and micro-batch (Korthikanti et al. 2022 §4, generalised to GQA,
// gated MLPs and FlashAttention; T = b·s/cp tokens on the chip, t = TP, β = 2 bytes, the
// sequence-parallel parts ÷ t under SP):
//   attention  β·T·h (QKV input) + β·T·(q + 2kv)/t (Q, K, V) + β·T·q/t (its output)
//              + FlashAttention: 4·T·a/t (fp32 row statistics) | unfused: 2·a·s·T/t (the
//              softmax output), 5·a·s·T/t with dropout (its mask and output too)
//   MLP        β·T·h (input) + β·T·f·(2 gated | 1)/t (up/gate outputs) + β·T·f/t (down input);
//              a mixture adds, for its T·k routed copies, β·T·k·h in and out of the experts and
//              the experts' up outputs and activations as above (f the expert width)
//   norms      2 · β·T·h;     dropout masks (when kept): 2·T·h
// selective recompute drops the attention core's saved scores (nothing more with
// FlashAttention); full recompute keeps each layer's input (β·T·h, ÷ t under SP) and one
// layer's whole set while it recomputes. Micro-batches in flight on stage i of p
// (Korthikanti et al. 2022 §4.2.3): 1F1B min(p − i, m); interleaved with v chunks
// (p − i) + (p − 1)/v; GPipe m; ZB-H1 as 1F1B. The last stage adds the fp32 logits of one micro-batch
// (4·T·V/t).
// Fine-tuning (workload.peft, METHODOLOGY.md §39.3): the frozen base in its stored format,
// gradients and optimizer state of the adapters only, and no saved inputs for frozen GEMMs.
TrainingMemory training_memory(const TrainingMemoryInput& in);

}  // namespace envelope
