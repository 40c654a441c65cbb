#pragma once
// Parameter counts of a decoder-only transformer, whole or per chip, read off the layer
// shapes (model/layer_shard.hpp).
#include <cstdint>
#include <vector>

#include "model/model.hpp"

namespace envelope {

struct ParamCount {
    // All layers' token mixers: attention (Wq, Wk, Wv, Wo or MLA's projections, + biases) or
    // Mamba (its in, x, dt and out projections and its per-channel vectors).
    double mixer = 0;
    double mlp = 0;         // all layers: up (+ gate), down (+ biases); a mixture's shared experts
    double router = 0;      // mixture-of-experts layers: the router
    double experts = 0;     // mixture-of-experts layers: the routed experts on this chip
    double norms = 0;       // all layers: their norms (one in a block that is only its mixer)
    double embedding = 0;   // token embedding (vocab × hidden)
    double lm_head = 0;     // output projection; 0 when tied to the embedding
    double final_norm = 0;

    double layers() const { return mixer + mlp + router + experts + norms; }
    double total() const { return layers() + embedding + lm_head + final_norm; }
};

// Parameters one chip holds under tensor parallelism of `tp`: the split matrices'
// shards, every norm vector and the row-parallel output biases whole, and 1/tp of the
// vocabulary (rounded up). tp = 1: the whole model.
//
// Positional embeddings are not counted: rotary ones have no parameters, and learned
// ones (max_seq_len × hidden) are < 0.1 % of any preset model.
ParamCount count_params(const Model& m, int64_t tp = 1);

// The same for a slice of the model (a pipeline stage): the given layer groups, with the
// embedding when `embedding`, the final norm and LM head when `head`. With tied embeddings
// a slice that has the head but not the embedding keeps its own copy of the matrix.
// ep: the expert-parallel degree a mixture's experts are spread over; etp: the chips each
// expert is split over (0: tp).
ParamCount count_slice_params(const Model& m, const std::vector<LayerGroup>& groups, bool embedding, bool head,
                              int64_t tp, int64_t ep = 1, int64_t etp = 0);

// Parameters a token passes through: a mixture counts top_k of its routed experts.
double active_params(const Model& m);

// The same for one layer group, all `count` of its layers.
ParamCount count_group_params(const LayerGroup& g, int64_t hidden, int64_t tp, int64_t ep = 1, int64_t etp = 0);

}  // namespace envelope
