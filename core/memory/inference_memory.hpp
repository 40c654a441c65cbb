#pragma once
// Memory one chip needs to serve an inference workload.
#include <vector>

#include "ops/op.hpp"
#include "scenario.hpp"

namespace envelope {

struct InferenceMemory {
    double weights_bytes = 0;
    double kv_cache_bytes = 0;
    double activation_bytes = 0;
    double total_bytes = 0;
    double capacity_bytes = 0;
    bool fits = true;
    // What the engine gives the KV cache: its fraction of the memory left after weights
    // and activations (engine/engine.hpp). A batch the engine admits has kv ≤ budget.
    double kv_budget_bytes = 0;
};

// weights    = parameters per chip (model/params.hpp) × bytes per weight
// kv_cache   = 2 (K and V) · layers · kv_heads_per_chip · head_dim · bytes per KV element
//              · batch · (input + output tokens) — the cache an engine reserves for the
//              longest context the generation reaches
// activation = the peak working set of one step: the residual stream [T × h] kept
//              across a layer plus the largest single-op working set (activation inputs
//              + outputs), for a prefill chunk (T = the engine's prefill token budget, or
//              every prompt token when it has none) or a decode step at the longest
//              context, whichever is larger. One layer's activations are live at a time in
//              inference.
InferenceMemory inference_memory(const Scenario& s, const std::vector<Op>& prefill_ops,
                                 const std::vector<Op>& decode_ops);

}  // namespace envelope
