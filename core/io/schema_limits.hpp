#pragma once
// The allowed ranges of the scenario schema: wide enough for any real or hypothetical
// design, narrow enough that products of them stay finite in doubles.
#include <cstdint>

namespace envelope::limits {

constexpr int64_t kMaxLayers = 1000;
constexpr int64_t kMaxWidth = 10'000'000;      // hidden, ffn, head_dim
constexpr int64_t kMaxHeads = 100'000;
constexpr int64_t kMaxVocab = 100'000'000;
constexpr int64_t kMaxTokens = 100'000'000;    // input, output, max_seq_len
constexpr int64_t kMaxBatch = 10'000'000;
constexpr int64_t kMaxChips = 10'000'000;
constexpr int64_t kMaxAdapterRank = kMaxWidth;  // workload.peft.rank; the model's widths bound it further
constexpr double kTiny = 1e-9;                 // lower bound for "must be positive" reals


}  // namespace envelope::limits
