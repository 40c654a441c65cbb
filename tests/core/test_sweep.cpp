// One scenario along one axis in one call (explore/sweep.hpp, io/sweep_json.hpp, api.hpp).
// Each point is checked against a separate route to the same number: the scenario document
// edited and evaluated on its own (evaluate_json), or a count worked out by hand here.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "api.hpp"
#include "explore/fit.hpp"
#include "explore/sweep.hpp"
#include "io/json_parse.hpp"

using namespace envelope;

namespace {

// Llama-3.1-8B on one H100: 32 layers, 8 KV heads of 128.
Json llama8b(int64_t batch, int64_t input, int64_t output) {
    Json doc = parse_json_text(R"({"model": "llama-3.1-8b", "system": {"preset": "dgx-h100", "count": 1},
        "workload": {"kind": "inference", "precision": "bf16"}})");
    doc["workload"]["batch"] = batch;
    doc["workload"]["input_tokens"] = input;
    doc["workload"]["output_tokens"] = output;
    return doc;
}

Json sweep_of(const Json& scenario, const char* axis, const Json& values) {
    return parse_json_text(sweep_json(to_text(Json{{"scenario", scenario}, {"axis", axis}, {"values", values}})));
}

Json request_error(const Json& request) {
    const Json out = parse_json_text(sweep_json(to_text(request)));
    REQUIRE(out["ok"] == false);
    return out["error"];
}

}  // namespace

TEST_CASE("each point of a sweep is the scenario evaluated alone with that field changed") {
    const Json base = llama8b(8, 1000, 200);
    const std::vector<std::pair<const char*, const char*>> axes = {
        {"batch", "batch"}, {"input_tokens", "input_tokens"}, {"output_tokens", "output_tokens"}};
    for (const auto& axis : axes) {
        const Json out = sweep_of(base, axis.first, {1, 64, 3000});
        INFO(to_text(out));
        REQUIRE(out["ok"] == true);
        CHECK(out["axis"] == axis.first);
        REQUIRE(out["points"].size() == 3);
        for (const Json& p : out["points"]) {
            Json doc = base;
            doc["workload"][axis.second] = p["value"];
            const Json alone = parse_json_text(evaluate_json(to_text(doc)));
            REQUIRE(alone["ok"] == true);
            CHECK(p["ok"] == true);
            CHECK(p["ttft_s"].get<double>() == alone["summary"]["ttft_s"].get<double>());
            CHECK(p["e2e_latency_s"].get<double>() == alone["summary"]["e2e_latency_s"].get<double>());
            CHECK(p["output_tokens_per_s"].get<double>() == alone["summary"]["output_tokens_per_s"].get<double>());
            CHECK(p["memory_bytes"].get<double>() == alone["memory"]["total_bytes"].get<double>());
            CHECK(p["fits"] == alone["memory"]["fits"]);
            CHECK(p["tpot_s"] == alone["summary"]["tpot_s"]);
        }
    }
}

TEST_CASE("the KV cache grows by 2 x 32 layers x 8 heads x 128 x 2 bytes = 131072 bytes a token a sequence") {
    const Json out = sweep_of(llama8b(4, 1000, 100), "input_tokens", {1000, 2000, 4000});
    const Json& p = out["points"];
    CHECK(p[0]["kv_cache_bytes"].get<double>() == doctest::Approx(131072.0 * 4 * 1100));
    CHECK(p[1]["kv_cache_bytes"].get<double>() - p[0]["kv_cache_bytes"].get<double>() ==
          doctest::Approx(131072.0 * 4 * 1000));
    CHECK(p[2]["kv_cache_bytes"].get<double>() - p[1]["kv_cache_bytes"].get<double>() ==
          doctest::Approx(131072.0 * 4 * 2000));
    // The weights do not move with the prompt: 8.03 B parameters x 2 bytes.
    CHECK(p[0]["weights_bytes"] == p[2]["weights_bytes"]);
    CHECK(p[0]["weights_bytes"].get<double>() == doctest::Approx(16.06e9).epsilon(0.01));
}

TEST_CASE("longer prompts: TTFT, memory and TPOT never fall; more output: a longer request") {
    const Json ctx = sweep_of(llama8b(8, 1000, 200), "input_tokens", {128, 512, 2048, 8192, 32768, 100000});
    for (std::size_t i = 1; i < ctx["points"].size(); ++i) {
        const Json& a = ctx["points"][i - 1];
        const Json& b = ctx["points"][i];
        CHECK(b["ttft_s"].get<double>() > a["ttft_s"].get<double>());
        CHECK(b["memory_bytes"].get<double>() > a["memory_bytes"].get<double>());
        CHECK(b["tpot_s"].get<double>() >= a["tpot_s"].get<double>());
    }
    // 100k tokens of 8 sequences do not fit one H100's 80 GB: marked, not dropped.
    CHECK(ctx["points"][5]["ok"] == true);
    CHECK(ctx["points"][5]["fits"] == false);
    CHECK(ctx["points"][0]["fits"] == true);

    const Json out = sweep_of(llama8b(8, 1000, 200), "output_tokens", {1, 10, 100, 1000});
    CHECK(out["points"][0]["tpot_s"].is_null());  // one token: prefill gives it
    CHECK(out["points"][0]["output_tokens_per_s_per_user"] == 0.0);
    for (std::size_t i = 1; i < out["points"].size(); ++i) {
        CHECK(out["points"][i]["e2e_latency_s"].get<double>() > out["points"][i - 1]["e2e_latency_s"].get<double>());
        CHECK(out["points"][i]["ttft_s"] == out["points"][0]["ttft_s"]);
    }
}

TEST_CASE("a TP sweep: 141 GB of Llama-3.1-70B weights split TP ways, and a degree the heads refuse is marked") {
    const Json s = parse_json_text(R"({"model": "llama-3.1-70b", "system": "dgx-h100", "parallelism": {"tp": 8, "dp": 1},
        "workload": {"kind": "inference", "batch": 8, "input_tokens": 1000, "output_tokens": 100, "precision": "bf16"}})");
    const Json out = sweep_of(s, "tp", {1, 2, 3, 4, 8, 16});
    REQUIRE(out["ok"] == true);
    CHECK(out["current"] == 8);
    const Json& p = out["points"];
    REQUIRE(p.size() == 6);
    CHECK(p[0]["fits"] == false);  // 141 GB on one 80 GB chip
    CHECK(p[0]["weights_bytes"].get<double>() == doctest::Approx(141.1e9).epsilon(0.01));
    CHECK(p[1]["weights_bytes"].get<double>() == doctest::Approx(70.6e9).epsilon(0.01));
    CHECK(p[1]["fits"] == true);
    CHECK(p[2]["ok"] == false);
    CHECK(p[2]["value"] == 3);
    CHECK(p[2]["error"]["path"].get<std::string>().rfind("parallelism", 0) == 0);
    CHECK(p[4]["chips"] == 8);
    CHECK(p[5]["ok"] == false);  // 16 chips on an 8-chip system
    // Each doubling of TP shortens the prompt's pass.
    CHECK(p[3]["ttft_s"].get<double>() < p[1]["ttft_s"].get<double>());
    CHECK(p[4]["ttft_s"].get<double>() < p[3]["ttft_s"].get<double>());
}

TEST_CASE("a range is geometric, holds the scenario's own value, and the curve is a sweep over the batch") {
    const Json s = parse_json_text(R"({"model": "llama-3.1-8b", "system": {"preset": "dgx-h100", "count": 1},
        "workload": {"kind": "inference", "batch": 24, "input_tokens": 1000, "output_tokens": 200, "precision": "fp8"}})");
    const Json out = parse_json_text(
        sweep_json(to_text(Json{{"scenario", s}, {"axis", "batch"}, {"range", {{"from", 1}, {"to", 4096}, {"points", 64}}}})));
    REQUIRE(out["ok"] == true);
    const Json& p = out["points"];
    // 64 geometric values from 1 repeat at the small end (1, 1, 1, 2, …): fewer, plus the own 24.
    CHECK(p.size() >= 50);
    CHECK(p.size() <= 65);
    CHECK(p.front()["value"] == 1);
    CHECK(p.back()["value"] == 4096);
    bool own = false;
    for (std::size_t i = 0; i < p.size(); ++i) {
        own = own || p[i]["value"] == 24;
        if (i > 0) CHECK(p[i]["value"].get<int64_t>() > p[i - 1]["value"].get<int64_t>());
    }
    CHECK(own);
    CHECK(geometric_values(1, 4096, 13) == std::vector<int64_t>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096});
    CHECK(geometric_values(5, 7, 64) == std::vector<int64_t>{5, 6, 7});

    // The curve's points are sweep points of the same batches.
    Json curve = parse_json_text(curve_json(to_text(s)));
    Json batches = Json::array();
    for (const Json& c : curve["points"]) batches.push_back(c["batch"]);
    const Json same = sweep_of(s, "batch", batches);
    for (std::size_t i = 0; i < batches.size(); ++i) {
        CHECK(same["points"][i]["tpot_s"] == curve["points"][i]["tpot_s"]);
        CHECK(same["points"][i]["output_tokens_per_s_per_chip"] == curve["points"][i]["output_tokens_per_s_per_chip"]);
    }
}

TEST_CASE("a bad request names its field and the allowed range") {
    const Json s = llama8b(8, 1000, 200);
    CHECK(request_error({{"scenario", s}, {"axis", "chips"}, {"values", {1}}})["path"] == "axis");
    CHECK(request_error({{"scenario", s}, {"axis", "batch"}, {"values", Json::array()}})["path"] == "values");
    Json many = Json::array();
    for (int i = 1; i <= 129; ++i) many.push_back(i);
    const Json too_many = request_error({{"scenario", s}, {"axis", "batch"}, {"values", many}});
    CHECK(too_many["path"] == "values");
    CHECK(too_many["message"].get<std::string>().find("128") != std::string::npos);
    const Json zero = request_error({{"scenario", s}, {"axis", "input_tokens"}, {"values", {4, 8, 0}}});
    CHECK(zero["path"] == "values[2]");
    CHECK(zero["message"].get<std::string>().find("[1, 100000000]") != std::string::npos);
    CHECK(request_error({{"scenario", s}, {"axis", "batch"}, {"values", {1}}, {"range", {{"from", 1}, {"to", 2}, {"points", 2}}}})["path"] ==
          "range");
    CHECK(request_error({{"scenario", s}, {"axis", "batch"}})["path"] == "values");
    CHECK(request_error({{"scenario", s}, {"axis", "batch"}, {"range", {{"from", 1}, {"to", 64}, {"points", 200}}}})["path"] ==
          "range.points");
    CHECK(request_error({{"scenario", s}, {"axis", "batch"}, {"range", {{"from", 64}, {"to", 8}, {"points", 4}}}})["path"] ==
          "range.to");
    CHECK(request_error({{"scenario", s}, {"axis", "batch"}, {"values", {1}}, {"extra", 1}})["path"] == "extra");
    Json bad = s;
    bad["workload"]["batch"] = 0;
    CHECK(request_error({{"scenario", bad}, {"axis", "input_tokens"}, {"values", {1}}})["path"] == "scenario.workload.batch");
    const Json train = parse_json_text(R"({"model": "llama-3-8b", "system": "dgx-h100", "workload": {"kind": "training",
        "seq_len": 1024, "global_batch": 8, "micro_batch": 1, "precision": "bf16"}})");
    CHECK(request_error({{"scenario", train}, {"axis", "batch"}, {"values", {1}}})["path"] == "scenario.workload.kind");
    CHECK(parse_json_text(sweep_json("{"))["ok"] == false);
}
