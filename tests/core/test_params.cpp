// Parameter counts against the totals the model authors publish.
#include <doctest/doctest.h>

#include "fixtures.hpp"
#include "io/scenario_json.hpp"
#include "model/params.hpp"
#include "presets/registry.hpp"

using namespace envelope;

namespace {
double preset_params(const char* key) {
    const Model m = parse_model(*find_preset(PresetKind::model, key), "model");
    return count_params(m).total(m.layers);
}
}  // namespace

TEST_CASE("parameter counts match the published model sizes") {
    // Hugging Face model cards / safetensors metadata give the exact counts.
    CHECK(preset_params("llama-2-7b") == 6'738'415'616);
    CHECK(preset_params("llama-2-70b") == 68'976'648'192);
    CHECK(preset_params("llama-3-8b") == 8'030'261'248);
    CHECK(preset_params("llama-3-70b") == 70'553'706'496);
    CHECK(preset_params("mistral-7b") == 7'241'732'096);
    // GPT-3 paper: "175.0B"; with biases and shared embeddings the count is 174.6B.
    CHECK(preset_params("gpt-3-175b") == doctest::Approx(174.6e9).epsilon(0.001));
}

TEST_CASE("a TP shard holds 1/tp of the split matrices and all of the replicated ones") {
    const Model m = test::tiny_model();
    const ParamCount whole = count_params(m);
    const ParamCount half = count_params(m, shard_for_tp(m, 2));
    CHECK(half.mlp == whole.mlp / 2);
    CHECK(half.attention == whole.attention / 2);
    CHECK(half.norms == whole.norms);
    CHECK(half.embedding == whole.embedding / 2);

    // TP = 4 > kv_heads = 2: each chip keeps one whole KV head (replicated twice).
    const ParamCount quarter = count_params(m, shard_for_tp(m, 4));
    const double h = 1024, d = 128;
    CHECK(quarter.attention == h * (2 * d + 2 * d) + 2 * d * h);  // q: 2 heads, k and v: 1 head each
}
