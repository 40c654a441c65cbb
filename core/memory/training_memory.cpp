#include "memory/training_memory.hpp"

#include <algorithm>

#include "model/layer_shard.hpp"
#include "model/params.hpp"
#include "parallel/expert_layout.hpp"

namespace envelope {

namespace {

constexpr double kActivationBytes = 2;  // bf16/fp16 activations (fp8 recipes keep 16-bit copies)

// Bytes one layer keeps for its backward pass, for one micro-batch on one chip.
double layer_activations(const LayerSpec& layer, const TrainingMemoryInput& in, double tokens, double seq) {
    const Parallelism& par = in.parallelism;
    const TrainingWorkload& w = in.workload;
    const double t = static_cast<double>(par.tp);
    const double sp = par.sp ? t : 1.0;  // the replicated parts, split under SP
    const LayerShard s = shard_layer(layer, in.model.hidden, par.tp, par.ep, expert_layout(par).etp);
    const double h = static_cast<double>(in.model.hidden);
    const double beta = kActivationBytes;
    const double heads = static_cast<double>(s.heads);  // per chip: a/t

    if (w.recompute == Recompute::full) return beta * tokens * h / sp;  // the layer's input only

    double attn = beta * tokens * h / sp + beta * tokens * static_cast<double>(s.qkv_width) +
                  beta * tokens * static_cast<double>(s.o_dim);
    // MLA also keeps its latents, the inputs of the up projections (replicated over TP).
    if (s.mla) attn += beta * tokens * static_cast<double>(layer.attention.mla.q_lora_rank + s.cache_width);
    const bool keeps_scores = !w.flash_attention && w.recompute == Recompute::none;
    if (w.flash_attention) attn += 4 * tokens * heads;
    // The softmax output (2 B a score) feeds P·V and the softmax backward; with dropout, its
    // mask (1 B) and output (2 B) too: 5 bytes a score (Korthikanti et al. 2022 §4.1).
    if (keeps_scores) attn += (w.dropout ? 5 : 2) * heads * seq * tokens;
    const double gate = layer.ffn.gated ? 2 : 1;
    const double ffn = static_cast<double>(s.ffn);  // a dense MLP, or a mixture's shared experts
    double mlp = beta * tokens * h / sp + beta * tokens * ffn * gate + beta * tokens * ffn;
    if (layer.ffn.is_moe()) {
        // Each token's k copies after the dispatch (balanced: T·k tokens on the chip), the
        // experts' up (and gate) outputs and activations, and their outputs before the combine.
        const double routed = tokens * static_cast<double>(layer.ffn.moe.top_k);
        const double expert_ffn = static_cast<double>(s.expert_ffn);
        mlp += beta * routed * h + beta * routed * expert_ffn * gate + beta * routed * expert_ffn + beta * routed * h;
    }
    const double norms = 2 * beta * tokens * h / sp;
    double masks = 0;
    if (w.dropout) masks = 2 * tokens * h / sp;  // after the attention and after the MLP
    return attn + mlp + norms + masks;
}

// Layer activations a full-recompute backward rebuilds at once: one layer's whole set.
double recompute_working_set(const TrainingMemoryInput& in, double tokens, double seq) {
    TrainingWorkload w = in.workload;
    w.recompute = Recompute::none;
    const TrainingMemoryInput none{in.model, in.stage, in.parallelism, w, in.chip, in.micro_batches};
    double largest = 0;
    for (const LayerGroup& g : in.stage.groups) largest = std::max(largest, layer_activations(g.layer, none, tokens, seq));
    return largest;
}

double micro_batches_in_flight(const TrainingMemoryInput& in) {
    const Parallelism& p = in.parallelism;
    const double m = static_cast<double>(in.micro_batches);
    const double pp = static_cast<double>(p.pp);
    const double i = static_cast<double>(in.stage.index);
    switch (p.schedule) {
        case PipelineSchedule::gpipe: return m;
        case PipelineSchedule::one_f_one_b:
        case PipelineSchedule::zero_bubble: return std::min(pp - i, m);
        case PipelineSchedule::interleaved_1f1b:
            return std::min(m, (pp - i) + (pp - 1) / static_cast<double>(p.virtual_stages));
    }
    return m;
}

}  // namespace

TrainingMemory training_memory(const TrainingMemoryInput& in) {
    const Parallelism& par = in.parallelism;
    const TrainingWorkload& w = in.workload;
    const double dp = static_cast<double>(par.dp * par.cp);  // the optimizer's shards: DP × CP (step.hpp)
    TrainingMemory mem;
    mem.stage = in.stage.index;

    const ParamCount params = count_slice_params(in.model, in.stage.groups, in.stage.first, in.stage.last, par.tp, par.ep,
                                                 expert_layout(par).etp);
    const double psi = params.total();
    double largest_layer = 0;  // a ZeRO-3 chip gathers one layer while prefetching the next
    for (const LayerGroup& g : in.stage.groups) {
        largest_layer = std::max(largest_layer, count_group_params(LayerGroup{g.layer, 1}, in.model.hidden, par.tp, par.ep,
                                                                   expert_layout(par).etp).total());
    }
    mem.weights_bytes = par.zero >= 3 ? 2 * psi / dp + 2 * 2 * largest_layer : 2 * psi;
    mem.gradient_bytes = par.zero >= 2 ? 4 * psi / dp : 4 * psi;
    mem.optimizer_bytes = par.zero >= 1 ? 12 * psi / dp : 12 * psi;
    const Offload& off = w.offload;
    if (off.optimizer != OffloadTarget::none) {
        mem.gradient_bytes /= 2;  // 16-bit until copied out
        mem.optimizer_bytes = 0;
        if (off.optimizer == OffloadTarget::cpu) mem.host_bytes += 16 * psi / dp;
    }
    if (off.parameters != OffloadTarget::none) {
        mem.weights_bytes = 2 * 2 * largest_layer;
        if (off.parameters == OffloadTarget::cpu) mem.host_bytes += 2 * psi / dp;
    }

    const double seq = static_cast<double>(w.seq_len);
    const double tokens = static_cast<double>(w.micro_batch) * seq / static_cast<double>(par.cp);
    double per_micro_batch = 0;
    for (const LayerGroup& g : in.stage.groups) {
        per_micro_batch += static_cast<double>(g.count) * layer_activations(g.layer, in, tokens, seq);
    }
    mem.activations_per_micro_batch = per_micro_batch;
    mem.in_flight = micro_batches_in_flight(in);
    mem.activation_bytes = per_micro_batch * mem.in_flight;
    if (w.recompute == Recompute::full) mem.activation_bytes += recompute_working_set(in, tokens, seq);
    if (in.stage.last) {
        const double vocab = static_cast<double>((in.model.vocab + par.tp - 1) / par.tp);
        mem.activation_bytes += 4 * tokens * vocab;
    }

    mem.total_bytes = mem.weights_bytes + mem.gradient_bytes + mem.optimizer_bytes + mem.activation_bytes;
    mem.capacity_bytes = in.chip.hbm_gb * 1e9;
    mem.fits = mem.total_bytes <= mem.capacity_bytes;
    mem.host_capacity_bytes = in.host_memory_gb * 1e9;
    mem.host_fits = mem.host_bytes <= mem.host_capacity_bytes;
    return mem;
}

}  // namespace envelope
