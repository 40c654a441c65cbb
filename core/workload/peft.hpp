#pragma once
// Parameter-efficient fine-tuning: the base model frozen, small trained adapters beside some of
// its weight matrices (METHODOLOGY.md §39).
//
// LoRA (Hu et al. 2021, arXiv:2106.09685 §4.1): beside a frozen W [k × n], y = x·W + (α/r)·x·A·B
// with A [k × r] and B [r × n] trained; α only scales, it costs nothing.
// QLoRA (Dettmers et al. 2023, arXiv:2305.14314 §3): LoRA over a base stored in 4-bit NormalFloat
// (NF4, blocks of 64 with an absmax constant each), dequantized to bf16 for every GEMM that reads
// it; double quantization stores the constants in 8 bits (blocks of 256, one fp32 constant each).
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "common/spelling.hpp"

namespace envelope {

enum class PeftMethod { none, lora, qlora };

// The format the frozen base weights are stored in.
enum class BaseFormat { bf16, fp16, fp8, fp4, nf4 };

// The matrices of a layer an adapter can sit beside. Hugging Face PEFT names separate q/k/v and
// gate/up projections (one adapter each); Megatron-Core / NeMo fuse them (linear_qkv,
// linear_fc1: one adapter over the fused matrix).
enum class LoraTarget { q, k, v, qkv, out, gate, up, gate_up, down };

// The one table of their spellings (the first of a target's names is the one written back).
inline constexpr Spelling<LoraTarget> kLoraTargetNames[] = {
    {LoraTarget::q, "q_proj"},          {LoraTarget::k, "k_proj"},         {LoraTarget::v, "v_proj"},
    {LoraTarget::qkv, "linear_qkv"},    {LoraTarget::out, "o_proj"},       {LoraTarget::out, "linear_proj"},
    {LoraTarget::gate, "gate_proj"},    {LoraTarget::up, "up_proj"},       {LoraTarget::gate_up, "linear_fc1"},
    {LoraTarget::down, "down_proj"},    {LoraTarget::down, "linear_fc2"},
};

// The spellings of the methods and base formats (PeftMethod::none has none: the field is absent).
inline constexpr Spelling<PeftMethod> kPeftMethodNames[] = {{PeftMethod::lora, "lora"}, {PeftMethod::qlora, "qlora"}};
inline constexpr Spelling<BaseFormat> kBaseFormatNames[] = {{BaseFormat::bf16, "bf16"},
                                                            {BaseFormat::fp16, "fp16"},
                                                            {BaseFormat::fp8, "fp8"},
                                                            {BaseFormat::fp4, "fp4"},
                                                            {BaseFormat::nf4, "nf4"}};

struct Peft {
    PeftMethod method = PeftMethod::none;
    int64_t rank = 0;          // r
    double alpha = 0;          // the adapters' scale α/r; 0: not stated (α = r)
    double dropout = 0;        // dropout on each adapter's input (Hu et al.'s lora_dropout)
    std::vector<LoraTarget> targets;
    BaseFormat base = BaseFormat::bf16;
    bool double_quantization = true;  // QLoRA's quantized quantization constants

    bool on() const { return method != PeftMethod::none; }
    bool targets_any(std::initializer_list<LoraTarget> ts) const {
        for (LoraTarget t : targets) {
            for (LoraTarget u : ts) {
                if (t == u) return true;
            }
        }
        return false;
    }
};

}  // namespace envelope
