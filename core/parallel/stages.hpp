#pragma once
// Pipeline stages: which layers each stage holds.
//
// `stage_layers` gives the split (uneven allowed); without it the layers are split as
// evenly as possible, the extra layers going to the stages before the last, counting back
// from it (the last stage also runs the LM head; vLLM's get_pp_indices in
// vllm/distributed/utils.py). A stage's layers are a slice of the model's layer groups.
#include <cstdint>
#include <vector>

#include "model/model.hpp"
#include "parallel/parallelism.hpp"

namespace envelope {

struct Stage {
    int64_t index = 0;
    bool first = true;            // runs the embedding
    bool last = true;             // runs the final norm and the LM head
    std::vector<LayerGroup> groups;  // its slice of the model's groups, in order

    int64_t layers() const {
        int64_t n = 0;
        for (const LayerGroup& g : groups) n += g.count;
        return n;
    }
};

// The stage's layers by kind: its groups of equal spec merged (counts added), in the order
// each kind first appears. An op's time is per execution × count, so lowering the kinds gives
// the same times as lowering every group, with ops that scale with the kinds, not the layers
// (a hybrid such as Jamba-v0.1 interleaves 3 kinds over 32 one-layer groups).
Stage by_layer_kind(const Stage& stage);

// Layers per stage. Precondition: pp ≤ layers, and stage_layers (when given) has pp
// entries ≥ 1 summing to the model's layers (checked with the scenario).
std::vector<int64_t> layers_per_stage(const Model& m, const Parallelism& p);

std::vector<Stage> split_stages(const Model& m, const Parallelism& p);

}  // namespace envelope
