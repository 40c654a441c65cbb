#include "inference/evaluate.hpp"

#include <string>

#include "common/format.hpp"

#include "model/params.hpp"
#include "ops/lower.hpp"
#include "parallel/placement.hpp"
#include "perf/context_sum.hpp"

namespace envelope {

namespace {

// Time a pass's ops over decode contexts first..last (prefill: a single pass, 0..0) and
// fill the phase report. Per-op numbers are per execution, averaged over the steps.
PhaseReport time_phase(const std::vector<Op>& ops, const System& sys, const TimingContext& ctx,
                       int64_t first, int64_t last) {
    PhaseReport phase;
    phase.steps = last >= first ? last - first + 1 : 0;
    if (phase.steps == 0) return phase;  // e.g. decode when only one token is generated
    phase.ops.reserve(ops.size());
    const double steps = static_cast<double>(phase.steps);
    for (const Op& op : ops) {
        const NetworkLevel* level =
            op.cls == OpClass::collective ? level_for_group(sys.network, op.group) : nullptr;
        const TimeSum t = sum_over_context(roofs_of(op, level, ctx), first, last);

        OpReport r;
        r.name = op.name;
        r.cls = op.cls;
        r.precision = op.precision;
        r.count = op.count;
        r.bound = op.cls == OpClass::host ? Bound::overhead : t.dominant();
        r.total_time_s = t.total_s * op.count;
        r.flops = sum_affine(op.flops, first, last) / steps;
        r.bytes_read = sum_affine(op.traffic.read(), first, last) / steps;
        r.bytes_written = sum_affine(op.traffic.written(), first, last) / steps;
        r.network_bytes = sum_affine(op.message_bytes, first, last) / steps;
        r.time_s = t.total_s / steps;
        phase.time_s += r.total_time_s;
        phase.flops += r.flops * op.count * steps;
        phase.bytes += (r.bytes_read + r.bytes_written) * op.count * steps;
        phase.ops.push_back(r);
    }
    return phase;
}

void add_warnings(const Scenario& s, const InferenceMemory& mem, std::vector<std::string>& out) {
    const InferenceWorkload& w = s.workload;
    const int64_t context = w.input_tokens + w.output_tokens;
    if (s.model.max_seq_len > 0 && context > s.model.max_seq_len) {
        out.push_back("input + output = " + std::to_string(context) + " tokens exceeds the context " +
                      s.model.name + " was trained for (" + std::to_string(s.model.max_seq_len) + ")");
    }
    if (!mem.fits) {
        out.push_back("does not fit: " + format_gb(mem.total_bytes) + " needed per chip, " +
                      format_gb(mem.capacity_bytes) + " available");
    }
    if (s.system.count > w.parallelism.tp) {
        out.push_back(std::to_string(s.system.count - w.parallelism.tp) + " of " +
                      std::to_string(s.system.count) +
                      " chips are idle: one replica uses TP = " + std::to_string(w.parallelism.tp));
    }
    if (!s.system.chip.peak(Precision::fp32)) {
        out.push_back("chip " + s.system.chip.name +
                      " publishes no fp32 peak: elementwise ops are timed on the memory roof only");
    }
}

}  // namespace

namespace {

struct Lowered {
    std::vector<Op> prefill;
    std::vector<Op> decode;
};

Lowered lower_inference(const Scenario& s) {
    const Model& m = s.model;
    const InferenceWorkload& w = s.workload;
    const TpShard shard = shard_for_tp(m, w.parallelism.tp);
    const int64_t allocated = w.input_tokens + w.output_tokens;
    const Pass prefill = prefill_pass(w.batch, w.input_tokens, allocated);
    const Pass decode = decode_pass(w.batch, allocated);
    return {lower_forward(LowerInput{m, shard, w.precision, prefill, s.engine, w.flash_attention}),
            lower_forward(LowerInput{m, shard, w.precision, decode, s.engine, w.flash_attention})};
}

// Prefill yields output token 1. Decode step k (1 … output−1) feeds output token k, which
// sits at position L = input + k and attends over L tokens.
struct Phases {
    PhaseReport prefill;
    PhaseReport decode;
};
Phases time_phases(const Lowered& ops, const Scenario& s, TimingModel model) {
    const TimingContext ctx{s.system.chip, s.engine, model};
    const InferenceWorkload& w = s.workload;
    return {time_phase(ops.prefill, s.system, ctx, 0, 0),
            time_phase(ops.decode, s.system, ctx, w.input_tokens + 1, w.input_tokens + w.output_tokens - 1)};
}

InferenceSummary summarize(const Phases& p, const Scenario& s) {
    const InferenceWorkload& w = s.workload;
    InferenceSummary sum;
    sum.chips = w.parallelism.tp;
    sum.params = count_params(s.model).total(s.model.layers);
    sum.ttft_s = p.prefill.time_s;
    if (p.decode.steps > 0) sum.tpot_s = p.decode.time_s / static_cast<double>(p.decode.steps);
    sum.e2e_latency_s = p.prefill.time_s + p.decode.time_s;
    const double batch = static_cast<double>(w.batch);
    sum.output_tokens_per_s = batch * static_cast<double>(w.output_tokens) / sum.e2e_latency_s;
    sum.output_tokens_per_s_per_chip = sum.output_tokens_per_s / static_cast<double>(sum.chips);
    sum.prefill_tokens_per_s = batch * static_cast<double>(w.input_tokens) / sum.ttft_s;
    return sum;
}

}  // namespace

InferenceMemory inference_memory_of(const Scenario& s) {
    const Lowered ops = lower_inference(s);
    return inference_memory(s, ops.prefill, ops.decode);
}

InferenceResult evaluate_inference(const Scenario& s) {
    const Lowered ops = lower_inference(s);
    Phases expected = time_phases(ops, s, TimingModel::expected);

    InferenceResult r;
    r.summary = summarize(expected, s);
    // The roofline bound: the same operators with ideal timing.
    r.roofline = summarize(time_phases(ops, s, TimingModel::roofline), s);
    r.prefill = std::move(expected.prefill);
    r.decode = std::move(expected.decode);
    r.memory = inference_memory(s, ops.prefill, ops.decode);
    add_warnings(s, r.memory, r.warnings);
    return r;
}

}  // namespace envelope
