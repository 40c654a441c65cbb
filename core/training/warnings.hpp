#pragma once
// What a training result warns about (METHODOLOGY.md §33): it does not fit (naming the stage,
// its largest part and the smallest change that fits), idle chips, a grown fabric, a sequence
// beyond the model's context, and settings that cost without helping or that Megatron-LM
// refuses: selective recomputation under FlashAttention, interleaved-schedule layouts, an MFU
// above 100 % by the convention's count.
#include <optional>
#include <string>
#include <vector>

#include "memory/training_memory.hpp"
#include "result.hpp"
#include "scenario.hpp"
#include "training/fit_advice.hpp"

namespace envelope {

void add_training_warnings(const Scenario& s, const TrainingSummary& summary, const std::vector<TrainingMemory>& memory,
                           const std::optional<FitAdvice>& advice, std::vector<std::string>& out);

}  // namespace envelope
