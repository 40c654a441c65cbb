#pragma once
// Serving at an offered request rate (the "server" mode: MLPerf Inference's Server and
// Interactive scenarios, vLLM's benchmark_serving --request-rate, Triton's perf_analyzer at a
// fixed rate): an open loop, requests arriving as a Poisson stream of λ per second on each
// replica (the job's rate over its dp replicas), each of I prompt and O output tokens.
//
// The engine is the closed loop's (inference/serving.hpp): steps of every running decode plus
// prompt tokens up to the budget B'. At rate λ, with n the sequences the engine runs:
//   t_d(n)  one decode step of n sequences (the static decode at batch n, linear between
//           the integers; n < 1 is the step of one)
//   t_p     a prompt token's time in a step of k = clamp(⌈λ·W₁⌉, 1, ⌊B'/I⌋) prompts, the
//           prompts that arrive while one is prefilled alone (W₁) join the next step
//   W       = (I/B')·t_d + I·t_p          one prompt's engine time (as the closed loop)
//   ρ       = λ·W                          the prompt queue's load
//   TTFT    = t_d/2 + ρ/(2(1−ρ))·W + max(1, I/B')·t_d + I·t_p
//             an arrival sees the time-average state (Poisson arrivals see time averages,
//             Wolff 1982), so f = 1 where the closed loop has (n−1)/n: half a step in
//             progress, the M/D/1 mean wait (Pollaczek–Khinchine with a deterministic
//             service: Wq = ρ/(2(1−ρ))·W), its own chunks
//   TPOT    = t_d / (1 − λ·I·t_p)         decode steps stretched by the prompt tokens they carry
//   n       = λ·(TTFT − Wq + (O − 1)·TPOT) Little's law over the sequences in the engine
// solved for n by bisection (the right side grows more slowly than n once stable).
// Stable when ρ < 1 and n fits the slots (the KV cache's and the scheduler's limit, as the
// closed loop admits them); then output tokens/s = dp·λ·O. Otherwise the engine is saturated:
// its capacity is the closed loop at the slot limit (every slot busy, X_cap), and the result
// says so (open_loop.saturated, a warning) with the rates and latencies of that saturated
// engine, the queue before it growing without bound. Means only: no percentile is given.
#include "result.hpp"
#include "scenario.hpp"

namespace envelope {

// The steady state of the open loop at a running batch: the formulas above, for tests.
struct OpenLoop {
    double rate = 0;            // λ, per replica
    double decode_step_s = 0;   // t_d at the running batch
    double prompt_token_s = 0;  // t_p
    double input_tokens = 1, output_tokens = 1;
    double step_prompt_tokens = 0;  // B'; 0: prefill-first, no budget
};

struct OpenLoopTimes {
    double ttft_s = 0, tpot_s = 0, e2e_s = 0;
    double queue_wait_s = 0;  // Wq, in TTFT
    double prompt_load = 0;   // ρ
    double in_engine = 0;     // λ·(E2E − Wq): the running sequences Little's law gives
    bool stable = true;       // ρ < 1 and λ·I·t_p < 1
};

OpenLoopTimes open_loop_times(const OpenLoop& loop);

// Precondition: check_scenario(s) passed and s's mode is server.
Result evaluate_server(const Scenario& s);

}  // namespace envelope
