// Sliding-window attention (model/model.hpp AttentionSpec::window): the attended tokens, the
// KV cache and the decode sums stop growing at the window; checked against hand counts and a
// token-by-token loop that takes min(L, W) itself.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "fixtures.hpp"
#include "inference/evaluate.hpp"
#include "io/scenario_json.hpp"
#include "memory/inference_memory.hpp"
#include "ops/lower.hpp"
#include "perf/context_sum.hpp"
#include "training/flops.hpp"

using namespace envelope;

namespace {

Scenario windowed(int64_t window, int64_t input, int64_t output) {
    Scenario s = test::tiny_scenario(1, 1, input, output);
    s.model.groups[0].layer.attention.window = window;
    return s;
}

double op_flops(const PhaseReport& phase, const char* name) {
    for (const OpReport& o : phase.ops) {
        if (std::string(o.name) == name) return o.flops;
    }
    return -1;
}

}  // namespace

TEST_CASE("a capped sum takes the value at the cap beyond it") {
    // memory = 0 + 1·L, cap 8: Σ_{L=5}^{23} min(L, 8) = 5 + 6 + 7 + 8 + 15 · 8 = 146.
    const Roofs r{{0, 0}, {0, 1}, {0, 0}};
    CHECK(sum_over_context(r, 5, 23, 8).total_s == 146);
    CHECK(sum_affine(Affine{0, 1}, 5, 23, 8) == 146);
    CHECK(sum_affine(Affine{2, 1}, 10, 12, 8) == 3 * (2 + 8));  // wholly past the cap
    CHECK(sum_over_context(r, 5, 7, 8).total_s == 18);          // wholly before it
}

TEST_CASE("prefill attention under a window: Σ_i min(i, W) pairs") {
    // 16 prompt tokens, W = 8: 1 + 2 + … + 8 + 8 · 8 = 100 pairs per head (136 without the
    // window). Fused attention: 4 · heads · head_dim FLOPs per pair, 8 heads of 128 = 4096.
    const Result full = evaluate_inference(windowed(0, 16, 1));
    const Result w8 = evaluate_inference(windowed(8, 16, 1));
    CHECK(op_flops(full.phase("prefill"), "attention") == doctest::Approx(4096.0 * 136));
    CHECK(op_flops(w8.phase("prefill"), "attention") == doctest::Approx(4096.0 * 100));
}

TEST_CASE("decode under a window equals stepping through every token at min(L, W)") {
    // Prompt 4, 20 tokens out: decode steps at L = 5 … 23, the window 8 reached at L = 8.
    const Scenario s = windowed(8, 4, 20);
    const Result r = evaluate_inference(s);
    const PhaseReport& decode = r.phase("decode");
    CHECK(decode.steps == 19);
    // The attention's FLOPs per step, averaged: 4096 · 146 / 19.
    CHECK(op_flops(decode, "attention") == doctest::Approx(4096.0 * 146 / 19));

    Scenario full = s;
    full.model.groups[0].layer.attention.window = 0;
    const Stage stage = test::whole_model(full);
    const std::vector<Op> ops = lower_forward(LowerInput{full.model, stage, full.parallelism,
                                                         full.workload.inference.precision, decode_pass(1, 24),
                                                         full.engine, true});
    const TimingContext ctx{s.system.chip, s.engine, TimingModel::expected};
    double loop = 0;
    for (int64_t L = 5; L <= 23; ++L) {
        for (const Op& op : ops) {
            const bool attends = std::string(op.name) == "attention";  // the only op that reads L tokens
            const double at = attends ? static_cast<double>(std::min<int64_t>(L, 8)) : static_cast<double>(L);
            loop += op.count * time_at(roofs_of(op, nullptr, ctx), at).total_s;
        }
    }
    CHECK(decode.time_s == doctest::Approx(loop).epsilon(1e-10));
}

TEST_CASE("a windowed layer's KV cache keeps the window's tokens") {
    // 2 layers × 2 KV heads × 128 × K and V × 2 bytes = 2048 B per token kept.
    const Scenario full = windowed(0, 100, 28), w = windowed(32, 100, 28);
    const auto kv = [&](const Scenario& s) {
        const Stage stage = test::whole_model(s);  // the stage holds copies of the model's groups
        return inference_memory(StageMemoryInput{s.model, stage, s.parallelism, s.workload.inference, s.engine,
                                                 s.system.chip, 1},
                                {}, {})
            .kv_cache_bytes;
    };
    CHECK(kv(full) == doctest::Approx(2048.0 * 128));
    CHECK(kv(w) == doctest::Approx(2048.0 * 32));
}

TEST_CASE("the JSON model takes sliding_window per layer group and echoes it") {
    const Json doc = Json::parse(R"({"name": "w", "hidden": 64, "vocab": 10, "layer_groups": [
        {"count": 1, "heads": 2, "kv_heads": 1, "head_dim": 32, "ffn": 128, "gated_ffn": true, "sliding_window": 16},
        {"count": 1, "heads": 2, "kv_heads": 1, "head_dim": 32, "ffn": 128, "gated_ffn": true}]})");
    const Model m = parse_model(doc, "model");
    CHECK(m.groups[0].layer.attention.window == 16);
    CHECK(m.groups[1].layer.attention.window == 0);
    const Json back = to_json(m);
    CHECK(back["layer_groups"][0]["sliding_window"] == 16);
    CHECK_FALSE(back["layer_groups"][1].contains("sliding_window"));
    TrainingWorkload w;
    w.seq_len = 64;
    w.global_batch = 1;
    // Attention FLOPs per token: 4 · q · min(s, W): 4 · 64 · 16 for the first layer, 4 · 64 · 64 for the second.
    Model full = m;
    full.groups[0].layer.attention.window = 0;
    CHECK(training_flops(full, w).model - training_flops(m, w).model == doctest::Approx(64 * 3 * 4 * 64 * (64 - 16)));
}
