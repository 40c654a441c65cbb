// Multi-head latent attention (model/model.hpp MlaSpec, ops/mla_attention.cpp) against
// DeepSeek's published counts and per-pair FLOPs worked by hand.
#include <doctest/doctest.h>

#include <string>

#include "fixtures.hpp"
#include "inference/evaluate.hpp"
#include "io/scenario_json.hpp"
#include "memory/inference_memory.hpp"
#include "model/params.hpp"
#include "ops/lower.hpp"
#include "presets/registry.hpp"
#include "training/flops.hpp"

using namespace envelope;

namespace {

Model deepseek_v3() { return parse_model(*find_preset(PresetKind::model, "deepseek-v3"), "model"); }

// The tiny model's two layers with MLA: 8 heads, q latent 256, kv latent 128, RoPE 32,
// nope 64, value 64.
Scenario tiny_mla(int64_t batch, int64_t input, int64_t output) {
    Scenario s = test::tiny_scenario(1, batch, input, output);
    s.model.groups[0].layer.attention.mla = MlaSpec{256, 128, 32, 64, 64};
    return s;
}

const OpReport& find(const PhaseReport& phase, const char* name) {
    for (const OpReport& o : phase.ops) {
        if (std::string(o.name) == name) return o;
    }
    FAIL("no op " << name);
    return phase.ops.front();
}

}  // namespace

TEST_CASE("DeepSeek-V3: 671B parameters, 37B activated per token (arXiv:2412.19437)") {
    const Model m = deepseek_v3();
    CHECK(count_params(m).total() == doctest::Approx(671e9).epsilon(0.005));
    CHECK(active_params(m) == doctest::Approx(37e9).epsilon(0.02));
    // One layer's attention, by hand: q_down 7168·1536 + q_up 1536·128·192 + kv_down 7168·576
    // + kv_up 512·128·(128 + 128) + out 128·128·7168 = 187,105,280.
    const LayerGroup one{m.groups[0].layer, 1};
    CHECK(count_group_params(one, m.hidden, 1).mixer == 187'105'280);
}

TEST_CASE("the MLA cache keeps the latent and the RoPE key: 576 elements per token and layer") {
    // DeepSeek-V3 in bf16, 1 sequence of 1000 + 24 tokens, TP 8: 61 · 576 · 2 B · 1024 tokens on
    // every chip (the latent is not split over TP).
    Scenario s;
    s.model = deepseek_v3();
    s.system = test::round_system(8);
    s.parallelism.tp = 8;
    s.workload.inference.batch = 1;
    s.workload.inference.input_tokens = 1000;
    s.workload.inference.output_tokens = 24;
    const Stage stage = test::whole_model(s);
    const InferenceMemory mem =
        inference_memory(StageMemoryInput{s.model, stage, s.parallelism, s.workload.inference, s.engine, s.system.chip, 1},
                         {}, {});
    CHECK(mem.kv_cache_bytes == doctest::Approx(61.0 * 576 * 2 * 1024));
}

TEST_CASE("MLA attention FLOPs: 2·d_qk + 2·d_v per pair and head in prefill, absorbed 2·(r + ρ) + 2·r in decode") {
    // Prefill of 16 tokens: 136 causal pairs × 8 heads × (2·96 + 2·64) = 348,160.
    const Result r = evaluate_inference(tiny_mla(1, 16, 3));
    CHECK(find(r.phase("prefill"), "attention").flops == doctest::Approx(136.0 * 8 * 320));
    // Decode at L = 17 and 18 (mean 17.5 pairs) × 8 heads × (2·160 + 2·128) = 80,640.
    const PhaseReport& decode = r.phase("decode");
    CHECK(find(decode, "attention").flops == doctest::Approx(17.5 * 8 * 576));
    // The latent cache is read once for all heads: 160 elements × 2 B per attended token.
    CHECK(find(decode, "attention").bytes_read == doctest::Approx(17.5 * 160 * 2 + 8 * 160 * 2));
    // The absorbed products: q_absorb 2 · 8 heads · 64 · 128, v_absorb 2 · 8 · 128 · 64.
    CHECK(find(decode, "q_absorb").flops == doctest::Approx(2.0 * 8 * 64 * 128));
    CHECK(find(decode, "v_absorb").flops == doctest::Approx(2.0 * 8 * 128 * 64));
}

TEST_CASE("MLA in JSON: the case format's names, echoed — training FLOPs count its projections") {
    const Json doc = Json::parse(R"({"name": "m", "hidden": 1024, "vocab": 1000, "layers": 2, "heads": 8,
        "kv_heads": 8, "head_dim": 96, "ffn": 4096, "gated_ffn": true,
        "mla": {"q_lora_rank": 256, "kv_lora_rank": 128, "qk_rope_dim": 32, "qk_nope_dim": 64, "v_head_dim": 64}})");
    const Model m = parse_model(doc, "model");
    CHECK(m.groups[0].layer.attention.mla.kv_lora_rank == 128);
    CHECK(to_json(m)["mla"]["qk_rope_dim"] == 32);
    TrainingWorkload w;
    w.seq_len = 16;
    w.global_batch = 1;
    // Per token per layer, forward: projections 1024·256 + 256·768 + 1024·160 + 128·1024
    // + 512·1024 = 1,277,952 weights → 2× FLOPs; MLP 3 · 1024 · 4096 → 2×; attention
    // 2 · (768 + 512) · 16. Logits 2 · 1024 · 1000. Forward + backward: × 3, 16 tokens.
    const double layer = 2 * 1'277'952.0 + 2 * 3 * 1024 * 4096 + 2 * 1280 * 16;
    CHECK(training_flops(m, w).model == doctest::Approx(16 * 3 * (2 * layer + 2 * 1024 * 1000)));
}
