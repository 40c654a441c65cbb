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

    const double stream_tokens = batch * static_cast<double>(w.input_tokens);
    const double stream = stream_tokens * static_cast<double>(m.hidden) *
                          bytes_per_element(w.precision.activations);
    mem.activation_bytes = stream + std::max(largest_working_set(prefill_ops, 0.0),
                                             largest_working_set(decode_ops, context - 1));

    mem.total_bytes = mem.weights_bytes + mem.kv_cache_bytes + mem.activation_bytes;
    mem.capacity_bytes = s.system.chip.hbm_gb * 1e9;
    mem.fits = mem.total_bytes <= mem.capacity_bytes;
    return mem;
}

}  // namespace envelope
