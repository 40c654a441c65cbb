#pragma once
// Time of moving model state between a chip and its host (ZeRO-Offload, Ren et al. 2021,
// USENIX ATC; ZeRO-Infinity, Rajbhandari et al. 2021, SC21), with Ψ the stage's parameters
// on one chip and d the data-parallel degree (× CP), B_link the host link, B_mem the host
// memory and B_nvme the NVMe bandwidth per chip:
//   optimizer offloaded, once per step after the backward pass:
//     gradients out   2·Ψ/d bytes (the chip's 16-bit gradient shard) over B_link, overlapped
//                     with the backward pass like the gradient reduction (step.hpp)
//     host Adam       30 bytes per parameter of the shard (as on the chip, step.hpp) at
//                     B_mem; on NVMe the fp32 master, m and v (12 B) are also read and
//                     written back at B_nvme, pipelined with it: the larger of the two
//     parameters in   2·Ψ/d bytes over B_link before the next forward pass, exposed
//   parameters offloaded (ZeRO-3), every micro-batch and pass (forward, backward): the
//     chip fetches its 2·Ψ/d shard over B_link (min(B_link, B_nvme) from NVMe) before the
//     all-gather; the fetch and the gather pipeline layer by layer, so the pass waits for
//     the larger of the two
#include "scenario.hpp"
#include "training/model_state_bytes.hpp"

namespace envelope {

struct OffloadTimes {
    double gradients_out_s = 0;  // per step, before overlap
    double host_step_s = 0;      // per step
    double parameters_in_s = 0;  // per step
    double fetch_s = 0;          // parameter shard fetch, per micro-batch and pass
};

OffloadTimes offload_times(const Scenario& s, double stage_params);

}  // namespace envelope
