#pragma once
// What an inference evaluation returns: headline numbers, a per-operator breakdown of
// each phase, memory per chip, and warnings. SI units throughout.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "memory/inference_memory.hpp"
#include "ops/op.hpp"
#include "perf/roofline.hpp"

namespace envelope {

struct OpReport {
    const char* name = "";
    OpClass cls = OpClass::vector;
    Precision precision = Precision::bf16;
    double count = 1;           // executions per forward pass (layers for per-layer ops)
    // One execution on one chip; for decode, the mean over the generation's steps.
    double flops = 0;
    double bytes_read = 0;
    double bytes_written = 0;
    double network_bytes = 0;   // collectives: buffer size per chip
    double time_s = 0;
    // The whole phase: count × every step.
    double total_time_s = 0;
    Bound bound = Bound::memory;  // the roof binding for most of the op's time
};

struct PhaseReport {
    int64_t steps = 0;          // forward passes (1 for prefill, output − 1 for decode);
                                // no ops are listed when there are no steps
    double time_s = 0;          // all steps
    double flops = 0;           // all steps, per chip
    double bytes = 0;           // HBM bytes read + written, all steps, per chip
    std::vector<OpReport> ops;
};

struct InferenceSummary {
    int64_t chips = 1;                     // chips one replica uses (TP)
    double params = 0;                     // whole-model parameter count
    double ttft_s = 0;                     // prefill incl. the first token's logits
    std::optional<double> tpot_s;          // mean time per output token after the first;
                                           // none when only one token is generated
    double e2e_latency_s = 0;              // ttft + all decode steps
    double output_tokens_per_s = 0;        // batch · output / e2e
    double output_tokens_per_s_per_chip = 0;
    double prefill_tokens_per_s = 0;       // batch · input / ttft
};

// How far measured runs of the same kind fell from the model (validation/error_band.hpp),
// as ratios on the predicted time; zero cases: no band.
struct ResultErrorBand {
    double low = 1, high = 1;
    int cases = 0;
};
struct ResultErrorBands {
    double coverage = 0;
    ResultErrorBand ttft;
    ResultErrorBand generation;
};

struct InferenceResult {
    InferenceSummary summary;   // expected: with the realism layer (perf/realism.hpp)
    InferenceSummary roofline;  // the bound: what the hardware allows (perf/roofline.hpp)
    PhaseReport prefill;
    PhaseReport decode;
    InferenceMemory memory;
    std::vector<std::string> warnings;
    ResultErrorBands error_bands;  // filled by the API (api.cpp), not by the evaluator
};

}  // namespace envelope
