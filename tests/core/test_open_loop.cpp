// Serving at an offered request rate (inference/open_loop.hpp) and request lengths that vary
// (inference/lengths.hpp): the formulas worked by hand, and the identities the modes must keep.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "api.hpp"
#include "common/error.hpp"
#include "evaluate.hpp"
#include "fixtures.hpp"
#include "inference/open_loop.hpp"
#include "io/scenario_json.hpp"

using namespace envelope;

TEST_CASE("the open loop's prompt queue is M/D/1: at load 0.8 a prompt waits 2 W") {
    // Prompts of I = 100 tokens × 1 ms = W = 0.1 s each, free decode steps, no token budget
    // (prefill-first), λ = 8/s: ρ = λ·W = 0.8; Pollaczek–Khinchine for a deterministic service,
    // W_q = ρ·W / (2(1 − ρ)) = 0.8 · 0.1 / 0.4 = 0.2 s; TTFT = W_q + W = 0.3 s.
    OpenLoop loop;
    loop.rate = 8;
    loop.prompt_token_s = 1e-3;
    loop.input_tokens = 100;
    loop.output_tokens = 1;
    const OpenLoopTimes t = open_loop_times(loop);
    CHECK(t.stable);
    CHECK(t.prompt_load == doctest::Approx(0.8));
    CHECK(t.queue_wait_s == doctest::Approx(0.2));
    CHECK(t.ttft_s == doctest::Approx(0.3));
    loop.rate = 10;  // ρ = 1: no steady state
    CHECK_FALSE(open_loop_times(loop).stable);
}

TEST_CASE("Little's law gives the open loop's running batch") {
    // Free prompts, decode steps of 10 ms, 101 output tokens: TTFT = half a step = 5 ms, TPOT =
    // 10 ms, E2E = 0.005 + 100 · 0.01 = 1.005 s; at λ = 20/s the engine holds 20 · 1.005 = 20.1.
    OpenLoop loop;
    loop.rate = 20;
    loop.decode_step_s = 0.01;
    loop.input_tokens = 100;
    loop.output_tokens = 101;
    const OpenLoopTimes t = open_loop_times(loop);
    CHECK(t.ttft_s == doctest::Approx(0.005));
    CHECK(t.tpot_s == doctest::Approx(0.01));
    CHECK(t.e2e_s == doctest::Approx(1.005));
    CHECK(t.in_engine == doctest::Approx(20.1));
    // Prompt tokens in the steps stretch them: λ·I·t_p = 20 · 100 · 0.1 ms = 0.2, TPOT = 10/0.8 ms.
    loop.prompt_token_s = 1e-4;
    CHECK(open_loop_times(loop).tpot_s == doctest::Approx(0.0125));
}

namespace {

Scenario server_of(double rate) {
    Scenario s = test::tiny_scenario(1, 64, 200, 50);
    s.workload.inference.mode = ServingMode::server;
    s.workload.inference.request_rate = rate;
    return s;
}

}  // namespace

TEST_CASE("a stable open loop serves what is offered; above its capacity it says saturated") {
    const Result low = evaluate(server_of(1));
    REQUIRE(low.open_loop);
    CHECK_FALSE(low.open_loop->saturated);
    CHECK(low.summary.output_tokens_per_s == doctest::Approx(1.0 * 50));  // λ · O
    CHECK(low.open_loop->capacity_requests_per_s > 1);

    const double capacity = low.open_loop->capacity_requests_per_s;
    const Result high = evaluate(server_of(2 * capacity));
    REQUIRE(high.open_loop);
    CHECK(high.open_loop->saturated);
    CHECK(high.summary.output_tokens_per_s == doctest::Approx(capacity * 50).epsilon(1e-6));
    bool warned = false;
    for (const std::string& w : high.warnings) warned = warned || w.find("saturated") != std::string::npos;
    CHECK(warned);

    // A finite run of N requests lasts (N − 1)/λ + E2E: its rate is N over that.
    Scenario run = server_of(1);
    run.workload.inference.requests = 10;
    const Result finite = evaluate(run);
    CHECK(finite.summary.output_tokens_per_s ==
          doctest::Approx(10.0 * 50 / (9.0 / 1 + finite.summary.e2e_latency_s)));
}

TEST_CASE("a rate near the capacity waits longer than a light one") {
    const Result low = evaluate(server_of(1));
    const Result busy = evaluate(server_of(0.9 * low.open_loop->capacity_requests_per_s));
    CHECK(busy.summary.ttft_s > low.summary.ttft_s);
    CHECK(*busy.summary.tpot_s > *low.summary.tpot_s);
    CHECK(busy.open_loop->running_sequences > low.open_loop->running_sequences);
}

TEST_CASE("a mean length is the average of the integer lengths around it") {
    Scenario s = test::tiny_scenario(1, 4, 101, 50);
    const Result at101 = evaluate(s);
    s.workload.inference.input_tokens = 100;
    const Result at100 = evaluate(s);
    s.workload.inference.input_tokens = 101;  // the longest, ⌈100.25⌉
    s.workload.inference.lengths.input_mean = 100.25;
    s.workload.inference.lengths.output_mean = 50;
    const Result mean = evaluate(s);
    CHECK(mean.summary.ttft_s == doctest::Approx(0.75 * at100.summary.ttft_s + 0.25 * at101.summary.ttft_s));
    CHECK(mean.summary.e2e_latency_s ==
          doctest::Approx(0.75 * at100.summary.e2e_latency_s + 0.25 * at101.summary.e2e_latency_s));
    CHECK(mean.memory.kv_cache_bytes == doctest::Approx(at101.memory.kv_cache_bytes));  // sized for the longest
}

TEST_CASE("uniform lengths: M = 2·mean/(1 + r), and the two points mean ± σ") {
    // InferenceX's range ratio 0.8 with a mean of 90: M = 180/1.8 = 100, lengths on [80, 100],
    // variance 20²/12 = 33.33, σ = 5.7735: the nodes 84.2265 and 95.7735.
    RequestLengths l;
    l.range_ratio = 0.8;
    CHECK(l.max_of(90) == doctest::Approx(100));
    CHECK(l.variance_of(90) == doctest::Approx(400.0 / 12));

    Json doc = Json::parse(R"({
      "model": "llama-3-8b", "system": {"chip": "h100-sxm", "count": 1},
      "workload": {"batch": 4, "input_tokens": 90, "output_tokens": 90, "precision": "bf16",
                   "length_distribution": {"kind": "uniform", "range_ratio": 0.8}}})");
    const Scenario s = parse_scenario(doc);
    CHECK(s.workload.inference.input_tokens == 100);
    CHECK(s.workload.inference.lengths.input_mean == 90);
    // E[TTFT] over the two nodes, each between its integers.
    const Result r = evaluate(s);
    auto ttft_at = [&](int64_t input) {
        Scenario at = s;
        at.workload.inference.lengths = RequestLengths{};
        at.workload.inference.input_tokens = input;
        at.workload.inference.output_tokens = 90;
        return evaluate(at).summary.ttft_s;
    };
    // Each output node holds the same TTFT (prefill does not depend on the output).
    const double lo = 0.7735 * ttft_at(84) + 0.2265 * ttft_at(85);
    const double hi = 0.2265 * ttft_at(95) + 0.7735 * ttft_at(96);
    CHECK(r.summary.ttft_s == doctest::Approx((lo + hi) / 2).epsilon(1e-4));
}

TEST_CASE("mean lengths and server mode in the scenario JSON: bad values name their field") {
    auto error_of = [](const char* workload) {
        Json doc = Json::parse(R"({"model": "llama-3-8b", "system": {"chip": "h100-sxm", "count": 1}})");
        doc["workload"] = Json::parse(workload);
        try {
            check_scenario(parse_scenario(doc));
        } catch (const InputError& e) {
            return e.path();
        }
        return std::string("no error");
    };
    CHECK(error_of(R"({"mode": "server", "batch": 8, "input_tokens": 100, "output_tokens": 10, "precision": "bf16"})") ==
          "workload.request_rate");
    CHECK(error_of(R"({"batch": 8, "input_tokens": 0.5, "output_tokens": 10, "precision": "bf16"})") ==
          "workload.input_tokens");
    CHECK(error_of(R"({"batch": 8, "input_tokens": 10, "output_tokens": 10, "precision": "bf16",
                       "length_distribution": {"kind": "uniform", "range_ratio": 1.5}})") ==
          "workload.length_distribution.range_ratio");
    Json doc = Json::parse(R"({"model": "llama-3-8b", "system": {"chip": "h100-sxm", "count": 1},
      "workload": {"mode": "server", "request_rate": 2.5, "requests": 100, "batch": 8, "input_tokens": 803.8,
                   "output_tokens": 120, "precision": "bf16"}})");
    const Scenario s = parse_scenario(doc);
    CHECK(s.workload.inference.input_tokens == 804);
    const Json back = to_json(s)["workload"];
    CHECK(back["input_tokens"] == 803.8);
    CHECK(back["request_rate"] == 2.5);
    CHECK(back["requests"] == 100);
}

TEST_CASE("a server scenario over several chips answers in full: its network report and open_loop") {
    const std::string answer = evaluate_json(R"({"model": "llama-3-8b", "system": {"chip": "h100-sxm", "count": 2},
      "parallelism": {"tp": 2},
      "workload": {"mode": "server", "request_rate": 4, "batch": 64, "input_tokens": 467.5, "output_tokens": 256,
                   "precision": "bf16"}})");
    const Json r = Json::parse(answer);
    REQUIRE(r["ok"] == true);
    CHECK(r["open_loop"]["saturated"] == false);
    CHECK(r["open_loop"]["offered_requests_per_s"] == 4);
    CHECK(r["summary"]["output_tokens_per_s"].get<double>() == doctest::Approx(4.0 * 256));
    CHECK(r["network"][0]["levels"][0]["name"].is_string());
}
