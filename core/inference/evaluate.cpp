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
PhaseReport time_phase(const std::vector<Op>& ops, const System& sys, int64_t first,
                       int64_t last) {
    PhaseReport phase;
    phase.steps = last >= first ? last - first + 1 : 0;
    if (phase.steps == 0) return phase;  // e.g. decode when only one token is generated
    phase.ops.reserve(ops.size());
    const double steps = static_cast<double>(phase.steps);
    for (const Op& op : ops) {
        const NetworkLevel* level =
            op.cls == OpClass::collective ? level_for_group(sys.network, op.group) : nullptr;
        const TimeSum t = sum_over_context(roofs_of(op, sys.chip, level), first, last);

        OpReport r;
        r.name = op.name;
        r.cls = op.cls;
        r.precision = op.precision;
        r.count = op.count;
        r.bound = t.dominant();
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

InferenceMemory inference_memory_of(const Scenario& s) {
    const Model& m = s.model;
    const InferenceWorkload& w = s.workload;
    const TpShard shard = shard_for_tp(m, w.parallelism.tp);
    return inference_memory(
        s, lower_forward(LowerInput{m, shard, w.precision, prefill_pass(w.batch, w.input_tokens), w.flash_attention}),
        lower_forward(LowerInput{m, shard, w.precision, decode_pass(w.batch), w.flash_attention}));
}

InferenceResult evaluate_inference(const Scenario& s) {
    const Model& m = s.model;
    const InferenceWorkload& w = s.workload;
    const TpShard shard = shard_for_tp(m, w.parallelism.tp);

    const Pass prefill = prefill_pass(w.batch, w.input_tokens);
    const Pass decode = decode_pass(w.batch);
    const std::vector<Op> prefill_ops =
        lower_forward(LowerInput{m, shard, w.precision, prefill, w.flash_attention});
    const std::vector<Op> decode_ops =
        lower_forward(LowerInput{m, shard, w.precision, decode, w.flash_attention});

    InferenceResult r;
    r.prefill = time_phase(prefill_ops, s.system, 0, 0);
    // Prefill yields output token 1. Decode step k (1 … output−1) feeds output token k,
    // which sits at position L = input + k and attends over L tokens.
    r.decode = time_phase(decode_ops, s.system, w.input_tokens + 1,
                          w.input_tokens + w.output_tokens - 1);
    r.memory = inference_memory(s, prefill_ops, decode_ops);

    InferenceSummary& sum = r.summary;
    sum.chips = w.parallelism.tp;
    sum.params = count_params(m).total(m.layers);
    sum.ttft_s = r.prefill.time_s;
    if (r.decode.steps > 0) sum.tpot_s = r.decode.time_s / static_cast<double>(r.decode.steps);
    sum.e2e_latency_s = r.prefill.time_s + r.decode.time_s;
    const double batch = static_cast<double>(w.batch);
    sum.output_tokens_per_s = batch * static_cast<double>(w.output_tokens) / sum.e2e_latency_s;
    sum.output_tokens_per_s_per_chip = sum.output_tokens_per_s / static_cast<double>(sum.chips);
    sum.prefill_tokens_per_s = batch * static_cast<double>(w.input_tokens) / sum.ttft_s;

    add_warnings(s, r.memory, r.warnings);
    return r;
}

}  // namespace envelope
