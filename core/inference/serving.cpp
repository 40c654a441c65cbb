#include "inference/serving.hpp"

#include <algorithm>
#include <cmath>

#include "inference/evaluate.hpp"

namespace envelope {

double md1_wait_s(double load, double service_s) { return load / (2 * (1 - load)) * service_s; }

double closed_loop_rate(double clients, double hi, const std::function<double(double)>& cycle_s) {
    if (!std::isfinite(hi)) hi = clients / std::max(cycle_s(0), 1e-300);  // no queue: no one else
    double lo = 0;
    for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i) {
        const double mid = (lo + hi) / 2;
        const double cycle = cycle_s(mid);
        (std::isfinite(cycle) && cycle > 0 && mid * cycle < clients ? lo : hi) = mid;
    }
    return lo;
}

LoopTimes steady_state(const ClosedLoop& c) {
    const double f = (c.slots - 1) / c.slots;
    const bool budget = c.step_prompt_tokens > 0;
    const double chunks = budget ? c.input_tokens / c.step_prompt_tokens : 0.0;
    const double prompt = c.input_tokens * c.prompt_token_s;
    const double work = chunks * c.decode_step_s + prompt;                                   // W
    const double own = f * std::max(budget ? 1.0 : 0.0, chunks) * c.decode_step_s + prompt;  // its chunks
    // A burst of n: k prompts a step, ⌈n/k⌉ steps; the mean prompt waits for half of them.
    const double k = std::clamp(c.step_prompts, 1.0, c.slots);
    const double burst_wait = work * (k * (std::ceil(c.slots / k) + 1) / 2 - 1);
    // The wait behind the others' prompts at request rate x. A round's requests come back
    // over their spread in decode steps, stretched by the others' prompts that run among them.
    const double others = (c.slots - 1) * work;
    auto wait_at = [&](double x) {
        const double cycle = x > 0 ? c.slots / x : INFINITY;
        const double window = c.spread_over_cycle ? cycle : std::min(c.spread_tokens * c.decode_step_s + others, cycle);
        const double load = window > 0 ? others / window : INFINITY;  // ρ_w
        const double spread = load < 1 ? std::min(md1_wait_s(load, work), burst_wait) : burst_wait;
        if (c.spread_over_cycle || c.rounds <= 0) return spread;
        const double rounds = std::max(c.rounds, 1.0);
        return (burst_wait + (rounds - 1) * spread) / rounds;
    };
    // E2E(X) in the slots, rising with the request rate X.
    auto times_at = [&](double x) {
        const double rho_c = f * x * prompt;
        LoopTimes out;
        out.tpot_s = c.decode_step_s / (1 - rho_c);
        out.ttft_s = f * c.decode_step_s / 2 + wait_at(x) + own;
        out.e2e_s = out.ttft_s + (c.output_tokens - 1) * out.tpot_s;
        return out;
    };
    // X ∈ (0, X_max): the engine prefills at most 1/W prompts a second (every slot's, its own
    // too), and the prompts' share of the steps stays below 1.
    const double hi = std::min(work > 0 ? 1 / work : INFINITY, f * prompt > 0 ? 1 / (f * prompt) : INFINITY);
    const double x = closed_loop_rate(c.slots, hi, [&](double r) { return times_at(r).e2e_s; });
    LoopTimes t = times_at(x);
    // At the prefill bound Little's law holds the cycle at n/X: the rest is a wait for the engine.
    const double short_by = x > 0 ? c.slots / x - t.e2e_s : 0.0;
    if (short_by > 0) {
        t.ttft_s += short_by;
        t.e2e_s += short_by;
    }
    t.requests_per_s = c.slots / t.e2e_s;
    t.slot_wait_s = (c.clients - c.slots) / t.requests_per_s;
    t.ttft_s += t.slot_wait_s;
    t.e2e_s += t.slot_wait_s;
    return t;
}

int64_t admitted_slots(Scenario s, int64_t clients) {
    if (s.engine.max_running_sequences > 0) clients = std::min(clients, s.engine.max_running_sequences);
    auto fits = [&](int64_t n) {
        s.workload.inference.batch = n;
        for (const InferenceMemory& m : inference_memory_of(s)) {
            if (m.kv_cache_bytes > m.kv_budget_bytes) return false;
        }
        return true;
    };
    if (fits(clients) || !fits(1)) return clients;
    int64_t lo = 1, hi = clients;  // fits(lo), not fits(hi)
    while (hi - lo > 1) {
        const int64_t mid = lo + (hi - lo) / 2;
        (fits(mid) ? lo : hi) = mid;
    }
    return lo;
}

PromptStep prompt_step(const Scenario& s, int64_t running, int64_t prompts_cap) {
    const InferenceWorkload& w = s.workload.inference;
    const int64_t budget = s.engine.max_prefill_tokens;
    const int64_t input = w.input_tokens;
    PromptStep p;
    p.step_tokens = budget > 0 ? std::max(budget - running, std::min(input, budget)) : 0;
    Scenario step = s;
    step.workload.inference.mode = ServingMode::static_batch;
    step.workload.inference.output_tokens = 1;
    step.parallelism.micro_batches = 0;
    if (p.step_tokens > 0 && input > p.step_tokens) {
        step.workload.inference.batch = 1;
        step.workload.inference.prefill_chunk = p.step_tokens;
    } else {
        step.workload.inference.batch =
            std::clamp<int64_t>(p.step_tokens > 0 ? p.step_tokens / input : 1, 1, std::max<int64_t>(1, prompts_cap));
    }
    p.prompts = step.workload.inference.batch;
    p.result = evaluate_inference(step);
    const double per_step = static_cast<double>(p.prompts * input);
    p.token_s = p.result.summary.ttft_s / per_step;
    p.token_roofline_s = p.result.roofline.ttft_s / per_step;
    return p;
}

namespace {

void to_concurrency(const LoopTimes& t, const Scenario& s, InferenceSummary& sum) {
    const InferenceWorkload& w = s.workload.inference;
    const double dp = static_cast<double>(s.parallelism.dp);
    sum.ttft_s = t.ttft_s;
    if (w.output_tokens > 1) sum.tpot_s = t.tpot_s;
    sum.e2e_latency_s = t.e2e_s;
    sum.output_tokens_per_s = dp * t.requests_per_s * static_cast<double>(w.output_tokens);
    sum.output_tokens_per_s_per_chip = sum.output_tokens_per_s / static_cast<double>(sum.chips);
    sum.prefill_tokens_per_s = dp * t.requests_per_s * static_cast<double>(w.input_tokens);
}

}  // namespace

Result evaluate_concurrency(const Scenario& s, LoopArrivals arrivals) {
    const InferenceWorkload& w = s.workload.inference;
    const int64_t slots = admitted_slots(s, w.batch);
    // The slots' decode steps and memory. The result's network spans point into the levels
    // of the scenario it was evaluated on, so they are taken from s, which outlives it ...
    Result r = evaluate_inference(s);
    if (slots < w.batch) {
        Scenario running = s;
        running.workload.inference.batch = slots;
        Result admitted_only = evaluate_inference(running);
        for (std::size_t i = 0; i < admitted_only.network.size(); ++i) admitted_only.network[i].spans = r.network[i].spans;
        r = std::move(admitted_only);
    }
    // ... and the prompt tokens of one step.
    const PromptStep step = prompt_step(s, slots, slots);

    ClosedLoop loop;
    loop.clients = static_cast<double>(w.batch);
    loop.slots = static_cast<double>(slots);
    loop.input_tokens = static_cast<double>(w.input_tokens);
    loop.output_tokens = static_cast<double>(w.output_tokens);
    loop.step_prompt_tokens = static_cast<double>(step.step_tokens);
    loop.step_prompts = static_cast<double>(step.prompts);
    // A finite run (a benchmark's --num-prompts) starts every client at once and goes in rounds;
    // an unbounded one is the steady state with the requests spread over the cycle.
    loop.spread_over_cycle = arrivals == LoopArrivals::spread || w.requests <= 0;
    // The output lengths' spread: uniform on [r·M, M] around this request's O (M = 2·O/(1 + r)),
    // of which n draws span (1 − r)·M·(n − 1)/(n + 1) on average.
    const double r_len = w.lengths.range_ratio;
    loop.spread_tokens = (1 - r_len) * 2 * loop.output_tokens / (1 + r_len) * (loop.slots - 1) / (loop.slots + 1);
    if (w.requests > 0) loop.rounds = static_cast<double>(w.requests) / static_cast<double>(s.parallelism.dp) / loop.clients;
    loop.decode_step_s = r.summary.tpot_s.value_or(0.0);
    loop.prompt_token_s = step.token_s;
    to_concurrency(steady_state(loop), s, r.summary);
    loop.decode_step_s = r.roofline.tpot_s.value_or(0.0);
    loop.prompt_token_s = step.token_roofline_s;
    to_concurrency(steady_state(loop), s, r.roofline);
    r.phases[0] = step.result.phases[0];  // the prefill reported is one step's prompts
    r.loop = LoopPhases{w.batch, slots, step.prompts};
    return r;
}

}  // namespace envelope
