#pragma once
// Speculative decoding's drafter (workload/inference.hpp Speculative): which model drafts,
// and what it adds to a chip's memory. Its time is in inference/evaluate.cpp: per generated
// token, (t_verify(L) + k·t_draft(L)) / E summed over the contexts L, E the tokens a target
// pass yields.
#include "memory/inference_memory.hpp"
#include "scenario.hpp"

namespace envelope {

// The draft model: the workload's own, or one layer of the target's last group with the
// target's embedding and LM head (a multi-token-prediction head, DeepSeek-V3 §2.2).
Model drafter_of(const Scenario& s);

// The drafter's weights and KV cache, added to the chip's memory (pp = 1). A one-layer head
// shares the target's embedding and LM head: only its layer is added.
void add_drafter_memory(const Scenario& s, InferenceMemory& mem);

}  // namespace envelope
