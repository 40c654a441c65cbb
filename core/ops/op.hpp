#pragma once
// An operator: what one kernel (or one collective) does on one chip.
//
// Ops are plain data. Lowering (ops/*.cpp) turns a model and a pass into a list of
// them; timing (perf/roofline.hpp) is a pure function of (op, chip, the spans of its
// group on the network). Every
// breakdown the tool shows is read from this one list.
#include <cstdint>

#include "common/affine.hpp"
#include "common/precision.hpp"
#include "network/collective_kind.hpp"
#include "parallel/parallelism.hpp"

namespace envelope {

enum class OpClass {
    matmul,      // GEMM on the matrix engine
    attention,   // fused attention (scores never leave the chip)
    vector,      // elementwise / reduction on the vector units
    lookup,      // gather (embedding rows)
    collective,  // communication between chips
    host,        // host-side time of the serving engine per forward pass (scheduling,
                 // sampling, synchronisation): no device work
};

// The problem size of a GEMM, C[m × n] = A[m × k] · B[k × n] (zero for other ops): what
// the realism layer needs to know how well the chip's GEMM kernels fill its compute units.
struct MatmulShape {
    double m = 0;
    double n = 0;
    double k = 0;
    // Independent GEMMs of this shape run as one grouped kernel (a mixture's experts): the
    // op's FLOPs and bytes are `groups` times one GEMM's, its fixed overhead paid once.
    double groups = 1;
};

// HBM traffic of one execution on one chip, split by what is moved. All affine in the
// decode context length L (constant for prefill).
struct Traffic {
    Affine weights_read;
    Affine kv_read;
    Affine activations_read;
    Affine activations_written;
    Affine kv_written;
    // KV cache read from the host's memory over the chip's host link (an offloaded cache), not
    // from HBM: timed on the link (perf/roofline.hpp), not counted in read() or total().
    Affine host_read;

    Affine read() const { return weights_read + kv_read + activations_read; }
    Affine written() const { return activations_written + kv_written; }
    Affine total() const { return read() + written(); }
};

// What the backward pass derives from an op (ops/backward.hpp).
enum class Backward {
    gradients,     // its input's gradient and, for a GEMM with a weight, the weight's
    input_only,    // a frozen weight (fine-tuning): the input's gradient, no weight gradient
    accumulate,    // as gradients, its input's gradient added into the one another op wrote (β = 1)
    identity,      // nothing: the gradient passes through unchanged, or is not needed
    repeat,        // the op runs again (QLoRA's dequantization before the input gradient reading it)
    dropout_mask,  // a dropout: the gradient times the saved 1-byte mask, not the dropped values
    softmax_loss,  // a softmax cross-entropy: the saved softmax is the gradient, scaled in place
    regather,      // context parallelism's K/V all-gather: gathered again, then its gradients reduce-scattered
};

// Which of a training step's or a serving loop's passes an op belongs to. The result's
// "variant" of an op is spelled by op_variant_name.
enum class OpVariant {
    forward,    // the forward pass (or an inference step)
    recompute,  // the forward again before the backward (activation recomputation)
    dgrad,      // a GEMM's input gradient
    wgrad,      // a GEMM's weight gradient (what a zero-bubble schedule defers)
    backward,   // any other op's backward
    chunk,      // a chunk of a prompt prefilled beside decode (chunked prefill)
    draft,      // the draft model or head of speculative decoding
};

// The one spelling of each variant ("" for the forward pass, which the result leaves out).
constexpr const char* op_variant_name(OpVariant v) {
    switch (v) {
        case OpVariant::forward: return "";
        case OpVariant::recompute: return "recompute";
        case OpVariant::dgrad: return "dgrad";
        case OpVariant::wgrad: return "wgrad";
        case OpVariant::backward: return "backward";
        case OpVariant::chunk: return "chunk";
        case OpVariant::draft: return "draft";
    }
    return "";
}

// What an op is to the steps that treat parts of a layer apart; behaviour is keyed to this,
// never to an op's name.
enum class OpRole {
    other,
    // The attention core between the QKV and output projections: the fused kernel, or
    // unfused Q·Kᵀ, softmax, dropout and P·V. Selective recomputation replays these
    // (Korthikanti et al. 2022 §5); their matrix kernels are what a CP ring hides behind.
    attention_core,
};

struct Op {
    const char* name = "";        // stable identifier, e.g. "qkv_proj"
    OpVariant variant = OpVariant::forward;
    OpRole role = OpRole::other;
    OpClass cls = OpClass::vector;
    Precision precision = Precision::bf16;  // format the math runs in (selects the peak)
    double count = 1;             // executions per forward pass (layers for per-layer ops)
    bool layer = false;           // part of a decoder layer (not the embedding, head or hand-off)
    Affine flops;                 // per execution, per chip
    // Work on the vector units beside a matmul's tensor FLOPs: dequantizing weights stored
    // narrower than the GEMM's format (ops/builders.hpp).
    Affine vector_flops;
    Traffic traffic;              // per execution, per chip
    Backward backward = Backward::gradients;
    MatmulShape shape;            // matmul ops: the GEMM's dimensions
    CollectiveKind collective = CollectiveKind::none;
    Affine message_bytes;         // collectives: size of the full buffer on each chip
    ParallelDim dim = ParallelDim::tp;  // collectives: whose groups run it (placement)
    int64_t group = 1;            // collectives: chips taking part
    // Decode ops of a sliding-window layer: the terms affine in the context L stop growing
    // at L = context_cap (they see min(L, cap) tokens). 0: no cap.
    int64_t context_cap = 0;
    // Fused attention: the FLOPs of one key for every query row of its kernel calls (a row per
    // query token and head, once per call it goes through). The chip prices each row's fixed
    // work in keys (perf/realism.hpp attention_row_work_flops).
    double row_flops = 0;
};

}  // namespace envelope
