#include "memory/inference_memory.hpp"

#include <algorithm>

#include "model/params.hpp"
#include "parallel/tensor_parallel.hpp"

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

InferenceMemory inference_memory(const Scenario& s, const std::vector<Op>& prefill_ops,
                                 const std::vector<Op>& decode_ops) {
    const Model& m = s.model;
    const InferenceWorkload& w = s.workload;
    const TpShard shard = shard_for_tp(m, w.parallelism.tp);
    const double batch = static_cast<double>(w.batch);

    InferenceMemory mem;
    mem.weights_bytes =
        count_params(m, shard).total(m.layers) * bytes_per_element(w.precision.weights);

    const double context = static_cast<double>(w.input_tokens + w.output_tokens);
    mem.kv_cache_bytes = 2.0 * static_cast<double>(m.layers) *
                         static_cast<double>(shard.kv_dim(m)) *
                         bytes_per_element(w.precision.kv_cache) * batch * context;

    // Prefill runs in chunks of at most the engine's prefill token budget (all prompts at
    // once when it has none); a chunk's working set is that share of the whole batch's.
    const double prompt_tokens = batch * static_cast<double>(w.input_tokens);
    const double budget = static_cast<double>(s.engine.max_prefill_tokens);
    const double chunk = budget > 0 && budget < prompt_tokens ? budget / prompt_tokens : 1.0;
    const double h = static_cast<double>(m.hidden);
    const double rb = bytes_per_element(w.precision.residual);
    const double prefill_set = chunk * (prompt_tokens * h * rb + largest_working_set(prefill_ops, 0.0));
    const double decode_set = batch * h * rb + largest_working_set(decode_ops, context - 1);
    mem.activation_bytes = std::max(prefill_set, decode_set);

    mem.total_bytes = mem.weights_bytes + mem.kv_cache_bytes + mem.activation_bytes;
    mem.capacity_bytes = s.system.chip.hbm_gb * 1e9;
    mem.fits = mem.total_bytes <= mem.capacity_bytes;
    mem.kv_budget_bytes = std::max(0.0, s.engine.kv_cache_memory_fraction *
                                            (mem.capacity_bytes - mem.weights_bytes - mem.activation_bytes));
    return mem;
}

}  // namespace envelope
