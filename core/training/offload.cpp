#include "training/offload.hpp"

#include <algorithm>

namespace envelope {

namespace {


// Bandwidth, bytes/s, of a transfer between the chip and where a state lives.
double path_bw(const HostResources& h, OffloadTarget where) {
    const double link = h.link_gbps * 1e9;
    return where == OffloadTarget::nvme ? std::min(link, h.nvme_gbps * 1e9) : link;
}

}  // namespace

OffloadTimes offload_times(const Scenario& s, double stage_params) {
    const Offload& o = s.workload.training.offload;
    const HostResources& h = s.system.host;
    const double d = static_cast<double>(s.parallelism.dp * s.parallelism.cp);
    const double shard = stage_params / d;
    OffloadTimes t;
    if (o.optimizer != OffloadTarget::none) {
        const double bw = path_bw(h, OffloadTarget::cpu);  // gradients and weights pass through host memory
        t.gradients_out_s = model_state_bytes::kGradient16 * shard / bw;
        t.parameters_in_s = model_state_bytes::kWeight * shard / bw;
        t.host_step_s = model_state_bytes::kAdamStepTraffic * shard / (h.memory_gbps * 1e9);
        if (o.optimizer == OffloadTarget::nvme) {
            t.host_step_s = std::max(t.host_step_s, 2 * model_state_bytes::kOptimizer * shard / (h.nvme_gbps * 1e9));
        }
    }
    if (o.parameters != OffloadTarget::none) t.fetch_s = model_state_bytes::kWeight * shard / path_bw(h, o.parameters);
    return t;
}

}  // namespace envelope
