#pragma once
// "Does it fit?" for inference, and the throughput–latency curve: answers that take many
// evaluations of one scenario, so they are their own calls (api.hpp), not part of evaluate.
#include <cstdint>
#include <optional>
#include <vector>

#include "scenario.hpp"

namespace envelope {

// The same layout with 8-bit formats in place of wider ones: the KV cache alone, then the
// weights too (weight-only where the activations stay wider: the memory is the same).
struct LowerPrecisionFit {
    Precision weights = Precision::bf16;
    Precision kv_cache = Precision::bf16;
    bool fits = false;
    int64_t largest_batch = 0;
};

struct InferenceFit {
    bool fits = false;                  // the scenario as given: every stage within capacity
    int64_t largest_batch = 0;          // the engine admits it (KV within budget); 0: not one sequence
    int64_t longest_context = 0;        // input + output tokens one batch of `batch` sequences can hold; 0: none
    // The fewest chips that hold the scenario's batch, doubling TP (up to the chips of the
    // innermost network level), then PP; nullopt when none does within the system.
    std::optional<Parallelism> fewest_chips;
    // When the scenario does not fit: fp8 KV cache, then fp8 weights and KV cache, each only
    // where it narrows a format wider than 8 bits (empty when it fits or nothing narrows).
    std::vector<LowerPrecisionFit> lower_precision;
};

// Bisections over the memory model (tens of memory evaluations).
InferenceFit inference_fit(const Scenario& s);

struct CurvePoint {
    int64_t batch = 1;                  // concurrent sequences per replica
    double output_tokens_per_s_per_chip = 0;
    double output_tokens_per_s_per_user = 0;  // 1 / TPOT (0 when one token is generated)
    double ttft_s = 0;
    double tpot_s = 0;
    bool fits = true;
};

// Throughput against per-user speed as the batch (or the concurrency, in that mode) grows:
// up to `points` batches spaced geometrically from 1 to the largest that fits (at least the
// scenario's own, at most 4096), each a whole evaluation (a sweep over the batch,
// explore/sweep.hpp); the scenario's batch is always one of them.
std::vector<CurvePoint> throughput_latency_curve(const Scenario& s, int points = 64);

}  // namespace envelope
