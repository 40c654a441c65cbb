#pragma once
// Inference of a static batch: prefill all prompts together, then decode one token
// per sequence per step until every sequence has `output_tokens` tokens.
#include "inference/result.hpp"
#include "scenario.hpp"

namespace envelope {

// Precondition: check_inference(s) passed (the JSON parser calls it).
//
//   TTFT   = time of the prefill pass (all layers, embedding, LM head on the last token)
//   decode = Σ over steps k = 1 … output−1 of one decode pass at context L = input + k
//            (summed exactly, perf/context_sum.hpp)
//   TPOT   = decode / (output − 1)
//   E2E    = TTFT + decode;   output tokens/s = batch · output / E2E
//
// Ops within a pass run one after another (no compute/communication overlap), the
// common behaviour of inference engines for TP all-reduces on the critical path.
InferenceResult evaluate_inference(const Scenario& s);

// Only the memory part of evaluate_inference (no timing).
InferenceMemory inference_memory_of(const Scenario& s);

}  // namespace envelope
