#include "training/step.hpp"

#include <algorithm>

#include "model/adapters.hpp"
#include "model/params.hpp"
#include "parallel/expert_layout.hpp"
#include "perf/context_sum.hpp"
#include "perf/roofline.hpp"
#include "training/offload.hpp"

namespace envelope {

namespace {


struct PassTimes {
    double compute = 0;
    double gemm = 0;       // the linear layers' GEMMs, what TP communication can hide behind
    double attention = 0;  // attention's kernels, what the CP ring hides behind (disjoint from gemm)
    double tp = 0, cp = 0, pp = 0, ep = 0;
    double wgrad = 0;      // weight-gradient GEMMs: what a zero-bubble schedule defers
};

double seconds(const Op& op, const Placement& placement, const TimingContext& ctx) {
    const Spans* spans = op.cls == OpClass::collective ? &placement.of(op.dim).spans : nullptr;
    return time_at(roofs_of(op, spans, ctx), 0).total_s * op.count;
}

PassTimes time_pass(const std::vector<Op>& ops, const Placement& placement, const TimingContext& ctx) {
    PassTimes t;
    for (const Op& op : ops) {
        const double s = seconds(op, placement, ctx);
        if (op.cls != OpClass::collective) {
            t.compute += s;
            if (op.variant == OpVariant::wgrad) t.wgrad += s;
            // The attention core's matrix kernels (fused, or unfused Q·Kᵀ and P·V) belong to
            // attention, not to the linear layers whose all-gathers and reduce-scatters
            // userbuffers pipeline.
            if (op.role == OpRole::attention_core && op.cls != OpClass::vector) {
                t.attention += s;
            } else if (op.cls == OpClass::matmul) {
                t.gemm += s;
            }
            continue;
        }
        if (op.dim == ParallelDim::tp) t.tp += s;
        if (op.dim == ParallelDim::cp) t.cp += s;
        if (op.dim == ParallelDim::pp) t.pp += s;
        if (op.dim == ParallelDim::ep || op.dim == ParallelDim::etp) t.ep += s;  // the experts' collectives
    }
    return t;
}

// A stage's per-step traffic before overlap: the data-parallel reduce and gather
// (ZeRO 0-2) and the gradients sent to an offloaded optimizer.
struct StageSync {
    double reduce_s = 0, gather_s = 0, gradients_out_s = 0;
    double buckets = 1;
};

double collective_time(CollectiveKind kind, const Spans& spans, double bytes, const Engine& engine) {
    return group_collective(kind, spans, bytes, engine.collectives).cost.time(bytes);
}

}  // namespace

StepTime training_step(const Scenario& s, const std::vector<StageOps>& stages, const Placement& placement,
                       int64_t micro_batches) {
    const TrainingWorkload& w = s.workload.training;
    const Parallelism& par = s.parallelism;
    const Framework& fw = s.framework;
    const Engine engine = training_engine(fw);
    // A whole-model run: matrix work at the chip's sustained rate (perf/roofline.hpp).
    const TimingContext ctx{s.system.chip, engine, TimingModel::expected, 0, true};
    // Gradients are reduced (and the optimizer sharded) over the data-parallel and the
    // context-parallel chips together: a CP group holds the same parameters (Megatron-LM's
    // data-parallel group "with CP"). With the default order the two are adjacent.
    const Spans dp_spans = par.cp > 1 ? place_group(s.system.network, par.cp * par.dp, placement.of(ParallelDim::cp).stride)
                                      : placement.of(ParallelDim::dp).spans;
    const double dp = static_cast<double>(par.dp * par.cp);
    const double m = static_cast<double>(micro_batches);
    const double bucket = std::max(fw.bucket_params, fw.bucket_params_per_dp * dp);  // parameters per gradient bucket

    const bool zero_bubble = par.schedule == PipelineSchedule::zero_bubble;
    StepTime out;
    std::vector<StageSync> syncs;
    for (const StageOps& st : stages) {
        const PassTimes f = time_pass(st.forward, placement, ctx);
        const PassTimes b = time_pass(st.backward, placement, ctx);
        StageStep r;
        StageSync sync;
        r.compute_s = f.compute + b.compute;
        r.forward_compute_s = f.compute;
        r.backward_compute_s = b.compute;
        // A pass's compute is one budget: what one communication hides behind, another
        // cannot, so a faster chip never exposes more than it saves (the CP ring hides in
        // attention, TP's collectives in the linear GEMMs, ZeRO-3's in whatever is left).
        // ZB-H1 defers the weight-gradient GEMMs out of the backward pass into the bubble, so
        // the pass's traffic cannot hide behind them.
        const double deferred = zero_bubble ? b.wgrad : 0.0;
        const double tp_hid_f = w.tp_comm_overlap ? std::min(f.tp, f.gemm) : 0.0;
        const double tp_hid_b = w.tp_comm_overlap ? std::min(b.tp, b.gemm - deferred) : 0.0;
        const double cp_hid_f = std::min(f.cp, f.attention), cp_hid_b = std::min(b.cp, b.attention);
        const double tp_f = f.tp - tp_hid_f, tp_b = b.tp - tp_hid_b;
        const double cp_f = f.cp - cp_hid_f, cp_b = b.cp - cp_hid_b;
        const double free_f = std::max(0.0, f.compute - tp_hid_f - cp_hid_f);
        const double free_b = std::max(0.0, b.compute - deferred - tp_hid_b - cp_hid_b);
        r.tp_s = tp_f + tp_b;
        r.cp_s = cp_f + cp_b;
        // Interleaved stages hand each micro-batch on once per chunk they hold.
        const double chunks = par.schedule == PipelineSchedule::interleaved_1f1b ? par.virtual_stages : 1;
        r.pp_s = (f.pp + b.pp) * chunks;
        // The experts' all-to-alls are on the critical path (Megatron-LM's all-to-all token
        // dispatcher runs them between the router and the experts).
        r.ep_s = f.ep + b.ep;
        r.forward_s = f.compute + tp_f + cp_f + f.pp * chunks + f.ep;
        r.backward_s = b.compute + tp_b + cp_b + b.pp * chunks + b.ep;
        r.wgrad_s = b.wgrad;

        const ParamCount held = count_slice_params(s.model, st.stage.groups, st.stage.first, st.stage.last, par.tp,
                                                   par.ep, expert_layout(par).etp);
        // Fine-tuning trains the adapters only: they alone have gradients to reduce, optimizer
        // state and updated parameters to gather (workload/peft.hpp).
        const bool peft = w.peft.on();
        const double psi = peft ? slice_adapter_params(s.model, st.stage.groups, w.peft, par.tp, par.ep,
                                                       expert_layout(par).etp)
                                : held.total();
        // Gradients are reduced in the framework's format (fp32: Megatron-LM's main_grad,
        // NeMo's grad_reduce_in_fp32, FSDP2's reduce_dtype; 16 bits: DeepSpeed), parameters
        // gathered in 16 bits; ZeRO-3 gathers every weight a pass reads, a frozen base in its
        // stored format (FSDP shards frozen parameters too).
        const double grad_bytes = fw.gradient_reduce_bytes * psi;
        const double bytes = model_state_bytes::kWeight * psi;
        const double gathered = peft ? frozen_weight_bytes(held, w.peft) + bytes : bytes;
        const double buckets = std::max(1.0, psi / bucket);
        const bool replicated = par.dp * par.cp > 1;
        const OffloadTimes off = offload_times(s, psi);
        if (par.zero >= 3 && (replicated || off.fetch_s > 0)) {
            const double layers = std::max<double>(1, static_cast<double>(st.stage.layers()));
            const double gather = replicated ? collective_time(CollectiveKind::all_gather, dp_spans, gathered, engine) : 0.0;
            // The framework's collective for the gradients: reduce-scatter, or all-reduce
            // (DeepSpeed's 2021 ZeRO-3).
            const double scatter =
                replicated ? collective_time(fw.sharded_gradient_reduce, dp_spans, grad_bytes, engine) : 0.0;
            // Exposed part of a pass's parameter traffic: what overlaps is prefetched layer by
            // layer behind the pass's compute (the gathers with overlap_param_gather, the
            // gradients' reduce-scatter with overlap_grad_reduce); the rest waits in line.
            auto exposed = [layers](double comm, double compute) { return std::max(comm / layers, comm - compute); };
            // A framework whose gathers synchronise the device (DeepSpeed 0.3) cannot overlap
            // them, whatever the workload asks.
            const bool pg = w.overlap_param_gather && fw.sharded_gather_overlaps;
            const bool gr = w.overlap_grad_reduce && fw.sharded_reduce_overlaps;
            auto forward = [&](double g) { return pg ? exposed(g, free_f) : g; };
            auto backward = [&](double g) {
                const double hidden = (pg ? g : 0) + (gr ? scatter : 0), waits = (pg ? 0 : g) + (gr ? 0 : scatter);
                return (hidden > 0 ? exposed(hidden, free_b) : 0) + waits;
            };
            r.zero3_s = forward(gather) + backward(gather);
            // Offloaded shards come over the host link first, pipelined with the gather.
            const double fetched = std::max(gather, off.fetch_s);
            const double zf = forward(fetched), zb = backward(fetched);
            r.offload_fetch_s = zf + zb - r.zero3_s;
            r.forward_s += zf;
            r.backward_s += zb;
        } else if (replicated) {
            const bool sharded = par.zero >= 1;
            sync.reduce_s = collective_time(sharded ? CollectiveKind::reduce_scatter : CollectiveKind::all_reduce,
                                            dp_spans, grad_bytes, engine);
            r.dp_bytes = grad_bytes + (sharded ? bytes : 0.0);
            if (sharded) sync.gather_s = collective_time(CollectiveKind::all_gather, dp_spans, bytes, engine);
        }
        const double shard = par.zero >= 1 ? psi / dp : psi;
        if (w.offload.optimizer == OffloadTarget::none) {
            r.optimizer_s = model_state_bytes::kAdamStepTraffic * shard / (s.system.chip.hbm_tb_s * 1e12 * s.system.chip.memory_efficiency);
        } else {
            sync.gradients_out_s = off.gradients_out_s;
            r.offload_s = off.host_step_s + off.parameters_in_s;
        }
        sync.buckets = buckets;
        syncs.push_back(sync);
        out.stages.push_back(r);
    }

    double sum = 0, slowest = 0, tail = 0, slowest_wgrad = 0;
    for (std::size_t i = 0; i < out.stages.size(); ++i) {
        const StageStep& r = out.stages[i];
        const double t = r.forward_s + r.backward_s;
        sum += t;
        if (t > slowest) {
            slowest = t;
            slowest_wgrad = r.wgrad_s;
            out.critical_stage = static_cast<int64_t>(i);
        }
    }
    // The per-step synchronisation hides behind the last micro-batch's passes. In the
    // pipeline's steady state every stage moves at the critical stage's pace, so each stage
    // hides behind the critical stage's t_F and t_B: a faster stage that is not critical does
    // not shorten the pipeline and does not expose more of its gradients either.
    const StageStep& critical = out.stages.empty() ? StageStep{} : out.stages[static_cast<std::size_t>(out.critical_stage)];
    for (std::size_t i = 0; i < out.stages.size(); ++i) {
        StageStep& r = out.stages[i];
        const StageSync& y = syncs[i];
        auto behind = [&](bool overlapped, double comm, double pass) {
            return overlapped ? std::max(comm / y.buckets, comm - pass) : comm;
        };
        r.dp_s = behind(w.overlap_grad_reduce, y.reduce_s, critical.backward_s) +
                 behind(w.overlap_param_gather, y.gather_s, critical.forward_s);
        r.offload_s += behind(w.overlap_grad_reduce, y.gradients_out_s, critical.backward_s);
        tail = std::max(tail, r.dp_s + r.optimizer_s + r.offload_s);
    }
    const double v = par.schedule == PipelineSchedule::interleaved_1f1b ? static_cast<double>(par.virtual_stages) : 1.0;
    // ZB-H1 fills the bubble with deferred weight gradients: (p−1)(t_F + t_B − t_W) instead
    // of (p−1)(t_F + t_B + t_W), t_B the input gradients only (Qi et al. 2024, the ZB-H1 row
    // of their schedule table); here T = t_F + t_B + t_W. A stage has only m weight-gradient
    // passes to defer, so with fewer micro-batches than p − 1 it fills m of the p − 1 slots.
    const double slots = static_cast<double>(out.stages.size()) - 1;
    const double deferrable = slots > 0 ? std::min(1.0, m / slots) : 0.0;
    const double fill = zero_bubble && slowest > 0
                            ? std::max(0.0, slowest - 2 * slowest_wgrad * deferrable) / slowest
                            : 1.0;
    out.pipeline_s = m * slowest + (sum - slowest) * fill / v;
    out.bubble_s = out.pipeline_s - m * slowest;
    out.step_s = out.pipeline_s + tail;
    return out;
}

}  // namespace envelope
