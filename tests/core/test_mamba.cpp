// Mamba mixers and hybrids (model/model.hpp MambaSpec, ops/mamba_layer.cpp) against published
// parameter counts and hand counts.
#include <doctest/doctest.h>

#include <string>

#include "fixtures.hpp"
#include "inference/evaluate.hpp"
#include "io/json_parse.hpp"
#include "io/scenario_json.hpp"
#include "memory/training_memory.hpp"
#include "model/params.hpp"
#include "presets/registry.hpp"

using namespace envelope;

namespace {

Model preset(const char* key) { return parse_model(*find_preset(PresetKind::model, key), "model"); }

Scenario on_round_chips(const Model& m, int64_t tp, int64_t input, int64_t output) {
    Scenario s = test::tiny_scenario(tp, 2, input, output);
    s.model = m;
    return s;
}

// The activations `layers` layers of `m` keep for the backward pass: one micro-batch of one
// 2,048-token sequence on one chip, nothing recomputed, no dropout.
double kept_activations(const Model& m, int64_t layers, const LayerSpec& layer) {
    Stage stage;
    stage.first = stage.last = false;
    stage.groups = {LayerGroup{layer, layers}};
    TrainingWorkload w;
    w.seq_len = 2048;
    w.micro_batch = 1;
    w.recompute = Recompute::none;
    return training_memory(TrainingMemoryInput{m, stage, Parallelism{}, w, test::round_chip(), 1})
        .activations_per_micro_batch;
}

const OpReport* find(const PhaseReport& phase, const char* name) {
    for (const OpReport& o : phase.ops) {
        if (std::string(o.name) == name) return &o;
    }
    return nullptr;
}

}  // namespace

TEST_CASE("Mamba-130M: 129,135,360 parameters, worked layer by layer (Gu & Dao 2023)") {
    // Per layer: in_proj 768·3072, conv1d 1536·4 + 1536, x_proj 1536·(48 + 32), dt_proj
    // 48·1536 + 1536, A 1536·16, D 1536, out_proj 1536·768, one RMSNorm 768 = 3,771,648;
    // 24 layers, the tied embedding 50,280·768, the final norm 768.
    const Model m = preset("mamba-130m");
    CHECK(count_params(m).total() == 24 * 3'771'648.0 + 50'280 * 768 + 768);
}

TEST_CASE("a Mamba-130M layer keeps 12 hidden widths a token for its backward: no MLP input, one norm") {
    // A Mamba block is norm → mixer → residual (Gu & Dao 2023 §3.4): per token it keeps the
    // norm's input (h), in_proj's input (h), its output x and z (2·d_inner = 4h), the
    // convolution's output (d_inner = 2h), the scan's output y (2h) and out_proj's input, the
    // gated y (2h): 12 · 768 values, 2 bytes each, 2,048 tokens = 37,748,736 B a layer. The
    // attention-block count added a phantom MLP input and a second norm (14h, 44.04 MB).
    const Model m = preset("mamba-130m");
    CHECK(kept_activations(m, 1, m.groups[0].layer) == doctest::Approx(12.0 * 768 * 2 * 2048));
    CHECK(kept_activations(m, 24, m.groups[0].layer) == doctest::Approx(24 * 37'748'736.0));
}

TEST_CASE("Jamba-v0.1: 52B parameters, 12B active (Lieber et al. 2024)") {
    const Model m = preset("jamba-v0.1");
    CHECK(m.layers() == 32);
    CHECK(count_params(m).total() == doctest::Approx(52e9).epsilon(0.01));
    CHECK(active_params(m) == doctest::Approx(12e9).epsilon(0.05));
}

TEST_CASE("a Mamba layer keeps a fixed state per sequence: memory and decode steps do not grow with the context") {
    const Model m = preset("mamba-130m");
    const Result short_run = evaluate_inference(on_round_chips(m, 1, 100, 100));
    const Result long_run = evaluate_inference(on_round_chips(m, 1, 100'000, 100));
    // Per sequence and layer: the scan's 1536 · 16 and the convolution's 3 · 1536 elements,
    // bf16, 24 layers, 2 sequences.
    CHECK(short_run.memory.kv_cache_bytes == doctest::Approx(2 * 24 * (1536.0 * 16 + 3 * 1536) * 2));
    CHECK(long_run.memory.kv_cache_bytes == doctest::Approx(short_run.memory.kv_cache_bytes));
    CHECK(*long_run.summary.tpot_s == doctest::Approx(*short_run.summary.tpot_s));
    // The scan: 9 FLOPs per token, channel and state element, 2 sequences of one token.
    const OpReport* scan = find(short_run.phase("decode"), "ssm_scan");
    REQUIRE(scan);
    CHECK(scan->flops == doctest::Approx(9.0 * 2 * 1536 * 16));
    // Its state is read and written every step.
    CHECK(scan->bytes_read >= 2 * 2 * (1536.0 * 16 + 3 * 1536));
    CHECK(find(short_run.phase("decode"), "attention") == nullptr);
    CHECK(find(short_run.phase("decode"), "mlp_up") == nullptr);  // ffn 0: no MLP
}

TEST_CASE("Mamba in JSON: attention fields refused, TP must split the channels") {
    const auto error = [](const char* text) {
        try {
            parse_model(parse_json_text(text), "model");
        } catch (const InputError& e) {
            return e.path();
        }
        return std::string("no error");
    };
    CHECK(error(R"({"name": "m", "hidden": 64, "vocab": 10, "layers": 2, "heads": 4, "ffn": 0, "gated_ffn": false,
                    "mamba": {"d_inner": 128, "d_state": 16, "d_conv": 4, "dt_rank": 4}})") == "model.heads");
    CHECK(error(R"({"name": "m", "hidden": 64, "vocab": 10, "layers": 2, "ffn": 0, "gated_ffn": false,
                    "mamba": {"d_inner": 128, "d_state": 16, "d_conv": 4, "heads": 6, "n_groups": 4}})") ==
          "model.mamba.n_groups");
    Scenario s = on_round_chips(preset("mamba-130m"), 1, 10, 2);
    s.system = test::round_system(5);
    s.parallelism.tp = 5;  // 1536 channels do not split five ways
    CHECK(test::error_path(s) == "parallelism.tp");
    const Json back = to_json(preset("mamba-130m"));
    CHECK(back["mamba"]["dt_rank"] == 48);
    CHECK_FALSE(back.contains("heads"));
}
