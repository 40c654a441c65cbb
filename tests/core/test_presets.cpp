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
