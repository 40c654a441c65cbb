#include "memory/inference_memory.hpp"

#include <algorithm>

#include "model/layer_shard.hpp"
#include "model/params.hpp"
#include "parallel/expert_layout.hpp"

namespace envelope {

namespace {

double largest_working_set(const std::vector<Op>& ops, double context) {
    double largest = 0;
    for (const Op& op : ops) {
        const double bytes =
            op.traffic.activations_read.at(context) + op.traffic.activations_written.at(context);
        largest = std::max(largest, bytes);
    }
    return largest;
}

}  // namespace

double kv_budget_bytes(const Engine& e, double capacity, double weights, double activations, int64_t replica_chips) {
    const double f = e.kv_cache_memory_fraction;
    if (e.kv_cache_memory_basis == Engine::KvBasis::free_memory) {
        return std::max(0.0, f * (capacity - weights - activations));
    }
    const double reserve =
        (e.runtime_reserve_gb + e.runtime_reserve_gb_per_replica_chip * static_cast<double>(replica_chips)) * 1e9;
    const double outside = e.reserve_holds_activations ? std::max(activations, reserve) : activations + reserve;
    return std::max(0.0, f * capacity - weights - outside);
}

bool fits_in_memory(const InferenceMemory& m) {
    return m.total_bytes <= m.capacity_bytes && m.kv_cache_bytes <= m.kv_budget_bytes;
}

double kv_cache_elements(const Model& m, const Stage& stage, int64_t tp, const InferenceWorkload& w) {
    const int64_t context = w.input_tokens + w.output_tokens;
    const double extra_beams = static_cast<double>(w.beams - 1);
    double kv_elements = 0;  // Σ over the stage's layers of the cache width per chip × the tokens it keeps, per request
    for (const LayerGroup& g : stage.groups) {
        // A sliding-window layer keeps only its window's tokens; further beams share the
        // prompt's and keep their own generated ones; a Mamba layer keeps a state per beam.
        const LayerShard s = shard_layer(g.layer, m.hidden, tp);
        const int64_t kept = g.layer.attention.attended(context);
        const double own = static_cast<double>(std::min<int64_t>(w.output_tokens, kept));
        kv_elements += static_cast<double>(g.count) *
                       (static_cast<double>(s.cache_width) * (static_cast<double>(kept) + extra_beams * own) +
                        static_cast<double>(s.state_width) * (1 + extra_beams));
    }
    return kv_elements;
}

InferenceMemory inference_memory(const StageMemoryInput& in, const std::vector<Op>& prefill_ops,
                                 const std::vector<Op>& decode_ops) {
    const Model& m = in.model;
    const InferenceWorkload& w = in.workload;
    const int64_t tp = in.parallelism.tp;
    const double batch = static_cast<double>(w.batch);
    const double micro_batch = static_cast<double>(in.micro_batch);

    InferenceMemory mem;
    mem.stage = in.stage.index;
    const ParamCount params = count_slice_params(m, in.stage.groups, in.stage.first, in.stage.last, tp, in.parallelism.ep,
                                                 expert_layout(in.parallelism).etp);
    mem.weights_bytes = params.total() * bytes_per_element(w.precision.weights);

    const int64_t context = w.input_tokens + w.output_tokens;
    const double kv_elements = kv_cache_elements(m, in.stage, tp, w);
    const double kv = kv_elements * bytes_per_element(w.precision.kv_cache) * batch;
    mem.kv_cache_bytes = (1 - w.kv_offload) * kv;
    mem.host_kv_bytes = w.kv_offload * kv;

    // Prefill runs in chunks of at most the engine's prefill token budget (all prompts at
    // once when it has none); a chunk's working set is that share of the micro-batch's.
    const double prompt_tokens = micro_batch * static_cast<double>(w.input_tokens);
    // The workload's chunk when it gives one, else the engine's prefill budget.
    const double budget = static_cast<double>(w.prefill_chunk > 0 ? w.prefill_chunk : in.engine.max_prefill_tokens);
    const double chunk = budget > 0 && budget < prompt_tokens ? budget / prompt_tokens : 1.0;
    const double stream_share = in.parallelism.sp ? 1.0 / static_cast<double>(tp) : 1.0;
    const double h = static_cast<double>(m.hidden);
    const double rb = bytes_per_element(w.precision.residual);
    const double prefill_set =
        chunk * (prompt_tokens * stream_share * h * rb + largest_working_set(prefill_ops, 0.0));
    const double decode_set = micro_batch * static_cast<double>(w.beams) * stream_share * h * rb +
                              largest_working_set(decode_ops, context - 1);
    mem.activation_bytes = std::max(prefill_set, decode_set);

    mem.total_bytes = mem.weights_bytes + mem.kv_cache_bytes + mem.activation_bytes;
    mem.capacity_bytes = in.chip.hbm_gb * 1e9;
    mem.kv_budget_bytes = kv_budget_bytes(in.engine, mem.capacity_bytes, mem.weights_bytes, mem.activation_bytes,
                                          tp * in.parallelism.pp);
    mem.fits = fits_in_memory(mem);
    return mem;
}

}  // namespace envelope
