// "Does it fit?" for inference and the throughput–latency curve (explore/fit.hpp).
#include <doctest/doctest.h>

#include <string>

#include "api.hpp"
#include "evaluate.hpp"
#include "fixtures.hpp"
#include "inference/evaluate.hpp"
#include "explore/fit.hpp"
#include "io/json_parse.hpp"
#include "io/scenario_json.hpp"

using namespace envelope;

namespace {

Scenario from(const char* text) {
    Scenario s = parse_scenario(parse_json_text(text));
    check_scenario(s);
    return s;
}

bool holds(Scenario s) {
    for (const InferenceMemory& m : inference_memory_of(s)) {
        if (!m.fits) return false;
    }
    return true;
}

}  // namespace

TEST_CASE("Llama-3.1-70B in bf16 needs two H100s: 141 GB of weights, 85.5 GB a chip") {
    const Scenario s = from(R"({"model": "llama-3.1-70b", "system": {"preset": "dgx-h100"}, "parallelism": {"tp": 1, "dp": 1},
        "workload": {"kind": "inference", "batch": 1, "input_tokens": 1000, "output_tokens": 100, "precision": "bf16"}})");
    const InferenceFit f = inference_fit(s);
    CHECK_FALSE(f.fits);
    CHECK(f.largest_batch == 0);
    CHECK(f.longest_context == 0);
    REQUIRE(f.fewest_chips);
    CHECK(f.fewest_chips->tp == 2);  // 70.6 GB of weights each
    CHECK(f.fewest_chips->pp == 1);
}

TEST_CASE("what fp8 buys when it does not fit: the KV cache alone not enough, the weights too fit on one H100") {
    const Scenario s = from(R"({"model": "llama-3.1-70b", "system": {"preset": "dgx-h100"}, "parallelism": {"tp": 1, "dp": 1},
        "workload": {"kind": "inference", "batch": 1, "input_tokens": 1000, "output_tokens": 100, "precision": "bf16"}})");
    const InferenceFit f = inference_fit(s);
    REQUIRE(f.lower_precision.size() == 2);
    // fp8 KV cache: 141 GB of bf16 weights still exceed 85.5 GB.
    CHECK(f.lower_precision[0].kv_cache == Precision::fp8);
    CHECK(f.lower_precision[0].weights == Precision::bf16);
    CHECK_FALSE(f.lower_precision[0].fits);
    CHECK(f.lower_precision[0].largest_batch == 0);
    // fp8 weights too: 70.6 GB, and 1,100 tokens of fp8 cache are 80 layers × 2 × 8 heads × 128
    // × 1 B = 163,840 B a token, 0.18 GB a sequence: the 14.9 GB left bound the batch by 82.
    CHECK(f.lower_precision[1].weights == Precision::fp8);
    CHECK(f.lower_precision[1].kv_cache == Precision::fp8);
    CHECK(f.lower_precision[1].fits);
    CHECK(f.lower_precision[1].largest_batch >= 1);
    CHECK(f.lower_precision[1].largest_batch <= 82);

    // Nothing to offer when it fits, or when both are 8 bits already.
    CHECK(inference_fit(from(R"({"model": "llama-3.1-70b", "system": {"preset": "dgx-h100"}, "parallelism": {"tp": 2, "dp": 1},
        "workload": {"kind": "inference", "batch": 1, "input_tokens": 1000, "output_tokens": 100, "precision": "bf16"}})"))
              .lower_precision.empty());
    CHECK(inference_fit(from(R"({"model": "llama-3.1-405b", "system": {"preset": "dgx-h100"}, "parallelism": {"tp": 1, "dp": 1},
        "workload": {"kind": "inference", "batch": 1, "input_tokens": 1000, "output_tokens": 100, "precision": "fp8"}})"))
              .lower_precision.empty());
}

TEST_CASE("the longest context is the edge of what fits") {
    Scenario s = test::tiny_scenario(1, 4, 100, 28);
    s.system.chip.hbm_gb = 0.2;
    const InferenceFit f = inference_fit(s);
    REQUIRE(f.longest_context > 128);
    Scenario edge = s;
    edge.workload.inference.input_tokens = f.longest_context - 28;
    CHECK(holds(edge));
    edge.workload.inference.input_tokens += 1;
    CHECK_FALSE(holds(edge));
    CHECK(f.fits);
    REQUIRE(f.fewest_chips);
    CHECK(f.fewest_chips->chips() == 1);
}

TEST_CASE("the curve: more batch, more tokens per chip, fewer per user; the chosen batch is on it") {
    const Scenario s = from(R"({"model": "llama-3.1-8b", "system": {"preset": "dgx-h100", "count": 1},
        "workload": {"kind": "inference", "batch": 24, "input_tokens": 1000, "output_tokens": 200, "precision": "fp8"}})");
    const std::vector<CurvePoint> curve = throughput_latency_curve(s);
    REQUIRE(curve.size() >= 32);
    CHECK(curve.size() <= 65);
    CHECK(curve.front().batch == 1);
    bool chosen = false;
    for (std::size_t i = 0; i < curve.size(); ++i) {
        chosen = chosen || curve[i].batch == 24;
        if (i == 0) continue;
        CHECK(curve[i].batch > curve[i - 1].batch);
        CHECK(curve[i].output_tokens_per_s_per_chip > curve[i - 1].output_tokens_per_s_per_chip);
        CHECK(curve[i].output_tokens_per_s_per_user < curve[i - 1].output_tokens_per_s_per_user);
    }
    CHECK(chosen);
    // The point at the chosen batch is the scenario's own evaluation.
    for (const CurvePoint& p : curve) {
        if (p.batch == 24) CHECK(p.tpot_s == doctest::Approx(*evaluate(s).summary.tpot_s));
    }
}

TEST_CASE("fit and curve answer JSON, and refuse training scenarios naming the field") {
    const std::string train = R"({"model": "llama-3-8b", "system": "dgx-h100", "workload": {"kind": "training",
        "seq_len": 1024, "global_batch": 8, "micro_batch": 1, "precision": "bf16"}})";
    const Json f = parse_json_text(fit_json(train));
    CHECK(f["ok"] == false);
    CHECK(f["error"]["path"] == "workload.kind");
    const Json c = parse_json_text(curve_json("{"));
    CHECK(c["ok"] == false);
}

TEST_CASE("one verdict: a batch within HBM but beyond the engine's KV budget does not fit, and the largest batch agrees") {
    // Llama-3-8B bf16 on one H100 (85.52 GB), 2048 + 256 tokens, the default engine (TensorRT-LLM's
    // rule, 0.9 of the free memory). KV per sequence by hand: 32 layers × 2 × 8 KV heads × 128 × 2 B
    // × 2304 tokens = 301,989,888 B.
    const char* text = R"({"model": "llama-3-8b", "system": {"chip": "h100-sxm", "count": 1},
        "workload": {"kind": "inference", "batch": 1, "input_tokens": 2048, "output_tokens": 256, "precision": "bf16"}})";
    Scenario s = from(text);
    const InferenceFit f = inference_fit(s);
    REQUIRE(f.largest_batch > 1);
    const auto memory_at = [&](int64_t batch) {
        Scenario b = s;
        b.workload.inference.batch = batch;
        return inference_memory_of(b).front();
    };
    const InferenceMemory at = memory_at(f.largest_batch);
    const InferenceMemory over = memory_at(f.largest_batch + 1);
    CHECK(at.kv_cache_bytes == doctest::Approx(301989888.0 * static_cast<double>(f.largest_batch)));
    // The budget is 0.9 · (C − W − A): the largest batch is its floor in sequences.
    const double budget = 0.9 * (85.52e9 - at.weights_bytes - at.activation_bytes);
    CHECK(f.largest_batch == static_cast<int64_t>(budget / 301989888.0));
    CHECK(at.fits);
    CHECK_FALSE(over.fits);                         // the same check as the largest batch
    CHECK(over.total_bytes < over.capacity_bytes);  // though under 100 % of HBM: the engine keeps the rest
    s.workload.inference.batch = f.largest_batch + 1;
    const Result r = evaluate(s);
    bool said = false;
    for (const std::string& w : r.warnings) said = said || w.find("does not fit: the KV cache needs") == 0;
    CHECK(said);
}
