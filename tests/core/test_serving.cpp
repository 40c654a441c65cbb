// Continuous batching at a fixed concurrency (inference/serving.hpp): the identities a closed
// loop of clients must satisfy, whatever the per-step times.
#include <doctest/doctest.h>

#include <string>

#include "api.hpp"
#include "evaluate.hpp"
#include "io/json_parse.hpp"
#include "fixtures.hpp"
#include "inference/evaluate.hpp"
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

TEST_CASE("N clients: Little's law, and each request sees the other N − 1 prefills") {
    const int64_t n = 16;
    const Result loop = evaluate(loop_of(n));
    Scenario one = loop_of(1);
    one.workload.inference.mode = ServingMode::static_batch;
    Scenario full = loop_of(n);
    full.workload.inference.mode = ServingMode::static_batch;
    const double t_pre = evaluate(one).summary.ttft_s;          // one request's prefill
    const double t_dec = *evaluate(full).summary.tpot_s;        // one step of 16 sequences
    // Little's law: requests in the system = throughput × time each holds a slot. A slot
    // holds a request from its prefill to its last token: E2E less the half step it queued.
    const double requests_per_s = loop.summary.output_tokens_per_s / 50;
    CHECK(requests_per_s * (loop.summary.e2e_latency_s - t_dec / 2) == doctest::Approx(static_cast<double>(n)));
    // Decode steps stall for the 15 other requests' prefills over 49 steps.
    CHECK(*loop.summary.tpot_s == doctest::Approx(t_dec + 15 * t_pre / 49));
    CHECK(loop.summary.ttft_s < evaluate(full).summary.ttft_s);  // no waiting for 16 prompts at once
    // Memory is the full batch's: every slot holds a request.
    CHECK(loop.memory.kv_cache_bytes == doctest::Approx(evaluate(full).memory.kv_cache_bytes));
}

TEST_CASE("a concurrency case of the measured format becomes a closed-loop scenario") {
    const Json c = Json::parse(R"({"id": "c", "source": "s", "kind": "inference",
        "hardware": {"chip": "H100-SXM", "count": 1, "per_node": 8},
        "model": {"name": "m", "layers": 2, "hidden": 1024, "heads": 8, "kv_heads": 2, "head_dim": 128,
                  "ffn": 4096, "gated_ffn": true, "vocab": 1000, "moe": null, "mla": null},
        "inference": {"tp": 1, "batch": 8, "input_tokens": 100, "output_tokens": 20, "mode": "concurrency"},
        "measured": {"output_tokens_per_s": 1000}, "primary": "output_tokens_per_s"})");
    const MeasuredCase m = read_measured_case(c);
    CHECK(m.scenario["workload"]["mode"] == "concurrency");
    CHECK(m.scenario["workload"]["batch"] == 8);
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
