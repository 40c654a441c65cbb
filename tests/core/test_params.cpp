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
    return count_params(m).total();
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
    const ParamCount half = count_params(m, 2);
    CHECK(half.mlp == whole.mlp / 2);
    CHECK(half.attention == whole.attention / 2);
    CHECK(half.norms == whole.norms);
    CHECK(half.embedding == whole.embedding / 2);

    // TP = 4 > kv_heads = 2: each chip keeps one whole KV head (replicated twice).
    const ParamCount quarter = count_params(m, 4);
    const double h = 1024, d = 128;
    // Two layers, each: q of 2 heads, k and v of 1 head each, and the output projection.
    CHECK(quarter.attention == 2 * (h * (2 * d + 2 * d) + 2 * d * h));
}

TEST_CASE("layer groups: a hybrid stack counts each group's layers with its own shapes") {
    // Two groups of the tiny layer, one with MHA (8 KV heads): attention grows by the two
    // extra KV projections, 2 · 1024 · (8 − 2) · 128 per layer.
    Model m = test::tiny_model();
    LayerSpec mha = m.groups[0].layer;
    mha.attention.kv_heads = 8;
    const double one_gqa = count_params(m).attention / 2;
    m.groups = {LayerGroup{m.groups[0].layer, 1}, LayerGroup{mha, 3}};
    CHECK(count_params(m).attention == doctest::Approx(4 * one_gqa + 3 * 2.0 * 1024 * 6 * 128));
}

TEST_CASE("a pipeline stage's slice: layers, embedding first, head last, tied copy kept") {
    Model m = test::tiny_model();
    const ParamCount whole = count_params(m);
    const ParamCount first = count_slice_params(m, {LayerGroup{m.groups[0].layer, 1}}, true, false, 1);
    const ParamCount last = count_slice_params(m, {LayerGroup{m.groups[0].layer, 1}}, false, true, 1);
    CHECK(first.layers() + last.layers() == whole.layers());
    CHECK(first.embedding == 1000.0 * 1024);
    CHECK(first.lm_head == 0);
    CHECK(last.lm_head == 1000.0 * 1024);
    CHECK(last.final_norm == 1024);
    // Tied embeddings: one matrix for the whole model, but the last stage keeps its own copy.
    m.tied_embeddings = true;
    CHECK(count_params(m).lm_head == 0);
    CHECK(count_slice_params(m, {}, false, true, 1).lm_head == 1000.0 * 1024);
}

TEST_CASE("a mixture of experts: Mixtral 8x7B holds 46.7B parameters, 12.9B of them active per token") {
    const Model m = parse_model(*find_preset(PresetKind::model, "mixtral-8x7b"), "model");
    // Hugging Face model card: 46,702,792,704 parameters (safetensors metadata).
    CHECK(count_params(m).total() == 46'702'792'704);
    // Active: 2 of the 8 experts; the router (4096 × 8 per layer) counts whole.
    const double expert = 3.0 * 4096 * 14336;  // gate, up, down
    CHECK(active_params(m) == doctest::Approx(46'702'792'704 - 32 * 6 * expert));
    CHECK(active_params(m) / 1e9 == doctest::Approx(12.88).epsilon(0.001));
    // Over EP 4 each chip holds 2 of the 8 experts of each layer.
    const ParamCount quarter = count_slice_params(m, m.groups, true, true, 1, 4);
    CHECK(quarter.experts == doctest::Approx(count_params(m).experts / 4));
    CHECK(quarter.attention == count_params(m).attention);
}
