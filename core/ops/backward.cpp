// The backward pass of a stage, derived op by op from its forward pass: ops/backward.hpp.
#include "ops/backward.hpp"

#include "ops/builders.hpp"
#include "ops/elementwise_costs.hpp"
#include "ops/lower.hpp"

namespace envelope {

namespace {

// The format gradients flow in between ops (the residual format), and the format the
// weight gradients accumulate in: fp32 main gradients (Megatron-LM's
// gradient_accumulation_fusion; DeepSpeed's fp32 gradient partitions).
constexpr double kMainGradBytes = 4;

// C = A·B forward (A: [m × k] activations, B: [k × n] weights). Backward:
//   dgrad  dA = dC · Bᵀ   [m × n]·[n × k]: reads B and dC, writes dA
//   wgrad  dB = Aᵀ · dC   [k × m]·[m × n]: reads A and dC, accumulates dB in fp32
// each 2·m·k·n FLOPs (Narayanan et al. 2021 §5.1: backward = 2 × forward); a grouped
// GEMM's are its groups' together.
void matmul_backward(const Op& f, double grad_bytes, std::vector<Op>& out) {
    if (f.shape.m <= 0) {
        // A batched product of activations (unfused attention's Q·Kᵀ and P·V): no weight,
        // both input gradients, twice the forward's FLOPs, its traffic mirrored.
        Op b = f;
        b.variant = OpVariant::backward;
        b.flops = 2 * f.flops;
        b.traffic = Traffic{};
        b.traffic.kv_read = f.traffic.kv_read;
        b.traffic.activations_read = f.traffic.activations_read + f.traffic.activations_written;
        b.traffic.activations_written = f.traffic.activations_read + f.traffic.kv_read;
        out.push_back(b);
        return;
    }
    const double m = f.shape.m, n = f.shape.n, k = f.shape.k, g = f.shape.groups;
    const double in_bytes = f.traffic.activations_read.base / (g * m * k);  // per input element
    Op dgrad = f;
    dgrad.variant = OpVariant::dgrad;
    dgrad.flops = constant(g * 2 * m * k * n);
    dgrad.shape = MatmulShape{m, k, n, g};
    dgrad.traffic = Traffic{};
    dgrad.traffic.weights_read = f.traffic.weights_read;
    dgrad.traffic.activations_read = constant(g * m * n * grad_bytes);
    dgrad.traffic.activations_written = constant(g * m * k * grad_bytes);
    // Added into the input gradient another GEMM wrote (a LoRA adapter's beside its frozen
    // base): the GEMM's β = 1 epilogue reads it too.
    if (f.backward == Backward::accumulate) {
        dgrad.traffic.activations_read = dgrad.traffic.activations_read + constant(g * m * k * grad_bytes);
    }
    out.push_back(dgrad);
    if (f.backward == Backward::input_only) return;  // a frozen weight: no weight gradient

    Op wgrad = f;
    wgrad.variant = OpVariant::wgrad;
    wgrad.flops = f.flops;  // 2·m·k·n, and the bias gradient's m·n sums when there is one
    wgrad.shape = MatmulShape{k, n, m, g};
    wgrad.traffic = Traffic{};
    wgrad.traffic.activations_read = constant(g * (m * k * in_bytes + m * n * grad_bytes));
    wgrad.traffic.weights_read = constant(g * k * n * kMainGradBytes);     // accumulate into the fp32
    wgrad.traffic.activations_written = constant(g * k * n * kMainGradBytes);  // main gradient
    out.push_back(wgrad);
}

// Fused attention backward (FlashAttention-2, Dao 2023 §3.2): Q·Kᵀ recomputed, then dV,
// dP, dQ and dK: five GEMMs of the forward's two, 2.5 × its FLOPs. It reads Q, K, V, O
// and dO (and the row statistics) and writes dQ, dK, dV.
void attention_backward(const Op& f, std::vector<Op>& out) {
    Op b = f;
    b.variant = OpVariant::backward;
    b.flops = 2.5 * f.flops;
    b.row_flops = 2.5 * f.row_flops;  // its rows' fixed work, in the backward's units of a key
    b.traffic = Traffic{};
    b.traffic.kv_read = f.traffic.kv_read;
    b.traffic.activations_read = 2 * f.traffic.activations_read + f.traffic.activations_written;  // Q, dO, O
    b.traffic.activations_written = f.traffic.activations_read + f.traffic.kv_read;              // dQ, dK, dV
    out.push_back(b);
}

// An elementwise or reduction op backward reads the output gradient and its saved input
// and writes the input gradient: its traffic mirrored, twice its FLOPs. Two have a
// gradient of their own shape:
//   dropout_mask    reads the gradient (β) and the mask (1 B), writes the gradient (β): the
//                   probabilities it dropped are not read again
//   softmax_loss    the saved softmax is the gradient: one in-place product with the loss
//                   gradient (read 4 B, write 4 B per logit) and the cast back to the logits'
//                   format (read 4 B, write β_r) (Megatron-LM cross_entropy.py)
void vector_backward(const Op& f, double grad_bytes, std::vector<Op>& out) {
    Op b = f;
    b.variant = OpVariant::backward;
    b.flops = 2 * f.flops;
    b.traffic = Traffic{};
    if (f.backward == Backward::dropout_mask) {
        const Affine elements = (1.0 / grad_bytes) * f.traffic.activations_read;
        b.flops = f.flops;
        b.traffic.activations_read = (grad_bytes + kDropoutMaskBytes) * elements;
        b.traffic.activations_written = grad_bytes * elements;
        out.push_back(b);
        return;
    }
    if (f.backward == Backward::softmax_loss) {
        const double read_per_logit = grad_bytes + kCrossEntropyReadPasses * 4;  // the logits are in β_g
        const Affine logits = (1.0 / read_per_logit) * f.traffic.activations_read;
        b.flops = (1.0 / elementwise_flops::kSoftmax) * f.flops;  // one product per logit
        b.traffic.activations_read = 8.0 * logits;
        b.traffic.activations_written = (4.0 + grad_bytes) * logits;
        out.push_back(b);
        return;
    }
    b.traffic.weights_read = f.traffic.weights_read;
    b.traffic.activations_read = f.traffic.activations_read + f.traffic.activations_written + f.traffic.kv_written;
    b.traffic.activations_written = f.traffic.activations_read;
    out.push_back(b);
}

// The collective that carries the gradients of a forward collective back: an all-reduce
// is its own conjugate (Megatron's f and g operators), a reduce-scatter's is an
// all-gather and the other way round, a stage's hand-off sends the gradient back. (One
// whose backward is the identity, the vocabulary-parallel embedding's all-reduce and the
// loss's, never reaches here.)
void collective_backward(const Op& f, std::vector<Op>& out) {
    Op b = f;
    b.variant = OpVariant::backward;
    if (f.backward == Backward::regather) {
        // Context parallelism keeps only its own K/V chunk: the backward gathers them again,
        // then reduce-scatters their gradients (Megatron-LM context_parallel.md).
        out.push_back(b);
    }
    if (f.collective == CollectiveKind::reduce_scatter) b.collective = CollectiveKind::all_gather;
    if (f.collective == CollectiveKind::all_gather) b.collective = CollectiveKind::reduce_scatter;
    out.push_back(b);
}

bool recomputed(const Op& f, Recompute r) {
    if (!f.layer || r == Recompute::none) return false;
    if (r == Recompute::full) return true;
    // Selective (Korthikanti et al. 2022 §5): the attention core only.
    return f.role == OpRole::attention_core;
}

}  // namespace

std::vector<Op> lower_backward(const std::vector<Op>& forward, Recompute recompute, Precision gradients) {
    std::vector<Op> out;
    out.reserve(2 * forward.size());
    for (const Op& f : forward) {
        if (recomputed(f, recompute)) {
            Op again = f;
            again.variant = OpVariant::recompute;
            out.push_back(again);
        }
    }
    const double grad_bytes = bytes_per_element(gradients);
    for (auto it = forward.rbegin(); it != forward.rend(); ++it) {
        const Op& f = *it;
        if (f.backward == Backward::identity) continue;
        if (f.backward == Backward::repeat) {
            Op again = f;
            again.variant = OpVariant::backward;
            out.push_back(again);
            continue;
        }
        switch (f.cls) {
            case OpClass::matmul: matmul_backward(f, grad_bytes, out); break;
            case OpClass::attention: attention_backward(f, out); break;
            case OpClass::vector:
            case OpClass::lookup: vector_backward(f, grad_bytes, out); break;
            case OpClass::collective: collective_backward(f, out); break;
            case OpClass::host: break;
        }
    }
    return out;
}

}  // namespace envelope
