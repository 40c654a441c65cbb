// Training framework profiles (presets/frameworks/, training/framework.hpp) and the chip's
// sustained rate for whole-model runs (chip.sustained_compute, perf/roofline.hpp).
#include <doctest/doctest.h>

#include "evaluate.hpp"
#include "fixtures.hpp"
#include "io/scenario_json.hpp"
#include "ops/builders.hpp"
#include "perf/context_sum.hpp"
#include "perf/roofline.hpp"
#include "presets/registry.hpp"
#include "validation/measured_case.hpp"
#include "validation/sustained_fit.hpp"

using namespace envelope;

namespace {

Scenario zero3_training(const Framework& f) {
    Scenario s = test::tiny_scenario(1, 1, 16, 1);
    s.system = test::round_system(4);
    s.parallelism.dp = 4;
    s.parallelism.zero = 3;
    s.workload.kind = WorkloadKind::training;
    TrainingWorkload& w = s.workload.training;
    w.seq_len = 16;
    w.global_batch = 4;
    w.micro_batch = 1;
    s.framework = f;
    return s;
}

Framework preset_framework(const char* key) { return parse_framework(Json(key), "framework"); }

}  // namespace

TEST_CASE("every framework preset parses, and a scenario without one says it assumes current practice") {
    for (const std::string& key : preset_keys(PresetKind::framework)) {
        CAPTURE(key);
        CHECK_NOTHROW(preset_framework(key.c_str()));
    }
    const Result r = evaluate(zero3_training(Framework{}));
    CHECK(r.training.framework.find("current practice") == 0);
    CHECK(evaluate(zero3_training(preset_framework("deepspeed-0.3"))).training.framework.find("DeepSpeed 0.3") == 0);
}

TEST_CASE("DeepSpeed 0.3's ZeRO-3 is current ZeRO-3 with nothing overlapped, 16-bit gradients and an all-reduce") {
    // The profile's mechanisms, one at a time: a framework whose gathers synchronise the device
    // times like a workload that turns both overlaps off; its all-reduce costs more than the
    // reduce-scatter of the same bytes.
    const Framework ds = preset_framework("deepspeed-0.3");
    Framework same = Framework{};
    same.gradient_reduce_bytes = 2;
    same.sharded_gradient_reduce = CollectiveKind::all_reduce;
    Scenario off = zero3_training(same);
    off.workload.training.overlap_param_gather = false;
    off.workload.training.overlap_grad_reduce = false;
    const double t_ds = evaluate(zero3_training(ds)).training.breakdown.zero3_s;
    CHECK(t_ds == doctest::Approx(evaluate(off).training.breakdown.zero3_s));
    same.sharded_gradient_reduce = CollectiveKind::reduce_scatter;
    Scenario rs = off;
    rs.framework = same;
    CHECK(evaluate(rs).training.breakdown.zero3_s < t_ds);
    // Current practice overlaps both and is faster still.
    CHECK(evaluate(zero3_training(Framework{})).training.step_time_s < evaluate(zero3_training(ds)).training.step_time_s);
}

TEST_CASE("a measured case's training.framework and framework_version pick the release's profile") {
    const Json& cases = measured_document("cases");
    const Json* ds = nullptr;
    for (const Json& doc : cases) {
        if (doc["id"] == "megatron21_t2_0") ds = &doc;
    }
    REQUIRE(ds);
    // The public case names DeepSpeed without its release; annotations.json supplies 0.3.
    CHECK_FALSE((*ds)["training"].contains("framework_version"));
    CHECK(read_measured_case(*ds).scenario["framework"] == "deepspeed-0.3");
    Json newest = *ds;
    newest["id"] = "not-annotated";
    CHECK(read_measured_case(newest).scenario["framework"] == "deepspeed");  // no version: its newest
    Json stated = *ds;
    stated["training"]["framework_version"] = "0.5.1";  // a version the case states beats the annotation
    CHECK(read_measured_case(stated).scenario["framework"] == "deepspeed");
    stated["training"]["framework_version"] = "0.3.16";
    CHECK(read_measured_case(stated).scenario["framework"] == "deepspeed-0.3");
    Json unknown = *ds;
    unknown["training"]["framework"] = "some-framework";
    CHECK(read_measured_case(unknown).scenario["framework"] == "current");
    unknown["training"].erase("framework");
    CHECK(read_measured_case(unknown).scenario["framework"] == "current");
}

TEST_CASE("the sustained rate slows whole-model matrix work, never a benchmark's single GEMM") {
    // A 4096³ bf16 GEMM on the round chip (10 TFLOP/s, efficiency 1): 2·4096³ / 10e12 = 13.74 ms
    // in a benchmark loop, and at a sustained 0.8 of that rate 17.18 ms in a whole-model run.
    Chip chip = test::round_chip();
    chip.sustained_compute = 0.8;
    const Engine engine{};
    const Op op = build::matmul("gemm", 1, 4096, 4096, 4096, Precision::bf16, Precision::bf16, Precision::bf16, false);
    const double bench = time_at(roofs_of(op, nullptr, TimingContext{chip, engine, TimingModel::expected}), 0).total_s;
    const double whole = time_at(roofs_of(op, nullptr, TimingContext{chip, engine, TimingModel::expected, 0, true}), 0).total_s;
    CHECK(bench == doctest::Approx(2.0 * 4096 * 4096 * 4096 / 10e12));
    CHECK(whole == doctest::Approx(2.0 * 4096 * 4096 * 4096 / 8e12));
    // A training step's compute follows: the same step at sustained 1 and 0.8.
    Scenario s = zero3_training(Framework{});
    s.parallelism.zero = 1;
    const double full = evaluate(s).training.breakdown.compute_s;
    s.system.chip.sustained_compute = 0.8;
    CHECK(evaluate(s).training.breakdown.compute_s > full);
}

TEST_CASE("the sustained-rate fit: sources grouped, and the Gaudi2 preset holds what the fit gives") {
    CHECK(source_group("MLPerf Training v3.1 results (Intel-HabanaLabs, HLS-Gaudi2-N32-PT, gpt3); x") ==
          "MLPerf Training v3.1 results");
    CHECK(source_group("Narayanan et al. 2021 (Megatron-LM, SC21); arXiv") == "Narayanan et al. 2021");
    // Gaudi2's three GPT-3 MLPerf runs (two sources): the preset's value is the fit's, and the
    // held-out sources do better at the others' value than at 1.
    Json gaudi = Json::array();
    for (const Json& doc : measured_document("cases")) {
        if (doc["kind"] == "training" && doc["hardware"]["chip"] == "Gaudi2") gaudi.push_back(doc);
    }
    const std::vector<ChipSustainedFit> fits = fit_sustained(gaudi);
    REQUIRE(fits.size() == 1);
    const ChipSustainedFit& f = fits[0];
    CHECK(f.chip == "gaudi2");
    CHECK(f.fitted);
    CHECK(f.sources == 2);
    const Json& preset = *find_preset(PresetKind::chip, "gaudi2");
    CHECK(f.value == doctest::Approx(preset["efficiency"]["sustained"]["value"].get<double>()));
    for (const SourceFold& s : f.folds) CHECK(s.mape_held_out < s.mape_at_one);
}
