#include "inference/serving.hpp"

#include "inference/evaluate.hpp"

namespace envelope {

namespace {

// The steady state of N slots from the static batch of N (its decode steps) and one
// request's prefill (inference/serving.hpp).
void to_concurrency(const InferenceSummary& single, const Scenario& s, InferenceSummary& sum) {
    const InferenceWorkload& w = s.workload.inference;
    const double n = static_cast<double>(w.batch);
    const double out = static_cast<double>(w.output_tokens);
    const double dp = static_cast<double>(s.parallelism.dp);
    const double steps = out - 1;
    const double t_pre = single.ttft_s;
    const double t_dec = sum.tpot_s.value_or(0.0);
    const double cycle = n * t_pre + steps * t_dec;
    sum.ttft_s = t_pre + t_dec / 2;
    if (steps > 0) sum.tpot_s = t_dec + (n - 1) * t_pre / steps;
    sum.e2e_latency_s = sum.ttft_s + (steps > 0 ? steps * *sum.tpot_s : 0.0);
    sum.output_tokens_per_s = dp * n * out / cycle;
    sum.output_tokens_per_s_per_chip = sum.output_tokens_per_s / static_cast<double>(sum.chips);
    sum.prefill_tokens_per_s = dp * n * static_cast<double>(w.input_tokens) / cycle;
}

}  // namespace

Result evaluate_concurrency(const Scenario& s) {
    // The batch of N running sequences (its memory, its decode steps), evaluated on s itself:
    // the result's network spans point into the scenario's levels, so it must outlive it ...
    Result r = evaluate_inference(s);
    // ... and one request's prefill on its own (only its numbers are kept).
    Scenario one = s;
    one.workload.inference.batch = 1;
    one.parallelism.micro_batches = 0;
    const Result single = evaluate_inference(one);

    to_concurrency(single.summary, s, r.summary);
    to_concurrency(single.roofline, s, r.roofline);
    r.phases[0] = single.phases[0];  // the prefill reported is one request's
    return r;
}

}  // namespace envelope
