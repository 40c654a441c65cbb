#include "inference/evaluate.hpp"

#include <algorithm>
#include <string>

#include "common/format.hpp"
#include "inference/speculative.hpp"
#include "model/params.hpp"
#include "ops/lower.hpp"
#include "parallel/placement.hpp"
#include "parallel/stages.hpp"
#include "perf/context_sum.hpp"
#include "perf/op_report.hpp"

namespace envelope {

namespace {

int64_t micro_batches_of(const Scenario& s) {
    const int64_t asked = s.parallelism.micro_batches > 0 ? s.parallelism.micro_batches : s.parallelism.pp;
    return std::clamp<int64_t>(asked, 1, s.workload.inference.batch);
}

// One stage's operators for one micro-batch.
struct StageOps {
    Stage stage;
    std::vector<Op> prefill;         // the prompt's (last) prefill pass
    std::vector<Op> prefill_chunks;  // chunked prefill: one earlier chunk, affine in its index
    std::vector<Op> decode;  // one decode step, or with speculation the target's check of a draft
    std::vector<Op> draft;   // with speculation: one step of the drafter (pp = 1)
};

struct Lowered {
    std::vector<StageOps> stages;
    int64_t earlier_chunks = 0;  // chunked prefill: the full chunks before the last pass
    int64_t micro_batches = 1;
    int64_t micro_batch = 1;
};

// Decode reads the offloaded share of the cache from the host instead of from HBM.
void offload_kv(std::vector<Op>& ops, double share) {
    for (Op& op : ops) {
        op.traffic.host_read = share * op.traffic.kv_read;
        op.traffic.kv_read = (1 - share) * op.traffic.kv_read;
    }
}

Lowered lower_inference(const Scenario& s) {
    const InferenceWorkload& w = s.workload.inference;
    Lowered out;
    out.micro_batches = micro_batches_of(s);
    out.micro_batch = (w.batch + out.micro_batches - 1) / out.micro_batches;
    const int64_t allocated = w.input_tokens + w.output_tokens;
    // Chunked prefill: the prompt's computed tokens in full chunks, then the rest (or the last
    // full chunk) as the pass that yields the first token.
    const int64_t cached = w.cached_prompt_tokens();
    const int64_t computed = w.input_tokens - cached;
    const int64_t chunk = w.prefill_chunk > 0 && w.prefill_chunk < computed ? w.prefill_chunk : computed;
    out.earlier_chunks = (computed - 1) / chunk;
    const int64_t before_last = cached + out.earlier_chunks * chunk;
    const Pass prefill = prefill_pass(out.micro_batch, w.input_tokens, allocated, before_last);
    const Pass chunks = chunk_pass(out.micro_batch, chunk, cached, allocated);
    const Speculative& sp = w.speculative;
    // Each decode step runs every beam of every sequence.
    const int64_t decoding = out.micro_batch * w.beams;
    const Pass decode = sp.on() ? verify_pass(decoding, allocated, sp.draft_tokens + 1) : decode_pass(decoding, allocated);
    for (Stage& stage : split_stages(s.model, s.parallelism)) {
        StageOps ops{std::move(stage), {}, {}, {}, {}};
        const Stage kinds = by_layer_kind(ops.stage);
        const LowerInput base{s.model, kinds, s.parallelism, w.precision, prefill, s.engine, w.flash_attention};
        ops.prefill = lower_forward(base);
        if (out.earlier_chunks > 0) {
            ops.prefill_chunks = lower_forward(LowerInput{s.model, kinds, s.parallelism, w.precision, chunks, s.engine,
                                                          w.flash_attention});
            for (Op& op : ops.prefill_chunks) op.variant = OpVariant::chunk;
        }
        ops.decode = lower_forward(LowerInput{s.model, kinds, s.parallelism, w.precision, decode, s.engine,
                                              w.flash_attention});
        if (w.kv_offload > 0) offload_kv(ops.decode, w.kv_offload);
        if (sp.on()) {
            const Model drafter = drafter_of(s);  // the ops keep no reference to it
            const Stage whole = split_stages(drafter, s.parallelism).front();
            const Pass step = decode_pass(decoding, allocated);
            ops.draft = lower_forward(LowerInput{drafter, whole, s.parallelism, w.precision, step, s.engine,
                                                 w.flash_attention});
            for (Op& op : ops.draft) op.variant = OpVariant::draft;
        }
        out.stages.push_back(std::move(ops));
    }
    return out;
}

const Spans* spans_of(const Op& op, const Placement& placement) {
    return op.cls == OpClass::collective ? &placement.of(op.dim).spans : nullptr;
}

// One stage's ops over decode contexts first..last (prefill: a single pass, 0..0), each
// run `runs` times (micro-batches), appended to the phase report. Returns the time of one
// micro-batch's passes over the range. Per-op numbers are per execution, averaged over
// the steps.
double time_stage(const StageOps& stage, const std::vector<Op>& ops, const Placement& placement,
                  const TimingContext& ctx, int64_t first, int64_t last, double runs, PhaseReport* phase) {
    double stage_time = 0;
    for (const Op& op : ops) {
        const Spans* spans = spans_of(op, placement);
        const TimeSum t = sum_over_context(roofs_of(op, spans, ctx), first, last, op.context_cap);
        stage_time += t.total_s * op.count;
        if (phase) add_op_report(*phase, op, t, stage.stage.index, first, last, runs, spans, ctx);
    }
    return stage_time;
}

// Prefill yields output token 1. Decode step k (1 … output−1) feeds output token k, which
// sits at position L = input + k and attends over L tokens.
struct Phases {
    PhaseReport prefill;
    PhaseReport decode;
};

Phases time_phases(const Lowered& lowered, const Scenario& s, const Placement& placement, TimingModel model,
                   bool report) {
    const TimingContext ctx{s.system.chip, s.engine, model, s.system.host.link_gbps};
    const InferenceWorkload& w = s.workload.inference;
    const double m = static_cast<double>(lowered.micro_batches);
    const double stages = static_cast<double>(lowered.stages.size());
    Phases p;
    p.prefill.kind = PhaseKind::prefill;
    p.decode.kind = PhaseKind::decode;
    p.prefill.steps = 1;
    p.decode.steps = w.output_tokens - 1;
    double prefill_sum = 0, prefill_max = 0, decode_sum = 0, decode_max = 0;
    for (const StageOps& st : lowered.stages) {
        double t = time_stage(st, st.prefill, placement, ctx, 0, 0, m, report ? &p.prefill : nullptr);
        if (lowered.earlier_chunks > 0) {  // chunks j = 0 … J − 1, summed in closed form over j
            t += time_stage(st, st.prefill_chunks, placement, ctx, 0, lowered.earlier_chunks - 1, m,
                            report ? &p.prefill : nullptr);
        }
        prefill_sum += t;
        prefill_max = std::max(prefill_max, t);
        if (p.decode.steps > 0) {
            // Speculation: a target pass and k drafter steps yield E tokens, so each context's
            // share is (t_verify + k·t_draft) / E (inference/speculative.hpp).
            const Speculative& sp = w.speculative;
            const double e = sp.tokens_per_step(), k = static_cast<double>(sp.draft_tokens);
            const int64_t first = w.input_tokens + 1, last = w.input_tokens + w.output_tokens - 1;
            double d = time_stage(st, st.decode, placement, ctx, first, last, m / e, report ? &p.decode : nullptr) / e;
            if (sp.on()) {
                d += k * time_stage(st, st.draft, placement, ctx, first, last, m * k / e, report ? &p.decode : nullptr) / e;
            }
            decode_sum += d;
            decode_max = std::max(decode_max, d);
        }
    }
    p.prefill.time_s = prefill_sum + (m - 1) * prefill_max;
    p.decode.time_s = std::max(decode_sum, m * decode_max);
    for (PhaseReport* phase : {&p.prefill, &p.decode}) {
        phase->flops /= stages;
        phase->bytes /= stages;
        phase->communication_s /= stages;
        phase->exposed_communication_s = phase->communication_s;  // no overlap in inference engines
    }
    return p;
}

InferenceSummary summarize(const Phases& p, const Scenario& s) {
    const InferenceWorkload& w = s.workload.inference;
    const Parallelism& par = s.parallelism;
    InferenceSummary sum;
    sum.chips = par.chips();
    sum.chips_per_replica = par.chips_per_replica();
    sum.replicas = par.dp;
    sum.params = count_params(s.model).total();
    sum.ttft_s = p.prefill.time_s;
    if (p.decode.steps > 0) sum.tpot_s = p.decode.time_s / static_cast<double>(p.decode.steps);
    sum.e2e_latency_s = p.prefill.time_s + p.decode.time_s;
    const double sequences = static_cast<double>(par.dp * w.batch);
    sum.output_tokens_per_s = sequences * static_cast<double>(w.output_tokens) / sum.e2e_latency_s;
    sum.output_tokens_per_s_per_chip = sum.output_tokens_per_s / static_cast<double>(sum.chips);
    sum.prefill_tokens_per_s = sequences * static_cast<double>(w.input_tokens) / sum.ttft_s;
    if (w.speculative.on()) sum.tokens_per_step = w.speculative.tokens_per_step();
    return sum;
}

std::vector<InferenceMemory> memory_of(const Lowered& lowered, const Scenario& s) {
    std::vector<InferenceMemory> out;
    out.reserve(lowered.stages.size());
    for (const StageOps& st : lowered.stages) {
        const StageMemoryInput in{s.model,  st.stage,          s.parallelism, s.workload.inference,
                                  s.engine, s.system.chip,     lowered.micro_batch};
        out.push_back(inference_memory(in, st.prefill, st.decode));
        if (st.stage.index == 0) add_drafter_memory(s, out.back());
    }
    return out;
}

// Per parallel dimension of size > 1: its spans, and the bytes and time of its collectives
// per chip over the whole run (mean over the stages).
std::vector<DimensionReport> network_of(const Phases& p, const Lowered& lowered, const Placement& placement) {
    std::vector<DimensionReport> out;
    const double stages = static_cast<double>(lowered.stages.size());
    for (const DimensionPlacement& d : placement.dims) {
        if (d.size <= 1) continue;
        DimensionReport r{d.dim, d.size, d.stride, d.spans, 0, 0};
        for (const PhaseReport* phase : {&p.prefill, &p.decode}) {
            for (const OpReport& op : phase->ops) {
                if (op.cls != OpClass::collective || op.dim != d.dim) continue;
                r.bytes += op.total_network_bytes / stages;
                r.time_s += op.total_time_s / stages;
            }
        }
        out.push_back(std::move(r));
    }
    return out;
}

void add_warnings(const Scenario& s, const InferenceMemory& mem, std::vector<std::string>& out) {
    const InferenceWorkload& w = s.workload.inference;
    const int64_t context = w.input_tokens + w.output_tokens;
    if (s.model.max_seq_len > 0 && context > s.model.max_seq_len) {
        out.push_back("input + output = " + std::to_string(context) + " tokens exceeds the context " +
                      s.model.name + " was trained for (" + std::to_string(s.model.max_seq_len) + ")");
    }
    const std::string where = s.parallelism.pp > 1 ? " on pipeline stage " + std::to_string(mem.stage) : std::string();
    if (mem.total_bytes > mem.capacity_bytes) {
        out.push_back("does not fit: " + format_gb(mem.total_bytes) + " needed per chip" + where + ", " +
                      format_gb(mem.capacity_bytes) + " available");
    } else if (!mem.fits) {
        out.push_back("does not fit: the KV cache needs " + format_gb(mem.kv_cache_bytes) + " per chip" + where +
                      ", and the engine gives it " + format_gb(mem.kv_budget_bytes) +
                      " (what its memory fraction and runtime reserve leave)");
    }
    if (!s.system.network_note.empty()) out.push_back(s.system.network_note);
    if (mem.host_kv_bytes > s.system.host.memory_gb * 1e9) {
        out.push_back("does not fit in host memory: the offloaded KV cache needs " + format_gb(mem.host_kv_bytes) +
                      " per chip, the host has " + format_gb(s.system.host.memory_gb * 1e9) +
                      " per chip (system.host.memory_gb)");
    }
    const int64_t used = s.parallelism.chips();
    if (s.system.count > used) {
        out.push_back(std::to_string(s.system.count - used) + " of " + std::to_string(s.system.count) +
                      " chips are idle: tp × pp × dp = " + std::to_string(used));
    }
    if (!s.system.chip.peak(Precision::fp32)) {
        out.push_back("chip " + s.system.chip.name +
                      " publishes no fp32 peak: elementwise ops are timed on the memory roof only");
    }
}

const InferenceMemory& largest(const std::vector<InferenceMemory>& stages) {
    return *std::max_element(stages.begin(), stages.end(), [](const InferenceMemory& a, const InferenceMemory& b) {
        return a.total_bytes < b.total_bytes;
    });
}

}  // namespace

std::vector<InferenceMemory> inference_memory_of(const Scenario& s) { return memory_of(lower_inference(s), s); }

Result evaluate_inference(const Scenario& s) {
    const Lowered lowered = lower_inference(s);
    const Placement placement = place(s.parallelism, s.system.network);
    Phases expected = time_phases(lowered, s, placement, TimingModel::expected, true);

    Result r;
    r.kind = WorkloadKind::inference;
    r.summary = summarize(expected, s);
    // The roofline bound: the same operators with ideal timing.
    r.roofline = summarize(time_phases(lowered, s, placement, TimingModel::roofline, false), s);
    r.pipeline.stages = static_cast<int64_t>(lowered.stages.size());
    r.pipeline.micro_batches = lowered.micro_batches;
    r.pipeline.micro_batch = lowered.micro_batch;
    r.pipeline.stage_layers = layers_per_stage(s.model, s.parallelism);
    r.network = network_of(expected, lowered, placement);
    r.memory = largest(memory_of(lowered, s));
    r.phases.push_back(std::move(expected.prefill));
    r.phases.push_back(std::move(expected.decode));
    add_warnings(s, r.memory, r.warnings);
    for (std::string& w : placement_warnings(placement, s.system.network)) r.warnings.push_back(std::move(w));
    return r;
}

}  // namespace envelope
