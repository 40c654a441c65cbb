#pragma once
// Continuous batching at a fixed concurrency (the "concurrency" mode of the measured-case
// format: a closed loop of N clients per replica, each sending its next request of I prompt
// and O output tokens when its last one finishes; vLLM's and SGLang's benchmark_serving
// --max-concurrency). In the steady state every slot of the engine's batch turns over once per
// request, so over one request's life the engine runs O − 1 decode steps of the N running
// sequences (their contexts spread over I + 1 … I + O − 1) and N prefills, one per request,
// each stalling the decode batch (prefill-first scheduling, vLLM's default before chunked
// prefill):
//   t_pre   one request's prefill (batch 1, first token included)
//   t_dec   one decode step of N sequences, averaged over the contexts (the static model's
//           decode at batch N, divided by its steps)
//   cycle   = N·t_pre + (O − 1)·t_dec                  the time a slot holds one request
//   TTFT    = t_pre + t_dec / 2                        a new request waits half a step on average
//   TPOT    = t_dec + (N − 1)·t_pre / (O − 1)           the other N − 1 prefills interleave
//   E2E     = TTFT + (O − 1)·TPOT
//   output tokens/s = dp · N · O / cycle, input tokens/s = dp · N · I / cycle
// Memory is the batch of N (every slot holds a request at its longest).
#include "result.hpp"
#include "scenario.hpp"

namespace envelope {

// Precondition: check_scenario(s) passed and s's mode is concurrency.
Result evaluate_concurrency(const Scenario& s);

}  // namespace envelope
