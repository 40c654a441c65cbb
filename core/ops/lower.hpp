#pragma once
// Lowering: model + pass → the operators one chip executes.
#include <vector>

#include "engine/engine.hpp"
#include "model/model.hpp"
#include "ops/op.hpp"
#include "ops/pass.hpp"
#include "parallel/tensor_parallel.hpp"
#include "workload/inference.hpp"

namespace envelope {

// Everything a lowering function reads.
struct LowerInput {
    const Model& model;
    const TpShard& shard;
    const PrecisionPlan& precision;
    const Pass& pass;
    const Engine& engine;
    bool flash_attention = true;
};

// One dense decoder layer (pre-norm: norm → attention → residual → norm → MLP →
// residual), with `count` = model.layers. Appends to `out`.
void lower_dense_layer(const LowerInput& in, std::vector<Op>& out);

// Once-per-model work before the first layer (embedding) ...
void lower_model_head(const LowerInput& in, std::vector<Op>& out);
// ... and after the last (final norm, LM head for the tokens that need logits).
void lower_model_tail(const LowerInput& in, std::vector<Op>& out);

// The engine's host time for one forward pass (an op of class host).
void lower_engine_step(const LowerInput& in, std::vector<Op>& out);

// The whole forward pass, in execution order.
std::vector<Op> lower_forward(const LowerInput& in);

}  // namespace envelope
