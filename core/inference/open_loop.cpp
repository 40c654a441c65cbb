#include "inference/open_loop.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/format.hpp"
#include "inference/evaluate.hpp"
#include "inference/serving.hpp"

namespace envelope {

OpenLoopTimes open_loop_times(const OpenLoop& c) {
    const bool budget = c.step_prompt_tokens > 0;
    const double chunks = budget ? c.input_tokens / c.step_prompt_tokens : 0.0;
    const double prompt = c.input_tokens * c.prompt_token_s;
    const double work = chunks * c.decode_step_s + prompt;  // W
    OpenLoopTimes t;
    t.prompt_load = c.rate * work;
    const double carried = c.rate * prompt;  // the steps' share of prompt tokens
    if (t.prompt_load >= 1 || carried >= 1) {
        t.stable = false;
        return t;
    }
    const double own = std::max(budget ? 1.0 : 0.0, chunks) * c.decode_step_s + prompt;
    t.queue_wait_s = t.prompt_load / (2 * (1 - t.prompt_load)) * work;
    t.ttft_s = c.decode_step_s / 2 + t.queue_wait_s + own;
    t.tpot_s = c.decode_step_s / (1 - carried);
    t.e2e_s = t.ttft_s + (c.output_tokens - 1) * t.tpot_s;
    t.in_engine = c.rate * (t.e2e_s - t.queue_wait_s);
    return t;
}

namespace {

// Decode step times at a real running batch n ≥ 1, linear between the integers; one
// static evaluation per integer asked.
class DecodeSteps {
public:
    explicit DecodeSteps(const Scenario& s) : s_(s) {
        s_.workload.inference.mode = ServingMode::static_batch;
        s_.parallelism.micro_batches = 0;
    }
    // {expected, roofline}
    std::pair<double, double> at(double n) {
        n = std::max(1.0, n);
        const double lo = std::floor(n), frac = n - lo;
        const auto a = integer(static_cast<int64_t>(lo));
        if (frac < 1e-9) return a;
        const auto b = integer(static_cast<int64_t>(lo) + 1);
        return {a.first + frac * (b.first - a.first), a.second + frac * (b.second - a.second)};
    }

private:
    std::pair<double, double> integer(int64_t n) {
        if (n == cached_n_) return cached_;
        s_.workload.inference.batch = n;
        s_.workload.inference.output_tokens = std::max<int64_t>(2, s_.workload.inference.output_tokens);
        const Result r = evaluate_inference(s_);
        cached_n_ = n;
        cached_ = {r.summary.tpot_s.value_or(0.0), r.roofline.tpot_s.value_or(0.0)};
        return cached_;
    }
    Scenario s_;
    int64_t cached_n_ = 0;
    std::pair<double, double> cached_{0, 0};
};

// The running batch n ∈ [1, n_max] where Little's law holds at rate λ (t_d from `steps`,
// expected or roofline); returns false when even n_max slots do not hold the load.
struct Solved {
    OpenLoopTimes times;
    double running = 1;
    bool fits = true;
};

Solved solve(OpenLoop loop, DecodeSteps& steps, bool roofline, double n_max) {
    const auto times_at = [&](double n) {
        const auto td = steps.at(n);
        loop.decode_step_s = roofline ? td.second : td.first;
        return open_loop_times(loop);
    };
    Solved out;
    out.times = times_at(1);
    if (out.times.stable && out.times.in_engine <= 1) return out;  // less than one running on average
    OpenLoopTimes top = times_at(n_max);
    if (!top.stable || top.in_engine > n_max) {
        out.fits = false;
        out.times = top;
        out.running = n_max;
        return out;
    }
    double lo = 1, hi = n_max;  // in_engine(lo) > lo (or unstable), in_engine(hi) ≤ hi
    for (int i = 0; i < 60 && hi - lo > 1e-6 * hi; ++i) {
        const double mid = (lo + hi) / 2;
        const OpenLoopTimes at = times_at(mid);
        (!at.stable || at.in_engine > mid ? lo : hi) = mid;
    }
    out.times = times_at(hi);
    out.running = hi;
    return out;
}

// The request rate served, per replica: λ, or over a finite run of N requests (each replica
// taking N/dp of them) N / ((N − 1)/λ + E2E), from the first arrival to the last completion.
double served_rate(double rate, double e2e_s, const Scenario& s) {
    const InferenceWorkload& w = s.workload.inference;
    if (w.requests <= 0) return rate;
    const double n = static_cast<double>(w.requests) / static_cast<double>(s.parallelism.dp);
    return n / (std::max(0.0, n - 1) / rate + e2e_s);
}

void write(const OpenLoopTimes& t, double rate, const Scenario& s, InferenceSummary& sum) {
    const InferenceWorkload& w = s.workload.inference;
    const double dp = static_cast<double>(s.parallelism.dp);
    sum.ttft_s = t.ttft_s;
    sum.tpot_s.reset();
    if (w.output_tokens > 1) sum.tpot_s = t.tpot_s;
    sum.e2e_latency_s = t.e2e_s;
    const double served = served_rate(rate, t.e2e_s, s);
    sum.output_tokens_per_s = dp * served * static_cast<double>(w.output_tokens);
    sum.output_tokens_per_s_per_chip = sum.output_tokens_per_s / static_cast<double>(sum.chips);
    sum.prefill_tokens_per_s = dp * served * static_cast<double>(w.input_tokens);
}

// The saturated engine serves at most its capacity (a finite run's too: its slots are at most
// its requests, and the closed loop at them already counts each request's E2E), and at most
// what is offered (the running batch may outgrow the slots a little below the closed loop's
// capacity, whose prompt steps batch more).
void write_saturated(double rate, double capacity, const Scenario& s, InferenceSummary& sum) {
    const InferenceWorkload& w = s.workload.inference;
    const double dp = static_cast<double>(s.parallelism.dp);
    const double served = std::min(rate, capacity);
    sum.output_tokens_per_s = dp * served * static_cast<double>(w.output_tokens);
    sum.output_tokens_per_s_per_chip = sum.output_tokens_per_s / static_cast<double>(sum.chips);
    sum.prefill_tokens_per_s = dp * served * static_cast<double>(w.input_tokens);
}

}  // namespace

Result evaluate_server(const Scenario& s) {
    const InferenceWorkload& w = s.workload.inference;
    const double dp = static_cast<double>(s.parallelism.dp);
    const double rate = w.request_rate / dp;  // λ per replica
    // A finite run of N requests never holds more than its N/dp on a replica.
    const int64_t per_replica = w.requests > 0 ? std::max<int64_t>(1, (w.requests + s.parallelism.dp - 1) / s.parallelism.dp) : w.batch;
    const int64_t slots = admitted_slots(s, std::min(w.batch, per_replica));

    // The capacity: the closed loop with every slot busy.
    Scenario full = s;
    full.workload.inference.mode = ServingMode::concurrency;
    full.workload.inference.batch = slots;
    Result r = evaluate_concurrency(full, LoopArrivals::spread);
    // Its network spans point into full's levels; the result must point into s's, which
    // outlives it (the same levels: full differs only in its workload).
    for (DimensionReport& d : r.network) {
        for (Span& span : d.spans) span.level = &s.system.network.levels[span.level_index];
    }
    const double capacity = r.summary.output_tokens_per_s / (dp * static_cast<double>(w.output_tokens));

    // The prompts a step takes: those that arrive while one is prefilled alone.
    const PromptStep alone = prompt_step(s, 1, 1);
    const double w1 = static_cast<double>(w.input_tokens) * alone.token_s;
    const auto k = static_cast<int64_t>(std::clamp(std::ceil(rate * w1), 1.0, static_cast<double>(slots)));
    const PromptStep step = k > 1 ? prompt_step(s, slots, k) : alone;

    OpenLoop loop;
    loop.rate = rate;
    loop.input_tokens = static_cast<double>(w.input_tokens);
    loop.output_tokens = static_cast<double>(w.output_tokens);
    loop.step_prompt_tokens = static_cast<double>(step.step_tokens);
    DecodeSteps steps(s);
    loop.prompt_token_s = step.token_s;
    const Solved expected = solve(loop, steps, false, static_cast<double>(slots));
    loop.prompt_token_s = step.token_roofline_s;
    const Solved bound = solve(loop, steps, true, static_cast<double>(slots));

    OpenLoopReport report;
    report.offered_requests_per_s = w.request_rate;
    report.capacity_requests_per_s = dp * capacity;
    report.slots = slots;
    report.saturated = !expected.fits || rate >= capacity;
    if (!report.saturated) {
        write(expected.times, rate, s, r.summary);
        report.running_sequences = expected.running;
        report.prompt_load = expected.times.prompt_load;
        report.queue_wait_s = expected.times.queue_wait_s;
        r.phases[0] = step.result.phases[0];
        r.loop = LoopPhases{w.batch, std::max<int64_t>(1, std::llround(expected.running)), step.prompts};
    } else {
        // The saturated engine: every slot busy, the closed loop's rates and latencies.
        report.running_sequences = static_cast<double>(slots);
        write_saturated(rate, capacity, s, r.summary);
        write_saturated(rate, capacity, s, r.roofline);
        r.warnings.push_back("saturated: the offered " + format_number(w.request_rate, 4) +
                             " requests/s exceed the engine's capacity of " + format_number(dp * capacity, 4) +
                             " requests/s (" + std::to_string(slots) +
                             " slots per replica); the queue grows without bound, and the rates and "
                             "latencies shown are the saturated engine's, without that queue");
    }
    if (bound.fits && rate < capacity) write(bound.times, rate, s, r.roofline);
    r.open_loop = report;
    return r;
}

}  // namespace envelope
