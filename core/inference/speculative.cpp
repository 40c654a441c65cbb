#include "inference/speculative.hpp"

#include <algorithm>

#include "model/params.hpp"
#include "parallel/stages.hpp"

namespace envelope {

Model drafter_of(const Scenario& s) {
    const Speculative& sp = s.workload.inference.speculative;
    if (sp.draft) return *sp.draft;
    Model head = s.model;
    head.name = s.model.name + " draft head";
    head.groups = {LayerGroup{s.model.groups.back().layer, 1}};
    return head;
}

void add_drafter_memory(const Scenario& s, InferenceMemory& mem) {
    const Speculative& sp = s.workload.inference.speculative;
    if (!sp.on()) return;
    const Model drafter = drafter_of(s);
    const Stage stage = split_stages(drafter, s.parallelism).front();
    const StageMemoryInput in{drafter, stage, s.parallelism, s.workload.inference, s.engine, s.system.chip,
                              s.workload.inference.batch};
    const InferenceMemory d = inference_memory(in, {}, {});
    const double weights = sp.draft ? d.weights_bytes
                                    : count_group_params(drafter.groups.front(), drafter.hidden, s.parallelism.tp,
                                                         s.parallelism.ep)
                                              .total() *
                                          bytes_per_element(s.workload.inference.precision.weights);
    mem.weights_bytes += weights;
    mem.kv_cache_bytes += d.kv_cache_bytes;
    mem.total_bytes = mem.weights_bytes + mem.kv_cache_bytes + mem.activation_bytes;
    mem.kv_budget_bytes = kv_budget_bytes(s.engine, mem.capacity_bytes, mem.weights_bytes, mem.activation_bytes,
                                          s.parallelism.tp * s.parallelism.pp);
    mem.fits = fits_in_memory(mem);
}

}  // namespace envelope
