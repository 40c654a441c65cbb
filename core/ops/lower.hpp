#pragma once
// Lowering: model + pass → the operators one chip of one pipeline stage executes.
#include <vector>

#include "engine/engine.hpp"
#include "model/layer_shard.hpp"
#include "model/model.hpp"
#include "ops/op.hpp"
#include "ops/pass.hpp"
#include "parallel/parallelism.hpp"
#include "parallel/stages.hpp"
#include "workload/inference.hpp"
#include "workload/peft.hpp"

namespace envelope {

// Bytes of one dropout mask element (torch's fused dropout keeps a bool per element).
inline constexpr double kDropoutMaskBytes = 1;

// Megatron-LM's vocabulary-parallel cross-entropy, per fp32 logit element (ops/model_ends.cpp):
// forward 5 fp32 reads and 4 fp32 writes besides the cast's read of the 16-bit logits;
// backward (ops/backward.cpp) the in-place product with the loss gradient (read 4, write 4)
// and the cast of the gradient back to the logits' format (read 4, write β_r).
inline constexpr double kCrossEntropyReadPasses = 5;
inline constexpr double kCrossEntropyWritePasses = 4;

// Everything a lowering function reads.
struct LowerInput {
    const Model& model;
    const Stage& stage;             // the layers (and ends of the model) this chip runs
    const Parallelism& parallelism; // tp and sp split each layer; pp adds the stage hand-off
    const PrecisionPlan& precision;
    const Pass& pass;               // one micro-batch
    const Engine& engine;
    bool flash_attention = true;
    // Training with dropout (attention and hidden, Megatron-LM's attention_dropout and
    // hidden_dropout): unfused attention gets a dropout kernel on its probabilities, and each
    // residual add (Megatron-LM's fused bias-dropout-add) writes a 1-byte mask.
    bool dropout = false;

    // Tokens of the residual stream on one chip: all of the pass's, or 1/tp of them under
    // sequence parallelism.
    double stream_tokens() const;
};

// The names a dense MLP's ops take (the layer's FFN, or a mixture's shared experts).
struct MlpNames {
    const char* gate;  // the gate projection when an engine runs it apart from the up one
    const char* act;
};

// A dense MLP on `tokens` tokens: up (and gate), activation, down, each op `count` times.
void lower_mlp(const LowerInput& in, bool gated, const MlpNames& names, const WeightMatrix& up,
               const WeightMatrix& down, double count, double tokens, std::vector<Op>& out);

// A mixture of experts in place of the MLP (ops/moe_layer.cpp).
void lower_moe(const LowerInput& in, const LayerSpec& layer, const LayerShard& shard, double count,
               std::vector<Op>& out);

// Causal (query, key) pairs per sequence and head in a pass, within a sliding window when
// window > 0 (ops/decoder_layer.cpp).
Affine causal_pairs(const Pass& p, int64_t window);

// Query rows of a fused-attention kernel per chip, `heads` a chip's query heads: one per
// query token and head, once per kernel call it goes through (ops/decoder_layer.cpp).
double attention_rows(const LowerInput& in, double heads);

// Multi-head latent attention up to (not including) the output projection, in place of the
// QKV projection and the attention core (ops/mla_attention.cpp).
void lower_mla_attention(const LowerInput& in, const AttentionSpec& spec, const LayerShard& shard, double count,
                         std::vector<Op>& out);

// A Mamba mixer up to (not including) its output projection (ops/mamba_layer.cpp).
void lower_mamba_mixer(const LowerInput& in, const MambaSpec& spec, const LayerShard& shard, double count,
                       std::vector<Op>& out);

// The `count` decoder layers of one group, sharded over TP (and EP), every kind: pre-norm,
// the token mixer (attention, MLA or Mamba) and its residual, then the feed-forward block (a
// dense MLP or a mixture of experts; none in a block that is only its mixer) and its
// residual. Appends to `out`.
void lower_layers(const LowerInput& in, const LayerGroup& group, std::vector<Op>& out);

// Once-per-model work before the first layer (embedding) ...
void lower_model_head(const LowerInput& in, std::vector<Op>& out);
// ... and after the last (final norm, LM head for the tokens that need logits).
void lower_model_tail(const LowerInput& in, std::vector<Op>& out);

// The engine's host time for one forward pass (an op of class host).
void lower_engine_step(const LowerInput& in, std::vector<Op>& out);

// The stage's whole forward pass, in execution order: the head on the first stage, its
// layer groups, the tail on the last, the hand-off of the activations to the next stage,
// and the engine's host time.
std::vector<Op> lower_forward(const LowerInput& in);

// Parameter-efficient fine-tuning of a stage's forward pass (ops/lora.cpp, METHODOLOGY.md §39):
// every weight GEMM frozen (its backward the input gradient only), the embedding too; with an
// NF4 base each layer GEMM dequantizes its weight first (again in the backward); each adapter
// of each layer its dropout (when set), x·A, ·B and the add into the base output.
void add_peft(const LowerInput& in, const Peft& p, std::vector<Op>& forward);

}  // namespace envelope
