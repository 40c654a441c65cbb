// Continuous batching at a fixed concurrency (inference/serving.hpp): the identities a closed
// loop of clients must satisfy, whatever the per-step times.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "api.hpp"
#include "evaluate.hpp"
#include "io/json_parse.hpp"
#include "fixtures.hpp"
#include "inference/evaluate.hpp"
#include "inference/serving.hpp"
#include "validation/measured_case.hpp"

using namespace envelope;

namespace {

Scenario loop_of(int64_t clients) {
    Scenario s = test::tiny_scenario(1, clients, 200, 50);
    s.workload.inference.mode = ServingMode::concurrency;
    return s;
}

}  // namespace

TEST_CASE("one client in a closed loop is a static batch of one, back to back") {
    Scenario s = loop_of(1);
    const Result loop = evaluate(s);
    s.workload.inference.mode = ServingMode::static_batch;
    const Result batch = evaluate(s);
    // Its throughput: 50 tokens per request every TTFT + 49 decode steps.
    CHECK(loop.summary.output_tokens_per_s == doctest::Approx(batch.summary.output_tokens_per_s));
    CHECK(*loop.summary.tpot_s == doctest::Approx(*batch.summary.tpot_s));
}

TEST_CASE("the closed loop's steady state, worked by hand") {
    // Two clients, no token budget (prefill-first steps), decode steps of no time, prompts of
    // P = 100 tokens × 1 ms = 0.1 s. The engine does nothing but prefill: each client's next
    // prompt is back the moment its last one ends, so the engine prefills one prompt every
    // 0.1 s (X = 1/P = 10/s, its prefill capacity) and each request waits for the other's
    // whole prompt: TTFT = E2E = 2/X = 0.2 s. (The M/D/1 wait alone, P·(1 + u/(4 − 2u)) at
    // u = 4 − 2√2, would need X = 11.7/s, more prompts than the engine can prefill.)
    ClosedLoop two;
    two.clients = two.slots = 2;
    two.prompt_token_s = 1e-3;
    two.input_tokens = 100;
    two.output_tokens = 10;
    const LoopTimes t = steady_state(two);
    CHECK(t.ttft_s == doctest::Approx(0.2).epsilon(1e-9));
    CHECK(t.requests_per_s == doctest::Approx(10.0).epsilon(1e-9));
    CHECK(t.tpot_s == 0);
    // Ten clients, one slot: the slot's request takes P + 10 decode steps of 10 ms = 0.2 s, so
    // a request waits for the 9 ahead of it, 1.8 s, before its own prefill: TTFT 1.9 s.
    ClosedLoop ten;
    ten.clients = 10;
    ten.slots = 1;
    ten.decode_step_s = 0.01;
    ten.prompt_token_s = 1e-3;
    ten.input_tokens = 100;
    ten.output_tokens = 11;
    const LoopTimes q = steady_state(ten);
    CHECK(q.requests_per_s == doctest::Approx(5.0));
    CHECK(q.slot_wait_s == doctest::Approx(1.8));
    CHECK(q.ttft_s == doctest::Approx(1.9));
    CHECK(q.e2e_s == doctest::Approx(2.0));
    CHECK(q.tpot_s == doctest::Approx(0.01));
}

TEST_CASE("a benchmark's rounds: a burst, then lockstep or the spread of the output lengths, by hand") {
    // Four clients, prefill-first steps (no budget), P = 100 tokens × 1 ms = 0.1 s a prompt,
    // decode steps of 10 ms, f = 3/4, half a step in progress f·t_d/2 = 3.75 ms.
    // A burst of 4, one a step: the mean prompt waits (4 + 1)/2 − 1 = 1.5 prompts, 0.15 s.
    // Fixed lengths: the requests finish together (each decode is held back by the others'
    // prompts as much as theirs by its own) and every round is a burst again:
    // TTFT = 3.75 ms + 0.15 + 0.1 = 0.25375 s. With O = 11, TPOT = 0.01/(1 − 0.075·X) and
    // X·(TTFT + 10·TPOT) = 4: 0.01903125·X² − 0.65375·X + 4 = 0, X = 7.96577/s.
    ClosedLoop four;
    four.clients = four.slots = 4;
    four.decode_step_s = 0.01;
    four.prompt_token_s = 1e-3;
    four.input_tokens = 100;
    four.output_tokens = 11;
    four.rounds = 10;
    const LoopTimes lock = steady_state(four);
    CHECK(lock.ttft_s == doctest::Approx(0.25375).epsilon(1e-9));
    const double b = 0.65375, disc = b * b - 4 * 0.01903125 * 4;
    CHECK(lock.requests_per_s == doctest::Approx((b - std::sqrt(disc)) / (2 * 0.01903125)).epsilon(1e-9));
    CHECK(lock.requests_per_s == doctest::Approx(7.96577).epsilon(1e-5));
    // Lengths spread over 40 decode steps (0.4 s) and two rounds (8 requests): the second
    // round comes back over 0.4 s + the others' 0.3 s of prompts = 0.7 s, a load of 3/7,
    // whose M/D/1 wait is (3/7)/(2·4/7)·0.1 = 0.0375 s; over the two rounds
    // (0.15 + 0.0375)/2 = 0.09375 s, TTFT = 3.75 ms + 0.09375 + 0.1 = 0.1975 s. With O = 101:
    // X·(0.1975 + 100·0.01/(1 − 0.075·X)) = 4, 0.0148125·X² − 1.4975·X + 4 = 0, X = 2.74569/s
    // (a cycle of 4/X = 1.46 s, longer than the 0.7 s window, which therefore holds).
    ClosedLoop spread = four;
    spread.output_tokens = 101;
    spread.spread_tokens = 40;
    spread.rounds = 2;
    const LoopTimes s = steady_state(spread);
    CHECK(s.ttft_s == doctest::Approx(0.1975).epsilon(1e-9));
    CHECK(s.requests_per_s == doctest::Approx(2.74569).epsilon(1e-5));
    // One round is the burst alone; unbounded rounds, the spread rounds alone.
    spread.rounds = 1;
    CHECK(steady_state(spread).ttft_s == doctest::Approx(0.25375).epsilon(1e-9));
    spread.rounds = 0;
    CHECK(steady_state(spread).ttft_s == doctest::Approx(0.14125).epsilon(1e-9));
}

TEST_CASE("N clients under chunked prefill: prompts batch into steps, Little's law holds") {
    const int64_t n = 16;
    const Result loop = evaluate(loop_of(n));
    Scenario full = loop_of(n);
    full.workload.inference.mode = ServingMode::static_batch;
    const Result batch = evaluate(full);
    const double requests_per_s = loop.summary.output_tokens_per_s / 50;
    CHECK(requests_per_s * loop.summary.e2e_latency_s == doctest::Approx(static_cast<double>(n)));
    // Decode steps carry other requests' prompt tokens: slower than a bare step of 16, and the
    // first token comes long before a static batch's 16 prompts at once would give it.
    CHECK(*loop.summary.tpot_s > *batch.summary.tpot_s);
    CHECK(loop.summary.ttft_s < batch.summary.ttft_s);
    CHECK(loop.memory.kv_cache_bytes == doctest::Approx(batch.memory.kv_cache_bytes));
}

TEST_CASE("more clients than the KV cache holds: the rest wait for a slot") {
    // Llama-3.1-70B in bf16 on two H100s leaves about 16 GB for the cache; 512 clients of
    // 4,000 + 1,000 tokens (1.64 GB each at 320 KiB a token) cannot all run at once.
    const Json r = parse_json_text(evaluate_json(R"({"model": "llama-3.1-70b", "system": {"preset": "dgx-h100", "count": 2},
        "parallelism": {"tp": 2}, "workload": {"mode": "concurrency", "batch": 512, "input_tokens": 4000,
        "output_tokens": 1000, "precision": "bf16"}})"));
    REQUIRE(r["ok"] == true);
    CHECK(r["memory"]["fits"] == true);  // the admitted slots fit
    const double per_sequence = 5000.0 * 80 * 8 * 128 * 2 * 2 / 2;  // bytes per chip (TP 2 halves the KV heads)
    CHECK(r["memory"]["kv_cache_bytes"].get<double>() / per_sequence < 20);
    CHECK(r["summary"]["ttft_s"].get<double>() > 10 * r["summary"]["tpot_s"].get<double>() * 1000 / 20);
}

TEST_CASE("the scheduler's running-sequence limit bounds the slots as the KV cache does") {
    // Ten clients on a tiny model whose cache holds them all; an engine that runs at most two
    // sequences (vLLM max_num_seqs 2) leaves eight waiting: a request spends (N − n)/X = 8/X
    // waiting for a slot, X the requests per second of the two that run.
    Scenario s = loop_of(10);
    s.engine.max_running_sequences = 2;
    const Result r = evaluate(s);
    const double x = r.summary.output_tokens_per_s / 50;  // 50 output tokens a request
    // Two slots' caches: K and V × 2 layers × 2 KV heads × 128 × 2 B × 250 tokens × 2 sequences.
    CHECK(r.memory.kv_cache_bytes == doctest::Approx(2.0 * 2 * 2 * 128 * 2 * 250 * 2));
    CHECK(r.summary.ttft_s > 8 / x);
    Scenario unbounded = loop_of(10);
    CHECK(evaluate(unbounded).memory.kv_cache_bytes == doctest::Approx(5 * r.memory.kv_cache_bytes));
}

TEST_CASE("a concurrency case of the measured format becomes a closed-loop scenario") {
    const Json c = Json::parse(R"({"id": "c", "source": "s", "kind": "inference",
        "hardware": {"chip": "H100-SXM", "count": 2, "per_node": 8},
        "model": {"name": "m", "layers": 2, "hidden": 1024, "heads": 8, "kv_heads": 2, "head_dim": 128,
                  "ffn": 4096, "gated_ffn": true, "vocab": 1000, "moe": null, "mla": null},
        "inference": {"tp": 1, "dp": 2, "batch": 8, "input_tokens": 100, "output_tokens": 20, "mode": "concurrency"},
        "measured": {"output_tokens_per_s": 1000}, "primary": "output_tokens_per_s"})");
    const MeasuredCase m = read_measured_case(c);
    CHECK(m.scenario["workload"]["mode"] == "concurrency");
    // The case's batch counts the job's clients (FORMAT.md): 8 over 2 replicas, 4 each.
    CHECK(m.scenario["workload"]["batch"] == 4);
}

TEST_CASE("a concurrency result serializes whole: its network spans outlive the evaluation") {
    // Regression: the running batch was once evaluated on a copy of the scenario, and the
    // result's spans pointed into the copy's network levels after it was gone.
    const std::string out = evaluate_json(R"({"model": "llama-3.1-8b", "system": "dgx-h100", "parallelism": {"tp": 8},
        "workload": {"mode": "concurrency", "batch": 16, "input_tokens": 500, "output_tokens": 100, "precision": "fp8"}})");
    const Json r = parse_json_text(out);
    REQUIRE(r["ok"] == true);
    CHECK(r["network"][0]["levels"][0]["name"] == "NVLink4 + NVSwitch");
    CHECK(r["scenario"]["workload"]["mode"] == "concurrency");
}
