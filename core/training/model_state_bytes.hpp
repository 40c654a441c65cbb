#pragma once
// Bytes per parameter of mixed-precision training with Adam (Micikevicius et al. 2018;
// Rajbhandari et al. 2020, ZeRO §3.1: 2Ψ weights + 2Ψ gradients + KΨ optimizer state with
// K = 12, here with fp32 main gradients as Megatron-LM's gradient_accumulation_fusion keeps
// them). The one definition the memory count (memory/training_memory.hpp), the optimizer
// step's time (training/step.hpp) and the offload times (training/offload.hpp) read.
namespace envelope::model_state_bytes {

inline constexpr double kWeight = 2;        // the 16-bit weight the GEMMs read
inline constexpr double kGradient16 = 2;    // a 16-bit gradient (before an offloaded optimizer copies it out)
inline constexpr double kMainGradient = 4;  // the fp32 main gradient the backward accumulates into
inline constexpr double kOptimizer = 12;    // fp32 master weight, first and second moments (4 B each)

// ZeRO-Offload's host copy per parameter: the fp32 optimizer state and the fp32 gradient it
// steps from (METHODOLOGY.md §30.1).
inline constexpr double kHostState = kOptimizer + kMainGradient;  // 16

// Adam's HBM (or host memory) traffic per parameter of a shard in one step: read the fp32
// gradient, master weight, m and v; write master, m, v and the 16-bit weight.
inline constexpr double kAdamStepTraffic = kMainGradient + kOptimizer + kOptimizer + kWeight;  // 30

}  // namespace envelope::model_state_bytes
