// Every embedded preset parses, and every scenario preset evaluates cleanly.
#include <doctest/doctest.h>

#include <cmath>

#include "evaluate.hpp"
#include "inference/evaluate.hpp"
#include "io/scenario_json.hpp"
#include "presets/registry.hpp"

using namespace envelope;

TEST_CASE("the preset set is complete") {
    CHECK(preset_keys(PresetKind::model).size() >= 6);
    CHECK(preset_keys(PresetKind::chip).size() >= 6);
    CHECK(preset_keys(PresetKind::scenario).size() >= 3);
    for (const char* key : {"llama-2-70b", "llama-3-8b", "llama-3-70b", "gpt-3-175b", "mistral-7b"}) {
        CHECK_MESSAGE(find_preset(PresetKind::model, key) != nullptr, key);
    }
    for (const char* key : {"a100-sxm-80gb", "h100-sxm", "h200-sxm", "b200", "mi300x", "gaudi2"}) {
        CHECK_MESSAGE(find_preset(PresetKind::chip, key) != nullptr, key);
    }
}

TEST_CASE("every preset parses and names its source") {
    for (const auto& key : preset_keys(PresetKind::model)) {
        CAPTURE(key);
        const Model m = parse_model(*find_preset(PresetKind::model, key), "model");
        CHECK_FALSE(m.source.empty());
    }
    for (const auto& key : preset_keys(PresetKind::chip)) {
        CAPTURE(key);
        const Chip c = parse_chip(*find_preset(PresetKind::chip, key), "chip");
        CHECK_FALSE(c.source.empty());
        CHECK((*find_preset(PresetKind::chip, key))["efficiency"].contains("source"));
    }
    for (const auto& key : preset_keys(PresetKind::system)) {
        CAPTURE(key);
        CHECK_FALSE(parse_system(*find_preset(PresetKind::system, key), "system").source.empty());
    }
}

TEST_CASE("every scenario preset evaluates to finite numbers without warnings") {
    for (const auto& key : preset_keys(PresetKind::scenario)) {
        CAPTURE(key);
        const Scenario s = parse_scenario(*find_preset(PresetKind::scenario, key));
        check_scenario(s);
        const Result r = evaluate(s);
        if (r.kind == WorkloadKind::training) {
            CHECK(std::isfinite(r.training.step_time_s));
            CHECK(r.training.step_time_s > 0);
            CHECK(r.training.mfu > 0);
            for (const TrainingMemory& m : r.training_memory) CHECK(m.fits);
        } else {
            CHECK(std::isfinite(r.summary.ttft_s));
            CHECK(r.summary.ttft_s > 0);
            CHECK(std::isfinite(r.summary.output_tokens_per_s));
            CHECK(r.memory.fits);
        }
        CHECK(r.warnings.empty());
    }
}

TEST_CASE("the chips the measured training cases name have presets with their spec sheets' numbers") {
    // Numbers from presets/measured/chips.json and the datasheets it cites (dense tensor-core
    // peaks, TFLOP/s; HBM TB/s), not from the presets themselves.
    struct Spec {
        const char* key;
        Precision precision;
        double peak_tflops, hbm_tb_s, tdp_w;
    };
    for (const Spec& s : {Spec{"h100-sxm-96gb", Precision::bf16, 989, 2.4, 500},  // TorchTitan's Grand Teton H100
                          Spec{"a100-sxm-40gb", Precision::bf16, 312, 1.555, 400},
                          Spec{"v100-sxm-32gb", Precision::fp16, 125, 0.9, 300},
                          Spec{"h100-pcie", Precision::bf16, 756, 2.0, 350},
                          Spec{"h800-sxm", Precision::fp8, 1979, 3.35, 700},
                          Spec{"mi250x", Precision::bf16, 383, 3.28, 500},
                          Spec{"tpu-v3", Precision::bf16, 140, 0.9, 0}}) {
        CAPTURE(s.key);
        REQUIRE(find_preset(PresetKind::chip, s.key) != nullptr);
        const Chip c = parse_chip(*find_preset(PresetKind::chip, s.key), "chip");
        CHECK(c.peak_tflops[static_cast<std::size_t>(s.precision)].value_or(0) == doctest::Approx(s.peak_tflops));
        CHECK(c.hbm_tb_s == doctest::Approx(s.hbm_tb_s));
        CHECK(c.tdp_w == doctest::Approx(s.tdp_w));
    }
    // 96 GiB and 40 GiB, the '96 GB' and '40 GB' of the product names read as binary.
    CHECK(parse_chip(*find_preset(PresetKind::chip, "h100-sxm-96gb"), "chip").hbm_gb == doctest::Approx(103.08).epsilon(1e-4));
    CHECK(parse_chip(*find_preset(PresetKind::chip, "a100-sxm-40gb"), "chip").hbm_gb == doctest::Approx(42.95).epsilon(1e-4));
    // Multi-chip cases reach a network through the chip's reference system.
    for (const char* key : {"h100-sxm-96gb", "a100-sxm-40gb", "v100-sxm-32gb", "h800-sxm", "tpu-v3"}) {
        CAPTURE(key);
        const Json& chip = *find_preset(PresetKind::chip, key);
        REQUIRE(chip.contains("reference_system"));
        const Json* system = find_preset(PresetKind::system, chip["reference_system"].get<std::string>());
        REQUIRE(system != nullptr);
        // The A100 40GB borrows the DGX A100's network (its first build carried eight of them).
        if (std::string(key) != "a100-sxm-40gb") CHECK((*system)["chip"] == key);
    }
    // H800: NVLink cut to 8 links of 25 GB/s a direction (200 GB/s), the H100's is 18 (450).
    const System h800 = parse_system(*find_preset(PresetKind::system, "hgx-h800"), "system");
    CHECK(static_cast<double>(h800.network.levels.front().links_per_chip) * h800.network.levels.front().link_gbps == doctest::Approx(200));
}
