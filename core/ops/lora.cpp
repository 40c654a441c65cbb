// Parameter-efficient fine-tuning in a stage's forward pass (ops/lower.hpp add_peft).
#include "model/adapters.hpp"
#include "ops/builders.hpp"
#include "ops/elementwise_costs.hpp"
#include "ops/lower.hpp"
#include "parallel/expert_layout.hpp"

namespace envelope {

namespace {

// QLoRA's dequantization of one NF4 weight matrix to bf16 before the GEMM that reads it
// (bitsandbytes' dequantize_4bit in MatMul4Bit's forward and again in its backward): reads the
// packed weights and constants, writes the bf16 copy the GEMM then reads; 4 vector operations a
// weight (unpack: shift, mask; the NF4 code book; scale), as the in-kernel dequantization of
// ops/builders.hpp.
Op dequantize(const Op& gemm, double bytes_per_param) {
    const double elements = gemm.shape.groups * gemm.shape.k * gemm.shape.n;
    Op d;
    d.name = "nf4_dequant";
    d.cls = OpClass::vector;
    d.precision = Precision::fp32;
    d.count = gemm.count;
    d.layer = gemm.layer;
    d.flops = constant(4 * elements);
    d.traffic.weights_read = constant(bytes_per_param * elements);
    d.traffic.activations_written = constant(2 * elements);
    d.backward = Backward::repeat;
    return d;
}

// One adapter's forward beside its frozen base GEMM over `tokens` tokens: the dropout of its
// input (when set: the dropped copy and a 1-byte mask), x·A [T × k]·[k × r], then ·B
// [T × r]·[r × n], and the add of the result into the base output (α/r folded into it). The
// adapters run in 16 bits (their weights are bf16 in every recipe, fp8 and fp4 ones included).
// Backward: the add passes the gradient through; B and A get their dgrads and wgrads, A's dgrad
// adding into the input gradient the base's dgrad wrote.
void add_adapter(const Adapter& a, const Peft& p, double layers, double tokens, Precision r, std::vector<Op>& out) {
    const double rank = static_cast<double>(p.rank);
    if (p.dropout > 0) {
        Op drop = build::vector("lora_dropout", layers, constant(tokens * a.k), constant(tokens * a.k),
                                elementwise_flops::kDropout, r);
        drop.traffic.activations_written = drop.traffic.activations_written + constant(kDropoutMaskBytes * tokens * a.k);
        out.push_back(drop);
    }
    Op down = build::matmul("lora_a", layers, tokens, a.k, rank, r, r, r, false);
    down.backward = Backward::accumulate;
    out.push_back(down);
    out.push_back(build::matmul("lora_b", layers, tokens, rank, a.n, r, r, r, false));
    Op add = build::vector("lora_add", layers, constant(2 * tokens * a.n), constant(tokens * a.n),
                           elementwise_flops::kResidualAdd, r);
    add.backward = Backward::identity;
    out.push_back(add);
}

}  // namespace

void add_peft(const LowerInput& in, const Peft& p, std::vector<Op>& forward) {
    if (!p.on()) return;
    const bool nf4 = p.base == BaseFormat::nf4;
    std::vector<Op> ops;
    ops.reserve(forward.size() * 2);
    for (Op op : forward) {
        const bool weight_gemm = op.cls == OpClass::matmul && op.shape.m > 0;  // not attention's batched products
        if (weight_gemm) {
            op.backward = Backward::input_only;
            if (nf4 && op.layer) ops.push_back(dequantize(op, base_bytes_per_param(p)));
        }
        if (op.cls == OpClass::lookup) op.backward = Backward::identity;  // a frozen embedding: no gradient
        ops.push_back(op);
    }
    const double tokens = static_cast<double>(in.pass.batch * in.pass.new_tokens);
    const Precision r = in.precision.residual;
    for (const LayerGroup& g : in.stage.groups) {
        const LayerShard s = shard_layer(g.layer, in.model.hidden, in.parallelism.tp, in.parallelism.ep,
                                         expert_layout(in.parallelism).etp);
        for (const Adapter& a : layer_adapters(s, p)) {
            const std::size_t first = ops.size();
            add_adapter(a, p, static_cast<double>(g.count), tokens, r, ops);
            for (std::size_t i = first; i < ops.size(); ++i) ops[i].layer = true;
        }
    }
    forward = std::move(ops);
}

}  // namespace envelope
