#pragma once
// Continuous batching at a fixed concurrency (the "concurrency" mode of the measured-case
// format: a closed loop of N clients per replica, each sending its next request of I prompt
// and O output tokens as soon as its last one finishes; vLLM's and SGLang's benchmark_serving
// --max-concurrency, TensorRT-LLM's trtllm-bench --concurrency).
//
// The engine (vLLM V1, SGLang, TensorRT-LLM's in-flight batching) runs steps: every step
// carries one decode token of each running sequence plus prompt tokens of waiting requests up
// to a token budget B (max_num_batched_tokens, chunked prefill: Agrawal et al. 2024,
// Sarathi-Serve, arXiv:2403.02310 §4). Its steady state, from the static model's times:
//   n       slots: the clients whose KV caches fit the engine's KV budget (at most N); the
//           other N − n wait for a slot
//   t_d     one decode step of n sequences (the static decode at batch n, per step)
//   t_p     a prompt token's time in a step: the static prefill of k = min(⌊B'/I⌋, n) ≥ 1
//           prompts (or one chunk of B' tokens when I > B'), per token
//   B'      the prompt tokens a step takes: max(B − n, min(I, B)) (engines raise the budget
//           to hold every running decode plus a chunk); no budget (B = 0): prefill-first
//           steps of whole prompts that carry no decodes (vLLM V0)
//   f       (n − 1)/n: a request sees the others, not itself (the arrival theorem of closed
//           queueing networks, Lavenberg & Reiser 1980)
//   W       = (I/B')·t_d + I·t_p     the engine time one prompt's chunks take (t_d shared with
//                                    the decodes riding in the same steps; 0 without a budget)
// The clients arrive in rounds (METHODOLOGY §15.2): a benchmark starts all n at once (a
// burst), and since every step carries every running decode, each request's decode is held
// back by the others' prefills as much as theirs by its own, so a round's requests finish
// within the spread of their output lengths, w = s·TPOT (s = (1 − r)·M_O·(n − 1)/(n + 1)
// output tokens: the expected range of n lengths uniform on [r·M_O, M_O]; 0 for fixed
// lengths: lockstep), and come back together:
//   wait_b  = W·(k·(⌈n/k⌉ + 1)/2 − 1)   the mean wait of a burst of n, prefilled k a step
//   ρ_w     = (n − 1)·W / min(w, n/X)   the load of the others' prompts over the window they
//                                      arrive in (over the whole cycle n/X when spread out)
//   wait_r  = min(ρ_w/(2(1−ρ_w))·W, wait_b)   the M/D/1 wait at that load, at most a burst's
//   wait    = (wait_b + (R − 1)·wait_r)/R     over a run of R = requests/n rounds (R → ∞:
//                                            wait_r; with arrivals spread over the cycle, as
//                                            the server mode's capacity has them: wait_r at w = ∞)
//   TTFT    = f·t_d/2 + wait + f·max(1, I/B')·t_d + I·t_p  + (N − n)/X
//   TPOT    = t_d / (1 − f·X·I·t_p)   decode steps stretched by the prompt tokens they carry
//   E2E     = TTFT + (O − 1)·TPOT,   X·(E2E − (N − n)/X) = n   (Little's law over the slots)
// solved for the request rate X by bisection, X·W < 1 (the engine prefills at most 1/W
// prompts a second; at that bound Little's law sets E2E = n/X and the extra is a wait in
// TTFT). Output tokens/s = dp·X·O. One client (n = N = 1) is the static batch of one.
// Memory is the batch of n (every slot holds a request at its longest).
#include <cstdint>
#include <functional>

#include "result.hpp"
#include "scenario.hpp"

namespace envelope {

// The per-step times of one replica and the loop's shape: the steady state's inputs.
struct ClosedLoop {
    double clients = 1;       // N, per replica
    double slots = 1;         // n ≤ N
    double decode_step_s = 0; // t_d
    double prompt_token_s = 0;  // t_p
    double input_tokens = 1;  // I
    double output_tokens = 1; // O
    double step_prompt_tokens = 0;  // B'; 0: prefill-first, no budget
    double step_prompts = 1;        // k, the prompts one step prefills together
    // How a round's requests come back: within spread_tokens·TPOT of each other (0: all at
    // once, lockstep), or spread over the whole cycle (the steady state of random arrivals).
    bool spread_over_cycle = false;
    double spread_tokens = 0;       // s
    double rounds = 0;              // R = requests/n of a finite run; 0: unbounded
};

struct LoopTimes {
    double ttft_s = 0, tpot_s = 0, e2e_s = 0;
    double requests_per_s = 0;  // X, per replica
    double slot_wait_s = 0;     // (N − n)/X, in TTFT
};

LoopTimes steady_state(const ClosedLoop& loop);

// The mean wait of an M/D/1 queue at load ρ < 1 with a deterministic service s
// (Pollaczek–Khinchine): ρ/(2(1−ρ))·s.
double md1_wait_s(double load, double service_s);

// A closed loop of `clients` around a cycle whose time rises with the request rate X: the
// rate at which X·cycle(X) = clients (Little's law), by bisection on (0, hi) (hi: where a
// queue of the cycle saturates; infinite: clients / cycle(0)). steady_state above and the
// disaggregated pools (inference/disaggregated.hpp) solve their loops with it.
double closed_loop_rate(double clients, double hi, const std::function<double(double)>& cycle_s);

// The clients the engine runs at once: the largest n ≤ clients whose cache fits the engine's
// KV budget on every stage (clients when even one does not fit: the memory check says so), and
// at most the scheduler's limit on running sequences (vLLM max_num_seqs) when it has one.
int64_t admitted_slots(Scenario s, int64_t clients);

// One engine step's prompts beside `running` decodes: B' = max(B − running, min(I, B)) prompt
// tokens, k = min(⌊B'/I⌋, prompts_cap) ≥ 1 whole prompts (or one chunk of B' when I > B'),
// timed as a static prefill; token_s = t_p, its time per prompt token.
struct PromptStep {
    Result result;           // the step's prefill
    int64_t step_tokens = 0; // B'; 0: no token budget (prefill-first)
    int64_t prompts = 1;     // k
    double token_s = 0, token_roofline_s = 0;
};
PromptStep prompt_step(const Scenario& s, int64_t running, int64_t prompts_cap);

// How the clients' requests arrive at the engine: in rounds that start with a burst and
// return within their output lengths' spread (a benchmark client's closed loop), or spread
// over the cycle (the server mode's capacity, under Poisson arrivals).
enum class LoopArrivals { rounds, spread };

// Precondition: check_scenario(s) passed and s's mode is concurrency.
Result evaluate_concurrency(const Scenario& s, LoopArrivals arrivals = LoopArrivals::rounds);

}  // namespace envelope
