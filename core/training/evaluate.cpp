#include "training/evaluate.hpp"

#include <algorithm>
#include <string>

#include "common/format.hpp"
#include "model/adapters.hpp"
#include "model/params.hpp"
#include "ops/backward.hpp"
#include "ops/quantize_casts.hpp"
#include "ops/lower.hpp"
#include "perf/context_sum.hpp"
#include "perf/op_report.hpp"
#include "training/check.hpp"
#include "training/fit_advice.hpp"
#include "training/flops.hpp"
#include "training/step.hpp"
#include "training/warnings.hpp"

namespace envelope {

namespace {

// The formats of a mixed-precision step: GEMM inputs (weights and activations) in the
// workload's format, everything between the GEMMs in 16 bits (fp8 recipes keep the
// residual stream, norms and gradients in bf16).
// A fine-tuning run's frozen base is read in its stored format when that is narrower than
// the GEMMs' (weight-only quantization, dequantized in the kernel: ops/builders.hpp); an NF4
// base in bf16, from the copy its dequantization writes (ops/lora.cpp).
PrecisionPlan plan_of(const TrainingWorkload& w) {
    PrecisionPlan p;
    p.weights = p.activations = w.precision;
    if (w.peft.on()) {
        if (const auto base = base_precision(w.peft.base); base && bytes_per_element(*base) < bytes_per_element(w.precision)) {
            p.weights = *base;
        }
    }
    p.residual = default_residual(w.precision);
    p.kv_cache = p.residual;
    return p;
}

std::vector<StageOps> lower_training(const Scenario& s, const PrecisionPlan& plan) {
    const TrainingWorkload& w = s.workload.training;
    const Pass pass = training_pass(w.micro_batch, w.seq_len, s.parallelism.cp);
    const Engine engine = training_engine(s.framework);
    std::vector<StageOps> out;
    for (Stage& stage : split_stages(s.model, s.parallelism)) {
        StageOps ops{std::move(stage), {}, {}};
        const Stage kinds = by_layer_kind(ops.stage);  // one op per kind of layer, counted
        const LowerInput in{s.model, kinds, s.parallelism, plan, pass, engine, w.flash_attention, w.dropout};
        ops.forward = lower_forward(in);
        add_peft(in, w.peft, ops.forward);
        ops.backward = lower_backward(ops.forward, w.recompute, plan.residual);
        add_quantize_casts(ops.forward, ops.backward);
        out.push_back(std::move(ops));
    }
    return out;
}

// Per-op reports of one micro-batch, every stage; total_time_s covers the step's m.
PhaseReport phase_of(PhaseKind kind, const std::vector<StageOps>& stages, const Placement& placement,
                     const TimingContext& ctx, double m) {
    PhaseReport phase;
    phase.kind = kind;
    phase.steps = 1;
    for (const StageOps& st : stages) {
        for (const Op& op : kind == PhaseKind::forward ? st.forward : st.backward) {
            if (op.cls == OpClass::host) continue;
            const Spans* spans = op.cls == OpClass::collective ? &placement.of(op.dim).spans : nullptr;
            const TimeSum t = time_at(roofs_of(op, spans, ctx), 0);
            add_op_report(phase, op, t, st.stage.index, 0, 0, m, spans, ctx);
        }
    }
    const double n = static_cast<double>(stages.size());
    phase.flops /= n;
    phase.bytes /= n;
    phase.communication_s /= n;
    return phase;
}

TrainingSummary summarize(const Scenario& s, const StepTime& step, int64_t m) {
    const TrainingWorkload& w = s.workload.training;
    const Parallelism& par = s.parallelism;
    TrainingSummary sum;
    sum.chips = par.chips();
    sum.replicas = par.dp;
    sum.micro_batches = m;
    sum.framework = s.framework.name;
    sum.params = count_params(s.model).total();
    sum.step_time_s = step.step_s;
    sum.tokens_per_step = static_cast<double>(w.global_batch) * static_cast<double>(w.seq_len);
    sum.tokens_per_s = sum.tokens_per_step / step.step_s;
    sum.tokens_per_s_per_chip = sum.tokens_per_s / static_cast<double>(sum.chips);
    const TrainingFlops flops = training_flops(s.model, w);
    sum.model_flops = flops.model;
    sum.hardware_flops = flops.hardware;
    const double chip_seconds = step.step_s * static_cast<double>(sum.chips);
    sum.model_tflops_per_chip = flops.model / chip_seconds / 1e12;
    sum.hardware_tflops_per_chip = flops.hardware / chip_seconds / 1e12;
    const double peak = s.system.chip.peak(w.precision).value_or(0);
    sum.mfu = peak > 0 ? sum.model_tflops_per_chip / peak : 0;
    sum.hfu = peak > 0 ? sum.hardware_tflops_per_chip / peak : 0;
    if (w.train_tokens > 0) {
        sum.train_time_s = w.train_tokens / sum.tokens_per_s;
        sum.chip_hours = *sum.train_time_s * static_cast<double>(sum.chips) / 3600;
    }
    sum.critical_stage = step.critical_stage;
    const StageStep& c = step.stages[static_cast<std::size_t>(step.critical_stage)];
    const double md = static_cast<double>(m);
    TrainingBreakdown& b = sum.breakdown;
    b.compute_s = md * c.compute_s;
    b.tp_s = md * c.tp_s;
    b.cp_s = md * c.cp_s;
    b.pp_s = md * c.pp_s;
    b.ep_s = md * c.ep_s;
    b.zero3_s = md * c.zero3_s;
    b.offload_s = md * c.offload_fetch_s;
    b.bubble_s = step.bubble_s;
    const double pipeline_rest =
        step.pipeline_s - (b.compute_s + b.tp_s + b.cp_s + b.pp_s + b.ep_s + b.zero3_s + b.offload_s + b.bubble_s);
    b.compute_s += pipeline_rest;  // rounding only: the parts of T_critical add up to it
    double tail = 0, tail_offload = 0;
    for (const StageStep& r : step.stages) {
        if (r.dp_s + r.optimizer_s + r.offload_s >= tail) {
            tail = r.dp_s + r.optimizer_s + r.offload_s;
            b.dp_s = r.dp_s;
            b.optimizer_s = r.optimizer_s;
            tail_offload = r.offload_s;
        }
    }
    b.offload_s += tail_offload;
    return sum;
}

}  // namespace

Result evaluate_training(const Scenario& s) {
    const TrainingWorkload& w = s.workload.training;
    const PrecisionPlan plan = plan_of(w);
    const std::vector<StageOps> stages = lower_training(s, plan);
    const Placement placement = place(s.parallelism, s.system.network);
    const int64_t m = training_micro_batches(s);
    const StepTime step = training_step(s, stages, placement, m);

    Result r;
    r.kind = WorkloadKind::training;
    r.training = summarize(s, step, m);
    r.pipeline.stages = static_cast<int64_t>(stages.size());
    r.pipeline.micro_batches = m;
    r.pipeline.micro_batch = w.micro_batch;
    r.pipeline.stage_layers = layers_per_stage(s.model, s.parallelism);
    r.pipeline.virtual_stages = s.parallelism.virtual_stages;
    r.pipeline.schedule = s.parallelism.schedule;

    const Engine engine = training_engine(s.framework);
    const TimingContext ctx{s.system.chip, engine, TimingModel::expected, 0, true};
    const double md = static_cast<double>(m);
    r.phases.push_back(phase_of(PhaseKind::forward, stages, placement, ctx, md));
    r.phases.push_back(phase_of(PhaseKind::backward, stages, placement, ctx, md));
    // The critical stage's passes over the step's micro-batches, and what of their
    // communication stays exposed.
    const StageStep& c = step.stages[static_cast<std::size_t>(step.critical_stage)];
    const double exposed[] = {c.forward_s - c.forward_compute_s, c.backward_s - c.backward_compute_s};
    const double pass[] = {c.forward_s, c.backward_s};
    for (std::size_t i = 0; i < 2; ++i) {
        PhaseReport& phase = r.phases[i];
        phase.time_s = md * pass[i];
        phase.communication_s = 0;  // the critical stage's, as its time
        for (const OpReport& op : phase.ops) {
            if (op.cls == OpClass::collective && op.stage == step.critical_stage) phase.communication_s += op.total_time_s;
        }
        phase.exposed_communication_s = std::min(phase.communication_s, md * exposed[i]);
    }

    for (const StageOps& st : stages) {
        r.training_memory.push_back(
            training_memory(TrainingMemoryInput{s.model, st.stage, s.parallelism, w, s.system.chip, m, s.system.host.memory_gb}));
    }
    r.fit_advice = fit_advice(s);
    add_training_warnings(s, r.training, r.training_memory, r.fit_advice, r.warnings);
    for (std::string& w : placement_warnings(placement, s.system.network)) r.warnings.push_back(std::move(w));

    // Network per dimension: the step's collectives of every stage (mean per chip), and the
    // data-parallel synchronisation of the critical stage.
    for (const DimensionPlacement& d : placement.dims) {
        if (d.size <= 1) continue;
        DimensionReport rep{d.dim, d.size, d.stride, d.spans, 0, 0};
        for (const PhaseReport& phase : r.phases) {
            for (const OpReport& op : phase.ops) {
                if (op.cls != OpClass::collective || op.dim != d.dim) continue;
                rep.bytes += op.total_network_bytes / static_cast<double>(stages.size());
                rep.time_s += op.total_time_s / static_cast<double>(stages.size());
            }
        }
        if (d.dim == ParallelDim::dp) {
            rep.time_s += r.training.breakdown.dp_s;
            rep.bytes += c.dp_bytes;
        }
        r.network.push_back(std::move(rep));
    }
    return r;
}

}  // namespace envelope
