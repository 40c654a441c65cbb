#include "inference/disaggregated.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/error.hpp"
#include "inference/check.hpp"
#include "inference/evaluate.hpp"
#include "inference/serving.hpp"
#include "memory/inference_memory.hpp"
#include "parallel/check.hpp"
#include "parallel/stages.hpp"

namespace envelope {

namespace {

// One pool's worker as a scenario of its own: its layout, a static batch per rank.
Scenario pool_scenario(const Scenario& s, const ServingPool& pool, int64_t batch, int64_t output_tokens) {
    Scenario p = s;
    p.disaggregated.reset();
    p.parallelism = pool.layout;
    p.system.count = pool.layout.chips();  // one worker: the others run beside it
    p.workload.inference.mode = ServingMode::static_batch;
    p.workload.inference.batch = batch;
    p.workload.inference.output_tokens = output_tokens;
    return p;
}

// The most KV cache one chip of the layout holds of a request's prompt (its largest stage).
double chip_kv_bytes(const Scenario& s, const Parallelism& layout, const InferenceWorkload& prompt) {
    double most = 0;
    for (const Stage& st : split_stages(s.model, layout)) {
        most = std::max(most, kv_cache_elements(s.model, st, layout.tp, prompt));
    }
    return most * bytes_per_element(prompt.precision.kv_cache);
}

// The roof binding most of a phase's time.
Bound dominant_bound(const PhaseReport& phase) {
    double by[kBoundCount] = {};
    for (const OpReport& op : phase.ops) by[static_cast<int>(op.bound)] += op.total_time_s;
    return static_cast<Bound>(std::max_element(std::begin(by), std::end(by)) - std::begin(by));
}

void summarize(const DisaggregatedTimes& v, const Scenario& s, double decode_step_s, InferenceSummary& sum) {
    const InferenceWorkload& w = s.workload.inference;
    sum.chips = s.disaggregated->chips();
    sum.chips_per_replica = sum.chips;
    sum.replicas = 1;
    sum.ttft_s = v.ttft_s;
    sum.tpot_s.reset();
    if (w.output_tokens > 1) sum.tpot_s = decode_step_s;
    sum.e2e_latency_s = v.e2e_s;
    sum.output_tokens_per_s = v.requests_per_s * static_cast<double>(w.output_tokens);
    sum.output_tokens_per_s_per_chip = sum.output_tokens_per_s / static_cast<double>(sum.chips);
    sum.prefill_tokens_per_s = v.requests_per_s * static_cast<double>(w.input_tokens);
}

}  // namespace

DisaggregatedTimes disaggregated_steady_state(const DisaggregatedLoop& c) {
    const double f = (c.clients - 1) / c.clients;
    const double decode_s = (c.output_tokens - 1) * c.decode_step_s;
    auto at = [&](double x) {
        DisaggregatedTimes out;
        out.requests_per_s = x;
        out.prefill_load = f * x * c.prompt_share_s / c.prefill_ranks;
        out.prefill_wait_s = md1_wait_s(out.prefill_load, c.prompt_share_s);
        out.ttft_s = out.prefill_wait_s + c.prompt_alone_s + c.transfer_s + c.decode_step_s / 2;
        out.e2e_s = out.ttft_s + decode_s;
        return out;
    };
    const double hi = f * c.prompt_share_s > 0 ? c.prefill_ranks / (f * c.prompt_share_s) : INFINITY;
    DisaggregatedTimes out = at(closed_loop_rate(c.clients, hi, [&](double x) { return at(x).e2e_s; }));
    const double decode_cap = decode_s > 0 ? c.decode_ranks * c.slots_per_rank / decode_s : INFINITY;
    if (out.requests_per_s > decode_cap) {
        out = at(decode_cap);
        out.slot_wait_s = std::max(0.0, c.clients / decode_cap - out.e2e_s);
        out.ttft_s += out.slot_wait_s;
        out.e2e_s += out.slot_wait_s;
        out.binds = PoolBound::decode_slots;
    } else if (out.prefill_load >= 2.0 / 3) {  // the wait for a prefill rank ≥ the prefill itself
        out.binds = PoolBound::prefill;
    }
    return out;
}

KvMove kv_move(const Scenario& s) {
    const Disaggregated& d = *s.disaggregated;
    InferenceWorkload prompt = s.workload.inference;
    prompt.output_tokens = 0;  // the prompt's cache: what prefill computed
    prompt.beams = 1;
    KvMove m;
    const double whole = chip_kv_bytes(s, Parallelism{}, prompt);
    m.bytes_per_token = whole / static_cast<double>(prompt.input_tokens);
    m.send_chip_bytes = chip_kv_bytes(s, d.prefill.layout, prompt);
    m.receive_chip_bytes = chip_kv_bytes(s, d.decode.layout, prompt);
    // The innermost level that joins every chip of the deployment (the outermost there is).
    const Network& net = s.system.network;
    for (std::size_t i = 0; i < net.levels.size(); ++i) {
        m.level = &net.levels[i];
        if (net.chips_per_unit(i) >= static_cast<double>(d.chips())) break;
    }
    return m;
}

void check_disaggregated(const Scenario& s) {
    const Disaggregated& d = *s.disaggregated;
    const InferenceWorkload& w = s.workload.inference;
    if (s.workload.kind != WorkloadKind::inference || w.mode != ServingMode::concurrency) {
        throw InputError("disaggregated", "disaggregated serving is modelled as a closed loop of clients: give "
                                          "workload.mode \"concurrency\" (workload.batch: the clients of the deployment)");
    }
    for (const auto& [name, pool] : {std::pair<const char*, const ServingPool*>{"prefill", &d.prefill}, {"decode", &d.decode}}) {
        const Scenario p = pool_scenario(s, *pool, 1, name == std::string("prefill") ? 1 : w.output_tokens);
        try {
            check_parallelism(p.parallelism, p.model, p.system);
            check_inference(p);
        } catch (const InputError& e) {
            const std::string& path = e.path();
            const bool layout = path.rfind("parallelism", 0) == 0;
            throw InputError(layout ? "disaggregated." + std::string(name) + "." + path : path,
                             std::string("the ") + name + " pool's worker: " + e.what());
        }
    }
    if (d.chips() > s.system.count) {
        throw InputError("disaggregated", "the pools need " + std::to_string(d.chips()) + " chips (prefill " +
                                              std::to_string(d.prefill.chips()) + " + decode " +
                                              std::to_string(d.decode.chips()) + "), more than system.count = " +
                                              std::to_string(s.system.count));
    }
}

Result evaluate_disaggregated(const Scenario& s) {
    const Disaggregated& d = *s.disaggregated;
    const InferenceWorkload& w = s.workload.inference;
    const double clients = static_cast<double>(w.batch);
    const auto per_rank = [&](const ServingPool& p) { return (w.batch + p.ranks() - 1) / p.ranks(); };

    // The prefill ranks' steps, under the token budget, and one prompt alone.
    const Scenario prefill = pool_scenario(s, d.prefill, 1, 1);
    const PromptStep step = prompt_step(prefill, 0, per_rank(d.prefill));
    const PromptStep alone = step.prompts > 1 ? prompt_step(prefill, 0, 1) : step;
    const double input = static_cast<double>(w.input_tokens);

    // The decode ranks' slots.
    Scenario decode = pool_scenario(s, d.decode, per_rank(d.decode), w.output_tokens);
    int64_t slots = admitted_slots(decode, per_rank(d.decode));
    if (d.decode.batch_per_rank > 0) slots = std::min(slots, d.decode.batch_per_rank);

    // The KV cache's move.
    const KvMove move = kv_move(s);
    KvTransferReport tr;
    tr.bytes_per_token = move.bytes_per_token;
    tr.bytes = move.bytes_per_token * input;
    tr.chip_bytes = std::max(move.send_chip_bytes, move.receive_chip_bytes);
    tr.layerwise = d.kv_transfer == KvTransferMode::layerwise;
    if (move.level) {
        tr.level = move.level->name;
        tr.link_bytes_per_s = move.level->achievable_bytes_per_s();
        tr.time_s = tr.chip_bytes / tr.link_bytes_per_s + move.level->latency_us * 1e-6;
    }
    const double layers = static_cast<double>(s.model.layers());
    const auto exposed = [&](double prefill_s) {
        return tr.layerwise ? std::max(tr.time_s / layers, tr.time_s - prefill_s) : tr.time_s;
    };

    // The running decode batch, from Little's law over the decode pool.
    int64_t n = std::min(slots, per_rank(d.decode));
    DisaggregatedLoop loop;
    loop.clients = clients;
    loop.prefill_ranks = static_cast<double>(d.prefill.ranks());
    loop.decode_ranks = static_cast<double>(d.decode.ranks());
    loop.slots_per_rank = static_cast<double>(slots);
    loop.output_tokens = static_cast<double>(w.output_tokens);
    Result r;
    DisaggregatedTimes v;
    for (int pass = 0; pass < 4; ++pass) {
        decode.workload.inference.batch = n;
        r = evaluate_inference(decode);
        loop.prompt_share_s = step.token_s * input;
        loop.prompt_alone_s = alone.result.summary.ttft_s;
        loop.decode_step_s = r.summary.tpot_s.value_or(0.0);
        loop.transfer_s = exposed(loop.prompt_alone_s);
        v = disaggregated_steady_state(loop);
        const double running = v.requests_per_s * (loop.output_tokens - 1) * loop.decode_step_s / loop.decode_ranks;
        const int64_t next = std::clamp<int64_t>(std::llround(running), 1, slots);
        if (next == n) break;
        n = next;
    }
    const double decode_step_s = loop.decode_step_s, prefill_s = loop.prompt_alone_s;
    summarize(v, s, decode_step_s, r.summary);
    DisaggregatedLoop roof = loop;
    roof.prompt_share_s = step.token_roofline_s * input;
    roof.prompt_alone_s = alone.result.roofline.ttft_s;
    roof.decode_step_s = r.roofline.tpot_s.value_or(0.0);
    roof.transfer_s = exposed(roof.prompt_alone_s);
    summarize(disaggregated_steady_state(roof), s, roof.decode_step_s, r.roofline);

    // The decode worker's network spans point into its own copy of the system: into s's.
    for (DimensionReport& dim : r.network) {
        for (Span& sp : dim.spans) sp.level = &s.system.network.levels[sp.level_index];
    }
    r.phases[0] = step.result.phases[0];  // one prefill step of the prefill ranks
    for (const std::string& warning : step.result.warnings) r.warnings.push_back("prefill pool: " + warning);
    r.loop.reset();

    DisaggregatedReport rep;
    rep.prefill = PoolReport{d.prefill.workers, d.prefill.chips(), d.prefill.ranks(), step.prompts, step.prompts,
                             step.result.summary.ttft_s, v.prefill_load, dominant_bound(step.result.phases[0])};
    rep.decode = PoolReport{d.decode.workers, d.decode.chips(), d.decode.ranks(), n, slots, decode_step_s,
                            static_cast<double>(n) / static_cast<double>(slots), dominant_bound(r.phases[1])};
    tr.exposed_s = loop.transfer_s;
    rep.transfer = tr;
    rep.binds = v.binds;
    rep.requests_per_s = v.requests_per_s;
    rep.prefill_wait_s = v.prefill_wait_s;
    rep.prefill_s = prefill_s;
    rep.decode_join_s = decode_step_s / 2;
    rep.slot_wait_s = v.slot_wait_s;
    r.disaggregated = rep;
    return r;
}

}  // namespace envelope
