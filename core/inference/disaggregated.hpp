#pragma once
// Disaggregated serving (workload/disaggregated.hpp) in the closed loop of N clients (the
// concurrency mode; workload.batch is N for the whole deployment). A request queues for a
// prefill rank, is prefilled there, its KV cache moves to a decode rank, and it decodes there
// in continuous batching with no prompt tokens in its steps (the point of disaggregation:
// TensorRT-LLM's disaggregated serving, SGLang's PD disaggregation). With
//   R_p, R_d  the prefill and decode ranks (workers × attention-DP ranks per worker)
//   s         a prompt's share of a prefill step: the static prefill of k = min(⌊B/I⌋, ⌈N/R_p⌉)
//             ≥ 1 prompts under the engine's token budget B (one chunk of B when I > B), ÷ k
//   P₁        one prompt's own prefill, alone (a batch of one, or its chunks)
//   f         (N − 1)/N: a request sees the others, not itself (arrival theorem)
//   ρ         = f·X·s / R_p, the load of a prefill rank's queue
//   T_kv      the KV move: the request's cache per chip (the model's KV bytes per token × I,
//             inference_memory.hpp's one count) over one chip's links into the network level
//             that joins the deployment (scale-up when it is one NVLink domain, else scale-out);
//             the larger of what a prefill chip sends and a decode chip receives, + the level's
//             latency. Exposed in TTFT: all of it after the prefill, or layer-wise
//             max(T_kv / layers, T_kv − P₁). It runs beside the next prefill (asynchronous),
//             so it adds no load to the prefill rank.
//   t_d       one decode step at the decode rank's running batch n (the static decode's time
//             per token at batch n)
//   TTFT      = ρ/(2(1−ρ))·s + P₁ + T_kv,exposed + t_d/2   (M/D/1 wait, own prefill, the move,
//             half a decode step in progress when it joins the batch)
//   TPOT      = t_d;   cycle = TTFT + (O − 1)·t_d
// X solves X·cycle(X) = N (Little's law, closed_loop_rate of serving.hpp). The decode pool
// holds at most R_d·n_max sequences (n_max: the KV cache's admission, the engine's and the
// layout's batch limit per rank): when X·(O − 1)·t_d exceeds it, X = R_d·n_max / ((O − 1)·t_d)
// and the remaining clients wait for a slot, (N/X − cycle) in TTFT. The running batch is
// n = X·(O − 1)·t_d / R_d (Little's law over the decode pool), rounded to a whole sequence,
// at most n_max: t_d is taken at n, starting from ⌈N/R_d⌉, until n repeats (four passes at
// most). What binds: the decode slots, the prefill pool (ρ ≥ 2/3: a request waits longer for a
// prefill rank than its prefill takes, ρ/(2(1−ρ)) ≥ 1), or the clients themselves (each
// waiting for its own request: latency-bound).
#include "result.hpp"
#include "scenario.hpp"

namespace envelope {

// The steady state above at fixed per-pool times (per rank), for the evaluation and tests.
struct DisaggregatedLoop {
    double clients = 1;          // N, the whole deployment
    double prefill_ranks = 1;    // R_p
    double decode_ranks = 1;     // R_d
    double slots_per_rank = 1;   // n_max
    double output_tokens = 1;    // O
    double prompt_share_s = 0;   // s
    double prompt_alone_s = 0;   // P₁
    double decode_step_s = 0;    // t_d
    double transfer_s = 0;       // T_kv, exposed
};
struct DisaggregatedTimes {
    double requests_per_s = 0;   // X
    double prefill_load = 0;     // ρ
    double prefill_wait_s = 0;   // ρ/(2(1−ρ))·s
    double ttft_s = 0, e2e_s = 0;
    double slot_wait_s = 0;      // in TTFT and E2E
    PoolBound binds = PoolBound::clients;
};
DisaggregatedTimes disaggregated_steady_state(const DisaggregatedLoop& loop);

// The KV cache's move for one request of `input_tokens` from a prefill rank to a decode rank.
struct KvMove {
    double bytes_per_token = 0;  // whole model, every layer and head
    double send_chip_bytes = 0;  // the most one prefill chip holds of the request
    double receive_chip_bytes = 0;
    const NetworkLevel* level = nullptr;  // null: the system has no network (one chip)
};
KvMove kv_move(const Scenario& s);

// Throws InputError naming the field (disaggregated.prefill.parallelism.tp, ...).
void check_disaggregated(const Scenario& s);

// Precondition: check_scenario(s) passed and s.disaggregated is set.
Result evaluate_disaggregated(const Scenario& s);

}  // namespace envelope
