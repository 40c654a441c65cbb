#include "memory/training_memory.hpp"

#include <algorithm>

#include "model/adapters.hpp"
#include "model/layer_shard.hpp"
#include "model/params.hpp"
#include "ops/lower.hpp"
#include "parallel/expert_layout.hpp"
#include "training/model_state_bytes.hpp"

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

    // A GEMM keeps its input for its weight gradient; a frozen one has none (its input
    // gradient reads the weight), so under fine-tuning only the inputs its adapters read stay:
    // the base input when they read it as it is, their dropped copies and 1-byte masks when
    // they drop it (one each), and each B's input [T × r].
    const Peft& p = w.peft;
    const bool drops = p.on() && p.dropout > 0;
    const auto kept = [&](std::initializer_list<LoraTarget> ts) { return !p.on() || (!drops && p.targets_any(ts)); };
    double adapters = 0;
    if (p.on()) {
        for (const Adapter& a : layer_adapters(s, p)) {
            adapters += beta * tokens * static_cast<double>(p.rank) + (drops ? (beta + kDropoutMaskBytes) * tokens * a.k : 0.0);
        }
    }
    const double qkv_in = kept({LoraTarget::q, LoraTarget::k, LoraTarget::v, LoraTarget::qkv}) ? beta * tokens * h / sp : 0.0;
    const double out_in = kept({LoraTarget::out}) ? beta * tokens * static_cast<double>(s.o_dim) : 0.0;
    double attn = qkv_in + beta * tokens * static_cast<double>(s.qkv_width) + out_in + adapters;
    // MLA also keeps its latents, the inputs of the up projections (replicated over TP).
    if (s.mla) attn += beta * tokens * static_cast<double>(layer.attention.mla.q_lora_rank + s.cache_width);
    const bool keeps_scores = !w.flash_attention && w.recompute == Recompute::none;
    if (w.flash_attention) attn += 4 * tokens * heads;
    // The softmax output (2 B a score) feeds P·V and the softmax backward; with dropout, its
    // mask (1 B) and output (2 B) too: 5 bytes a score (Korthikanti et al. 2022 §4.1).
    if (keeps_scores) attn += (w.dropout ? 5 : 2) * heads * seq * tokens;
    // A block that is only its mixer (Mamba) has no MLP half: no MLP input, no second norm,
    // one dropout mask (ops/decoder_layer.cpp lowers it so).
    const bool has_mlp = layer.ffn.present();
    const double halves = has_mlp ? 2 : 1;
    const double gate = layer.ffn.gated ? 2 : 1;
    const double ffn = static_cast<double>(s.ffn);  // a dense MLP, or a mixture's shared experts
    const double mlp_in = has_mlp && kept({LoraTarget::gate, LoraTarget::up, LoraTarget::gate_up}) ? beta * tokens * h / sp : 0.0;
    const double down_in = kept({LoraTarget::down}) ? beta * tokens * ffn : 0.0;
    double mlp = mlp_in + beta * tokens * ffn * gate + down_in;
    if (layer.ffn.is_moe()) {
        // Each token's k copies after the dispatch (balanced: T·k tokens on the chip), the
        // experts' up (and gate) outputs and activations, and their outputs before the combine.
        const double routed = tokens * static_cast<double>(layer.ffn.moe.top_k);
        const double expert_ffn = static_cast<double>(s.expert_ffn);
        mlp += beta * routed * h + beta * routed * expert_ffn * gate + beta * routed * expert_ffn + beta * routed * h;
    }
    const double norms = halves * beta * tokens * h / sp;  // each half's norm keeps its input
    double masks = 0;
    if (w.dropout) masks = halves * tokens * h / sp;  // after the attention and after the MLP
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
    // Fine-tuning: the frozen base in its stored format, gradients and optimizer state for the
    // adapters alone (ψ their parameters), which are 16-bit weights too.
    const Peft& peft = w.peft;
    const int64_t etp = expert_layout(par).etp;
    const double psi = peft.on() ? slice_adapter_params(in.model, in.stage.groups, peft, par.tp, par.ep, etp) : params.total();
    namespace bytes = model_state_bytes;
    const double held = (peft.on() ? frozen_weight_bytes(params, peft) : 0.0) + bytes::kWeight * psi;  // weight bytes on the chip
    double largest_layer = 0;  // bytes of one layer: a ZeRO-3 chip gathers one while prefetching the next
    for (const LayerGroup& g : in.stage.groups) {
        const LayerGroup one{g.layer, 1};
        const ParamCount c = count_group_params(one, in.model.hidden, par.tp, par.ep, etp);
        const double layer = peft.on() ? frozen_weight_bytes(c, peft) +
                                             bytes::kWeight * slice_adapter_params(in.model, {one}, peft, par.tp, par.ep, etp)
                                       : bytes::kWeight * c.total();
        largest_layer = std::max(largest_layer, layer);
    }
    mem.weights_bytes = par.zero >= 3 ? held / dp + 2 * largest_layer : held;  // two layers: the one in use, the next prefetched
    mem.gradient_bytes = bytes::kMainGradient * (par.zero >= 2 ? psi / dp : psi);
    mem.optimizer_bytes = bytes::kOptimizer * (par.zero >= 1 ? psi / dp : psi);
    const Offload& off = w.offload;
    if (off.optimizer != OffloadTarget::none) {
        mem.gradient_bytes *= bytes::kGradient16 / bytes::kMainGradient;  // 16-bit until copied out
        mem.optimizer_bytes = 0;
        if (off.optimizer == OffloadTarget::cpu) mem.host_bytes += bytes::kHostState * psi / dp;
    }
    if (off.parameters != OffloadTarget::none) {
        mem.weights_bytes = 2 * largest_layer;
        if (off.parameters == OffloadTarget::cpu) mem.host_bytes += held / dp;
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
