#pragma once
// Inference of a static batch on each data-parallel replica: prefill all prompts together,
// then decode one token per sequence per step until every sequence has `output_tokens`.
#include <vector>

#include "result.hpp"
#include "scenario.hpp"

namespace envelope {

// Precondition: check_scenario(s) passed (core/check.hpp).
//
// One replica is tp · pp chips; its batch runs as m micro-batches (parallelism.
// micro_batches, default pp) through the pp stages. With t_i one micro-batch's pass on
// stage i (its ops one after another, the hand-off to stage i+1 included):
//   TTFT   = Σ_i t_i + (m − 1) · max_i t_i        (the last micro-batch's first token)
//   decode = max( Σ_i D_i , m · max_i D_i ),  D_i = Σ over steps k = 1 … output−1 of
//            t_i at context L = input + k (summed exactly, perf/context_sum.hpp): a token
//            must pass every stage before its sequence's next one starts, and the
//            busiest stage serves all m micro-batches each step. Taking the max after
//            the sums assumes the binding term does not change during the generation.
//   TPOT   = decode / (output − 1)
//   E2E    = TTFT + decode;   output tokens/s = dp · batch · output / E2E
// With pp = 1 and m = 1 these are the plain sums of the ops' times.
Result evaluate_inference(const Scenario& s);

// Only the memory part of evaluate_inference (no timing): one entry per pipeline stage.
std::vector<InferenceMemory> inference_memory_of(const Scenario& s);

}  // namespace envelope
