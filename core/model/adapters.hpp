#pragma once
// The LoRA adapters of a fine-tuning run on one chip (workload/peft.hpp), read off the layer's
// shapes (model/layer_shard.hpp): the one definition the parameter counts, the memory, the
// data-parallel traffic and the lowering to operators (ops/lora.cpp) all read.
//
// Beside a frozen W [k × n] on a chip, an adapter is A [k × r] and B [r × n]: r·(k + n)
// parameters (Hu et al. 2021 §4.1). Under tensor parallelism each adapter follows its base
// matrix's split: a column-parallel W (QKV, gate/up) keeps A whole and splits B by columns, a
// row-parallel W (out, down) splits A by rows and keeps B whole (NeMo's ParallelLinearAdapter).
// The separate q/k/v (gate/up) adapters of Hugging Face PEFT each have an A of their own over the
// layer's input; Megatron's linear_qkv (linear_fc1) one over the fused matrix.
#include <optional>
#include <vector>

#include "common/precision.hpp"
#include "model/layer_shard.hpp"
#include "model/model.hpp"
#include "model/params.hpp"
#include "workload/peft.hpp"

namespace envelope {

struct Adapter {
    LoraTarget target = LoraTarget::qkv;
    double k = 0;  // A [k × r]: the base matrix's input width on this chip
    double n = 0;  // B [r × n]: its output width on this chip
};

// The adapters of one layer of this shard, in the order of the layer's GEMMs. Precondition:
// the targets exist in the layer (training/check.cpp).
std::vector<Adapter> layer_adapters(const LayerShard& s, const Peft& p);

// r·(k + n) over the adapters.
double adapter_params(const std::vector<Adapter>& adapters, int64_t rank);

// Adapter parameters of a slice of the model's layers on one chip.
double slice_adapter_params(const Model& m, const std::vector<LayerGroup>& groups, const Peft& p, int64_t tp,
                            int64_t ep = 1, int64_t etp = 0);

// Bytes of one base weight in its stored format: bf16/fp16 2, fp8 1, fp4 ½ (as every other
// weight of that format, common/precision.hpp); NF4 (Dettmers et al. 2023 §3) 4 bits plus a
// 32-bit absmax per block of 64, 4.5 bits, or with double quantization an 8-bit constant per 64
// and a 32-bit one per 256 of those: 4 + 8/64 + 32/(64·256) = 4.127 bits.
double base_bytes_per_param(const Peft& p);

// The format a base format is read in by the GEMMs when it is one (nf4 is not: it is
// dequantized to bf16 first).
std::optional<Precision> base_precision(BaseFormat f);

// The stored bytes of the frozen weights of a slice: the layers' matrices (attention, MLP,
// router, experts) in the base format, the norms, embedding and LM head in 16 bits (QLoRA
// quantizes the linear layers only; Transformer Engine's fp8/fp4 the layers' GEMMs only).
double frozen_weight_bytes(const ParamCount& c, const Peft& p);

}  // namespace envelope
