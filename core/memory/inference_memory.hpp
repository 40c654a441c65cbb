#pragma once
// Memory one chip of one pipeline stage needs to serve an inference workload.
#include <cstdint>
#include <vector>

#include "engine/engine.hpp"
#include "hardware/chip.hpp"
#include "model/model.hpp"
#include "ops/op.hpp"
#include "parallel/parallelism.hpp"
#include "parallel/stages.hpp"
#include "workload/inference.hpp"

namespace envelope {

struct InferenceMemory {
    int64_t stage = 0;          // the pipeline stage these numbers are for
    double weights_bytes = 0;
    double kv_cache_bytes = 0;
    double activation_bytes = 0;
    double total_bytes = 0;
    double capacity_bytes = 0;
    bool fits = true;           // fits_in_memory below
    // What the engine gives the KV cache (kv_budget_bytes below). A batch the engine
    // admits has kv ≤ budget.
    double kv_budget_bytes = 0;
    double host_kv_bytes = 0;   // the offloaded share of the KV cache, in the host's memory
};

// Everything the memory of one stage depends on besides its lowered operators.
struct StageMemoryInput {
    const Model& model;
    const Stage& stage;
    const Parallelism& parallelism;
    const InferenceWorkload& workload;
    const Engine& engine;
    const Chip& chip;
    int64_t micro_batch = 1;    // sequences per micro-batch (activations are one micro-batch's)
};

// weights    = the stage's parameters per chip (model/params.hpp) × bytes per weight:
//              its layers, plus the embedding on the first stage and the final norm and
//              LM head on the last (with tied embeddings and several stages, the last
//              keeps its own copy of the embedding as the LM head, as Megatron-LM does)
// kv_cache   = Σ over the stage's layers of 2 (K and V) · kv_heads_per_chip · head_dim
//              · bytes per KV element · batch · (input + output tokens): the cache an
//              engine reserves for the longest context the generation reaches, for every
//              micro-batch of the replica
// activation = the peak working set of one step of one micro-batch: the residual stream
//              [T × h] (T/tp under SP) kept across a layer plus the largest single-op
//              working set (activation inputs + outputs), for a prefill chunk (T = the
//              engine's prefill token budget, or every prompt token when it has none) or
//              a decode step at the longest context, whichever is larger. One layer's
//              activations are live at a time in inference.
// The KV cache budget per chip under the engine's rule (engine/engine.hpp, METHODOLOGY.md
// §16.3): f · (C − W − A) of the free memory, or f · C − W − A − R of the total memory
// (f · C − W − max(A, R) when the reserve holds the activations), at least 0.
// replica_chips = tp · pp, for the reserve's per-chip part.
double kv_budget_bytes(const Engine& e, double capacity, double weights, double activations, int64_t replica_chips);

// The one verdict of "does it fit" (memory.fits, the fit answer, the largest batch): the whole
// within the chip's memory and the KV cache within the engine's budget, so that the memory the
// engine keeps for itself (its memory fraction, the runtime reserve) is never counted as free.
bool fits_in_memory(const InferenceMemory& m);

// The KV cache elements one request keeps on one chip of the stage at TP degree tp: Σ over
// its layers of the cache width per chip (layer_shard.hpp) × the tokens kept (input +
// output, or a sliding window's), plus a state per beam for Mamba layers. kv_cache above is
// this × bytes per KV element × batch; output_tokens = 0 gives the prompt's cache alone.
double kv_cache_elements(const Model& m, const Stage& stage, int64_t tp, const InferenceWorkload& w);

InferenceMemory inference_memory(const StageMemoryInput& in, const std::vector<Op>& prefill_ops,
                                 const std::vector<Op>& decode_ops);

}  // namespace envelope
