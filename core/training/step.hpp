#pragma once
// The time of one training step: per-stage micro-batch times with the communication that
// stays exposed, the pipeline schedule, and the data-parallel synchronisation and
// optimizer at the end.
//
// One micro-batch on stage i: t_F,i forward and t_B,i backward (recomputation included),
// each its compute plus the exposed part of its communication:
//   TP   all of it (inference-style, on the critical path), or with tp_comm_overlap
//        max(0, TP time − the linear layers' GEMM time) (Transformer Engine userbuffers
//        pipeline them with the GEMMs they feed)
//   CP   max(0, the K/V ring − the attention it overlaps) (Liu et al. 2023, Ring Attention §3)
//   A pass's compute is hidden behind once: ZeRO-3's traffic hides only in the compute that
//   TP and CP did not already cover, so less compute never exposes more than it saves.
//   PP   the hand-off of activations (forward) and gradients (backward) to the next stage
//   EP   all of the experts' dispatch and combine all-to-alls (Megatron-LM's all-to-all
//        dispatcher runs them between the router and the experts, not overlapped)
//   ZeRO-3  each micro-batch gathers the stage's parameters for its forward and again for
//        its backward and reduce-scatters its gradients, prefetched layer by layer:
//        max(one layer's share, comm − compute) in each direction
// Pipeline, with T_i = t_F,i + t_B,i and m micro-batches (Narayanan et al. 2021 §2.2):
//   GPipe, 1F1B      T_pipe = Σ_i T_i + (m − 1)·max_i T_i   (the bubble: (p−1)·T balanced)
//   interleaved (v)  T_pipe = m·max_i T_i + (Σ_i T_i − max_i T_i)/v
//   ZB-H1            T_pipe = m·max_i T_i + (Σ_i T_i − max_i T_i)·(T − 2·t_W)/T, with t_W the
//                    weight-gradient GEMMs deferred into the bubble (Qi et al. 2024:
//                    (p−1)(t_F + t_B − t_W) with t_B the input gradients only)
// Then the gradients (fp32) and parameters (16-bit) of each stage's Ψ_i (over its DP group and, when
// there is one, its CP group with it: CP chips hold the same parameters):
//   ZeRO 0      all-reduce;  ZeRO 1-2  reduce-scatter + all-gather (Megatron-LM's
//               distributed optimizer)
//   exposed, with overlap_grad_reduce, max(last bucket, reduce − t_B) (buckets of
//   max(40 M, 1 M·d) parameters, Megatron-LM DistributedDataParallelConfig), and with
//   overlap_param_gather max(first bucket, gather − t_F); all of it otherwise. t_F and t_B
//   are the critical stage's: in the steady state every stage moves at its pace.
//   optimizer   Adam over the chip's shard: 30 bytes per parameter (read fp32 gradient,
//               master, m, v; write master, m, v and the bf16 weight) at the HBM bandwidth
// Offloaded optimizer states and parameters: training/offload.hpp.
// Fine-tuning (workload.peft, METHODOLOGY.md §39): Ψ_i is the stage's adapter parameters in the
// gradient reduction, the parameter gather and the optimizer; ZeRO-3 gathers the frozen base too,
// in its stored format.
// Step = T_pipe + max_i (exposed DP + optimizer + offload).
#include <cstdint>
#include <vector>

#include "ops/op.hpp"
#include "parallel/placement.hpp"
#include "parallel/stages.hpp"
#include "scenario.hpp"

namespace envelope {

struct StageOps {
    Stage stage;
    std::vector<Op> forward;   // one micro-batch
    std::vector<Op> backward;  // one micro-batch, recomputation first
};

struct StageStep {
    double forward_s = 0;   // one micro-batch, exposed communication included
    double backward_s = 0;
    double compute_s = 0;   // one micro-batch, forward + backward, without communication
    double forward_compute_s = 0;
    double backward_compute_s = 0;
    double tp_s = 0;        // exposed, one micro-batch
    double cp_s = 0;
    double pp_s = 0;
    double ep_s = 0;        // the experts' dispatch and combine all-to-alls, one micro-batch
    double zero3_s = 0;     // ZeRO-3 gathers and reduce-scatters, exposed, one micro-batch
    double dp_s = 0;        // exposed, per step
    double optimizer_s = 0; // per step, on the chip
    double offload_s = 0;   // per step: gradients to the host (exposed), host optimizer, weights back
    double offload_fetch_s = 0;  // offloaded parameter shards, exposed beyond the ZeRO-3 gathers, one micro-batch
    double wgrad_s = 0;     // the weight-gradient GEMMs of one micro-batch's backward
    double dp_bytes = 0;    // gradient and parameter buffers synchronised per step
};

struct StepTime {
    std::vector<StageStep> stages;
    int64_t critical_stage = 0;  // the slowest stage: it sets the pipeline's pace
    double pipeline_s = 0;       // T_pipe
    double bubble_s = 0;         // T_pipe − m · T_critical
    double step_s = 0;
};

StepTime training_step(const Scenario& s, const std::vector<StageOps>& stages, const Placement& placement,
                       int64_t micro_batches);

}  // namespace envelope
