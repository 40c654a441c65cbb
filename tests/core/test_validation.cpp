// envelope validate: measured cases become scenarios or are skipped with a reason; the
// statistics follow their definitions; and the bundled cases hold the accuracy reached so
// far (a ratchet: the thresholds below only ever tighten).
#include <doctest/doctest.h>

#include "api.hpp"

#include <cmath>
#include <string>

#include "presets/registry.hpp"
#include "validation/coverage.hpp"
#include "validation/error_band.hpp"
#include "measured_fixtures.hpp"
#include "validation/measured_case.hpp"
#include "validation/predict.hpp"
#include "validation/validate.hpp"

using namespace envelope;
using envelope::test::skip_reason;

namespace {

// A complete static inference case of the public format, to edit per test.
Json inference_case() {
    return Json::parse(R"({
      "id": "t", "source": "test", "kind": "inference",
      "hardware": {"chip": "H100-SXM", "count": 2, "per_node": 8, "scale_up_gbps": 450, "scale_out_gbps": 50},
      "model": {"name": "L", "layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 32, "head_dim": 128,
                "ffn": 11008, "gated_ffn": true, "vocab": 32000, "tied_embeddings": false, "params_b": 6.7,
                "moe": null, "mla": null},
      "inference": {"tp": 2, "pp": 1, "ep": 1, "dp": 1, "batch": 8, "input_tokens": 128, "output_tokens": 64,
                    "weight_precision": "fp8", "kv_precision": null, "activation_precision": "fp8", "mode": "static"},
      "engine": {"name": "tensorrt-llm", "version": "0.5.0"},
      "measured": {"output_tokens_per_s": 1000},
      "primary": "output_tokens_per_s"
    })");
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("an inference case becomes the scenario it describes, with documented defaults") {
    const MeasuredCase c = read_measured_case(inference_case());
    CHECK(c.what == CaseKind::inference);
    CHECK(c.measured == 1000);
    const Json& s = c.scenario;
    CHECK(s["system"]["chip"] == "h100-sxm");             // lower-cased chip key
    CHECK(s["system"]["count"] == 2);                     // the job's chips
    CHECK(s["system"]["network"][0]["size"] == 8);        // the chip's reference node (DGX H100)
    CHECK(s["parallelism"] == Json({{"tp", 2}, {"pp", 1}, {"dp", 1}, {"ep", 1}}));
    CHECK(s["engine"] == "tensorrt-llm-0.5");             // 0.5 ≤ 0.5.0 < 0.8
    CHECK(s["workload"]["precision"]["kv_cache"] == "fp8");  // null: the activation format

    Json fp4 = inference_case();
    fp4["hardware"]["chip"] = "B200";
    fp4["inference"]["weight_precision"] = fp4["inference"]["activation_precision"] = "fp4";
    CHECK(read_measured_case(fp4).scenario["workload"]["precision"]["kv_cache"] == "fp8");  // never below 8 bits
    CHECK(read_measured_case(fp4).scenario["workload"]["precision"]["weights"] == "fp4");  // as stated
    // fp4_format (EXTENSIONS.md) names the block-scaled format a stated fp4 is (METHODOLOGY §7.1).
    fp4["inference"]["fp4_format"] = "nvfp4";
    const Json named = read_measured_case(fp4).scenario["workload"]["precision"];
    CHECK(named["weights"] == "nvfp4");
    CHECK(named["activations"] == "nvfp4");
    CHECK(named["kv_cache"] == "fp8");  // a 4-bit recipe's cache stays at 8 bits
    fp4["inference"]["fp4_format"] = "int4";
    CHECK(contains(skip_reason(fp4), "fp4_format"));

    Json later = inference_case();
    later["engine"]["version"] = "0.19";
    CHECK(read_measured_case(later).scenario["engine"] == "tensorrt-llm-0.19");
    later["engine"] = {{"name", "some-new-engine"}, {"version", "3.0"}};
    CHECK(read_measured_case(later).scenario["engine"] == "default");  // unknown: current practice
    later["engine"] = nullptr;
    CHECK(read_measured_case(later).scenario["engine"] == "default");
}

TEST_CASE("a benchmark client's run: lengths on [r·L, L] and the requests of a closed loop") {
    Json loop = inference_case();
    loop["inference"]["mode"] = "concurrency";
    loop["inference"]["batch"] = 4;
    loop["inference"]["input_tokens"] = 8192;
    loop["inference"]["output_tokens"] = 1024;
    loop["inference"]["random_range_ratio"] = 0.8;  // InferenceX: uniform on [0.8 L, L]
    loop["inference"]["num_requests"] = 40;         // --num-prompts 10·CONC
    const Json w = read_measured_case(loop).scenario["workload"];
    CHECK(w["input_tokens"] == doctest::Approx(0.9 * 8192));  // the mean, (1 + 0.8)/2·L
    CHECK(w["output_tokens"] == doctest::Approx(921.6));
    CHECK(w["length_distribution"]["range_ratio"] == doctest::Approx(0.8));
    CHECK(w["requests"] == 40);
    loop["inference"].erase("random_range_ratio");
    loop["inference"].erase("num_requests");
    const Json plain = read_measured_case(loop).scenario["workload"];
    CHECK(plain["input_tokens"] == doctest::Approx(8192));
    CHECK(!plain.contains("length_distribution"));
    CHECK(!plain.contains("requests"));  // an unbounded run: the steady state
}

TEST_CASE("a case the model cannot express is skipped with the reason, never an error") {
    Json c = inference_case();
    c["model"]["mla"] = {{"kv_lora_rank", 512}};  // no qk_rope_dim
    CHECK(contains(skip_reason(c), "model.mla.qk_rope_dim is missing"));
    c = inference_case();
    c["model"]["moe"] = {{"experts", 8}, {"top_k", 2}};  // no expert_ffn
    CHECK(contains(skip_reason(c), "model.moe.expert_ffn is missing"));
    c = inference_case();
    c["inference"]["mode"] = "server";  // needs its offered rate
    CHECK(contains(skip_reason(c), "request_rate_qps or inference.mlperf_target_qps"));
    c = inference_case();
    c["inference"]["mode"] = "disaggregated_prefill_only";
    CHECK(contains(skip_reason(c), "is not modelled yet"));
    c = inference_case();
    c["hardware"]["chip"] = "SN40L";
    CHECK(contains(skip_reason(c), "no chip preset for SN40L"));
    c = inference_case();
    c["primary"] = "tokens_per_joule";
    CHECK(contains(skip_reason(c), "unknown metric"));
    c = inference_case();
    c["kind"] = "training";
    c["primary"] = "step_time_s";
    c["measured"] = {{"step_time_s", 1.5}};
    CHECK(contains(skip_reason(c), "training"));
    c = inference_case();
    c["incomplete"] = true;
    CHECK(contains(skip_reason(c), "incomplete"));
    c = inference_case();
    c["inference"]["batch"] = nullptr;
    CHECK(contains(skip_reason(c), "batch is null"));
    c = inference_case();
    c["model"]["layers"] = "many";
    CHECK(contains(skip_reason(c), "model.layers"));
    CHECK(contains(skip_reason(Json(42)), "not an object"));
}

TEST_CASE("statistics follow their definitions (worked by hand)") {
    // Signed errors −0.3, −0.05, 0.1, 0.2, 0.5: |e| = .3 .05 .1 .2 .5 → mean 0.23, median 0.2,
    // within 10% 2 of 5, within 25% 3 of 5; signed median 0.1; worst 0.5.
    const ErrorStats s = error_stats({0.1, -0.3, 0.5, -0.05, 0.2});
    CHECK(s.scored == 5);
    CHECK(s.mape == doctest::Approx(0.23));
    CHECK(s.median_ape == doctest::Approx(0.2));
    CHECK(s.within_10 == doctest::Approx(0.4));
    CHECK(s.within_25 == doctest::Approx(0.6));
    CHECK(s.bias == doctest::Approx(0.1));
    CHECK(s.worst == doctest::Approx(0.5));
    // Quantiles by linear interpolation: of 1..5, the 10th percentile is 1.4, the 90th 4.6.
    CHECK(quantile({5, 1, 3, 2, 4}, 0.1) == doctest::Approx(1.4));
    CHECK(quantile({5, 1, 3, 2, 4}, 0.9) == doctest::Approx(4.6));
}

TEST_CASE("a file of cases: every case scored or skipped — a non-array is one skip") {
    Json file = Json::array({inference_case(), Json(42), Json::object()});
    file[0]["id"] = "good";
    const ValidationReport r = validate_cases(file);
    REQUIRE(r.cases.size() == 1);
    CHECK(r.cases[0].id == "good");
    CHECK(r.cases[0].error == doctest::Approx(r.cases[0].predicted / 1000 - 1));
    CHECK(r.skipped.size() == 2);
    CHECK(validate_cases(Json::object()).skipped.size() == 1);
}

TEST_CASE("accuracy on the bundled measured cases holds (ratchet: thresholds only tighten)") {
    const ValidationReport r = validate_cases(measured_document("cases"));
    const auto kind = [&](const char* k) { return r.by_kind.at(k); };
    const auto metric = [&](const char* m) { return r.by_metric.at(m); };
    // Reset on 2026-12-01 when presets/measured/cases.json grew from 203 to 864 cases (the
    // serving, framework, fabric and PEFT cases of issues 18, 19 and 21): what the new file
    // measures at that commit, 596 scored and 268 skipped. On the old 203 cases the model
    // stood at inference 18.5 %, training step time 11.5 %, collectives 15.7 %, GEMMs 2.5 %.
    // From here the thresholds only tighten and the counts only grow.
    CHECK(r.cases.size() >= 596);
    CHECK(kind("inference").scored >= 412);
    CHECK(r.cases.size() >= 682);               // + 19 server cases (§15.5)
    CHECK(kind("inference").scored >= 493);
    // Concurrency cases run as a closed loop under continuous batching with chunked prefill
    // (METHODOLOGY §19), their clients shared over the replicas: inference 344.2 % → 86.2 %,
    // TTFT 829 % → 186 % (bias +150 % → −71 %), TPOT 55.1 % → 27.2 %, worst 351× → 85×.
    // engine profiles for vLLM V1 and SGLang 0.5 (KV cache of the total memory): 0.863 → 0.856
    // Disaggregated cases served by their two pools (METHODOLOGY §15.7; they were evaluated as
    // aggregated, 21 scored at 996 %): inference 0.856 → 0.380 and its worst 84.6 → 3.41 (the
    // worst was a disaggregated case), TTFT 1.840 → 0.614, TPOT 0.271 → 0.243, and the slice
    // itself 45 scored at 44.8 % (median 37.1 %).
    CHECK(kind("inference").mape <= 0.365);  // with the 19 server cases (§15.5) scored: 0.380 → 0.365
    // A benchmark's rounds (§15.2: the burst of every client at once, then requests back
    // within their output lengths' spread) and the InferenceX runs' stated method (lengths on
    // [0.8 L, L], 10 requests a client; annotations.json): inference 0.365 → 0.340, TTFT
    // 0.614 → 0.544 (median 0.711 → 0.576), TPOT 0.2425 → 0.2428.
    CHECK(kind("inference").mape <= 0.340);
    CHECK(kind("inference").worst <= 3.41);
    CHECK(metric("inference/ttft_ms").mape <= 0.544);
    CHECK(metric("inference/ttft_ms").median_ape <= 0.576);
    CHECK(metric("inference/tpot_ms").mape <= 0.243);
    for (const CoverageRow& row : r.coverage) {
        if (row.regime != "inference mode" || row.value != "disaggregated") continue;
        CHECK(row.stats.scored >= 45);
        CHECK(row.stats.mape <= 0.449);
        CHECK(row.stats.median_ape <= 0.372);
    }
    // 0.189 → 0.174: server mode (METHODOLOGY §15.5), 14 more output-rate cases at 10.3 %.
    CHECK(metric("inference/output_tokens_per_s").mape <= 0.174);
    // Server mode (an open loop at the offered rate, §15.5): 19 cases at 10.7 % (MLPerf v5.1
    // Server and Interactive, TensorRT-LLM 0.14's online table), none scored before.
    {
        double server_sum = 0;
        int server_n = 0;
        for (const ScoredCase& c : r.cases) {
            if (c.kind != "inference" || !c.scenario.is_object()) continue;
            if (c.scenario["workload"].value("mode", "static") != "server") continue;
            server_sum += std::abs(c.error);
            ++server_n;
        }
        CHECK(server_n >= 19);
        CHECK(server_sum / server_n <= 0.108);
    }
    CHECK(kind("collective").scored >= 55);
    // 0.380 → 0.326: the tree across nodes and the fabric presets (METHODOLOGY §12.2, §12.9);
    // 0.326 → 0.304: B200's LL cap across nodes is the NIC's (Hopper's 45 GB/s, §12.9)
    CHECK(kind("collective").mape <= 0.304);
    // Inside one node (hardware.nodes 1, or without it count ≤ per_node), and across nodes:
    double sum = 0, sum_across = 0;
    int n = 0, n_across = 0;
    for (const Json& doc : measured_document("cases")) {
        const Json& hw = doc["hardware"];
        if (doc["kind"] != "collective") continue;
        const bool across = hw.contains("nodes") && hw["nodes"].is_number() ? hw["nodes"] > 1 : hw["count"] > hw["per_node"];
        for (const ScoredCase& c : r.cases) {
            if (c.id == doc["id"]) {
                (across ? sum_across : sum) += std::abs(c.error);
                ++(across ? n_across : n);
            }
        }
    }
    CHECK(n >= 31);
    CHECK(sum / n <= 0.080);
    // Across nodes: 76.7 % → 64.1 % over 24 (the tree across nodes, the fabric presets, §12.9),
    // → 59.2 % (B200's LL cap across nodes, §12.9)
    CHECK(n_across >= 24);
    CHECK(sum_across / n_across <= 0.593);
    CHECK(kind("gemm").mape <= 0.025);
    CHECK(kind("training").scored >= 114);  // + 5 folded-EP MoE runs (§10.5)
    // Framework profiles (DeepSpeed 0.3's ZeRO-3, METHODOLOGY §37.1) and each chip's fitted
    // sustained rate (§37.2): training 0.334 → 0.249, step time 0.267 → 0.237, TFLOP/s 0.535 → 0.283.
    // Fine-tuning modelled (METHODOLOGY §39: frozen base, adapters, adapter-only DP sync):
    // training 0.248 → 0.226, step time 0.236 → 0.207; the 20 scored LoRA cases 32.3 % → 19.7 %
    // (worst 201 % → 58 %; median 8.6 % → 15.8 %, bias +5.7 % → −15.8 %: the B200/GB200 and
    // pipeline-parallel runs that are slow already as full training).
    // 4-bit GEMMs get their quantize casts too (§25.5): training 0.2260 → 0.2237, step time
    // 0.2061 → 0.2031 (the 9 fp4 MLPerf v5.1 Blackwell runs 2–4 points closer).
    CHECK(kind("training").mape <= 0.224);
    CHECK(metric("training/step_time_s").mape <= 0.204);
    for (const CoverageRow& row : r.coverage) {
        if (row.regime != "training fine-tuning" || row.value != "lora") continue;
        CHECK(row.stats.scored >= 20);
        CHECK(row.stats.mape <= 0.198);
        CHECK(row.stats.worst <= 0.58);
    }
    CHECK(metric("training/tflops_per_gpu").mape <= 0.282);
    CHECK(kind("memory").mape <= 0.123);
}

TEST_CASE("a memory case whose dropout the format cannot state: on for a plain MLP (Megatron-LM), and Table 2") {
    // GPT-3 175B (h = 12288, 96 layers), s = 2048, b = 1, TP 8 with SP, selective
    // recomputation, PP 8 with 1F1B: Korthikanti et al. 2022 Table 2 keeps 34·s·b·h/t bytes a
    // layer (dropout masks included) and the first stage holds L layers' worth (their eq. 5):
    // 34 · 2048 · 12288 · 96 / 8 = 10,267,656,192 B = 9.5625 GiB. Without the two 1-byte
    // masks it would be 32/34 of that, 9.0 GiB.
    const Json doc = Json::parse(R"({
      "id": "k", "source": "test", "kind": "memory",
      "hardware": {"chip": "A100-SXM-80GB", "count": 64, "per_node": 8, "scale_up_gbps": 300, "scale_out_gbps": 25},
      "model": {"name": "GPT-3", "layers": 96, "hidden": 12288, "heads": 96, "kv_heads": 96, "head_dim": 128,
                "ffn": 49152, "gated_ffn": false, "vocab": 51200, "tied_embeddings": true, "params_b": 174.6,
                "moe": null, "mla": null},
      "training": {"seq_len": 2048, "global_batch": 64, "micro_batch": 1, "dp": 1, "tp": 8, "pp": 8, "cp": 1, "ep": 1,
                   "sp": true, "vpp": null, "recompute": "selective", "zero": 0, "precision": "fp16",
                   "flash_attention": false},
      "measured": {"activation_gib_per_gpu": 12.35},
      "primary": "activation_gib_per_gpu"
    })");
    const MeasuredCase c = read_measured_case(doc);
    CHECK(c.scenario["workload"]["dropout"] == true);
    CHECK(predict_case(c) == doctest::Approx(9.5625));
    // A gated-MLP (Llama-family) model trains without dropout (NeMo's LlamaConfig: 0.0).
    Json llama = doc;
    llama["model"]["gated_ffn"] = true;
    CHECK(read_measured_case(llama).scenario["workload"]["dropout"] == false);
}

TEST_CASE("training results get the error band of the training cases, as a ratio on the step time") {
    ValidationReport r;
    // Step times measured 1.1 and 1.3 times the prediction; a TFLOP/s predicted 20% high is a
    // step 1.2 times the prediction.
    r.cases.push_back({"a", "training", "step_time_s", "", "", "", 11, 10, 0.1, {}});
    r.cases.push_back({"b", "training", "step_time_s", "", "", "", 13, 10, 0.3, {}});
    r.cases.push_back({"c", "training", "tflops_per_gpu", "", "", "", 100, 120, 0.2, {}});
    const InferenceErrorBands b = inference_error_bands(r);
    CHECK(b.step.cases == 3);
    CHECK(b.step.low == doctest::Approx(1.1 + 0.1 * (1.2 - 1.1) * 2));  // 10th percentile of {1.1, 1.2, 1.3}
    CHECK(b.step.high == doctest::Approx(1.3 - 0.1 * (1.3 - 1.2) * 2));
    CHECK(b.static_batch.ttft.cases == 0);
    CHECK(b.closed_loop.ttft.cases == 0);
}

TEST_CASE("the coverage table: every regime a case is in, unvalidated where none is scored") {
    Json good = inference_case();
    good["id"] = "static-ok";
    Json server = inference_case();
    server["id"] = "server-run";
    server["inference"]["mode"] = "server";  // not modelled: skipped
    Json loop = inference_case();
    loop["id"] = "loop";
    loop["inference"]["mode"] = "concurrency";
    loop["engine"] = {{"name", "vllm"}, {"version", "0.9.0"}};
    const Json file = Json::array({good, server, loop});
    const ValidationReport r = validate_cases(file);
    REQUIRE(r.cases.size() == 2);
    const auto row = [&](const std::string& regime, const std::string& value) {
        for (const CoverageRow& c : r.coverage) {
            if (c.regime == regime && c.value == value) return c;
        }
        FAIL("no row " << regime << ": " << value);
        return CoverageRow{};
    };
    CHECK(row("kind", "inference").cases == 3);
    CHECK(row("kind", "inference").stats.scored == 2);
    CHECK(row("inference mode", "server").cases == 1);
    CHECK(row("inference mode", "server").stats.scored == 0);  // unvalidated
    CHECK(row("inference mode", "static").stats.scored == 1);
    CHECK(row("inference engine", "vllm").stats.scored == 1);
    CHECK(row("inference architecture", "dense").cases == 3);
    const Json j = to_json(r);
    CHECK(j["coverage"].size() == r.coverage.size());
    bool server_unvalidated = false;
    for (const Json& c : j["coverage"]) {
        if (c["value"] == "server") server_unvalidated = c["validated"] == false;
    }
    CHECK(server_unvalidated);
    CHECK(to_text(r).find("inference mode: server                         1     0   unvalidated") != std::string::npos);
}

TEST_CASE("the committed error bands are what the bundled cases give with today's model") {
    // presets/measured/error-bands.json is generated; when the model or the cases change, write
    // it again: build/native/envelope validate --bands presets/measured/cases.json > presets/measured/error-bands.json
    const Json& committed = measured_document("error-bands");
    REQUIRE(committed.is_object());
    const InferenceErrorBands now = inference_error_bands(validate_cases(measured_document("cases")));
    const InferenceErrorBands file = error_bands_from_json(committed);
    const auto same = [](const ErrorBand& a, const ErrorBand& b) {
        CHECK(a.cases == b.cases);
        CHECK(a.low == doctest::Approx(b.low).epsilon(1e-9));
        CHECK(a.high == doctest::Approx(b.high).epsilon(1e-9));
    };
    same(file.static_batch.ttft, now.static_batch.ttft);
    same(file.static_batch.generation, now.static_batch.generation);
    same(file.closed_loop.ttft, now.closed_loop.ttft);
    same(file.closed_loop.generation, now.closed_loop.generation);
    same(file.step, now.step);
    CHECK(file.coverage == now.coverage);
    CHECK(file.scored.known);
    CHECK(file.scored.inference_chips.size() == now.scored.inference_chips.size());
    CHECK(file.scored.engines.size() == now.scored.engines.size());
    CHECK(file.scored.training_chips.size() == now.scored.training_chips.size());
    CHECK(file.scored.frameworks.size() == now.scored.frameworks.size());
    for (const std::string& name : now.scored.frameworks) CHECK(unvalidated_regimes(file.scored, true, now.scored.training_chips[0], name).empty());
    // What the results carry is the committed file's.
    CHECK(bundled_inference_error_bands().closed_loop.ttft.high == file.closed_loop.ttft.high);
}

TEST_CASE("a static batch and a closed loop of clients get the bands of their own regime") {
    ValidationReport r;
    const Json loop = {{"workload", {{"mode", "concurrency"}}}}, batch = {{"workload", {{"mode", "static"}}}};
    // A closed loop's TTFT measured 3× the prediction, a static batch's 1.1×.
    r.cases.push_back({"a", "inference", "ttft_ms", "", "", "", 300, 100, 2.0, loop});
    r.cases.push_back({"b", "inference", "ttft_ms", "", "", "", 110, 100, 0.1, batch});
    const InferenceErrorBands b = inference_error_bands(r);
    CHECK(b.static_batch.ttft.cases == 1);
    CHECK(b.static_batch.ttft.low == doctest::Approx(1.1));
    CHECK(b.closed_loop.ttft.cases == 1);
    CHECK(b.closed_loop.ttft.high == doctest::Approx(3.0));
    CHECK(b.closed_loop.generation.cases == 0);  // no case: no band, not a borrowed one
    // Through the front door: a concurrency scenario's band is the bundled closed-loop cases'.
    const Json static_result = evaluate_document(Json::parse(R"({"model": "llama-3.1-8b", "system": "dgx-h100",
        "parallelism": {"tp": 1, "dp": 1}, "workload": {"batch": 8, "input_tokens": 1000, "output_tokens": 100, "precision": "bf16"}})"));
    Json s = static_result["scenario"];
    s["workload"]["mode"] = "concurrency";
    const Json loop_result = evaluate_document(s);
    const InferenceErrorBands& bundled = bundled_inference_error_bands();
    CHECK(static_result["summary"]["error_band"]["ttft"]["cases"] == bundled.static_batch.ttft.cases);
    CHECK(loop_result["summary"]["error_band"]["ttft"]["cases"] == bundled.closed_loop.ttft.cases);
    CHECK(bundled.closed_loop.ttft.cases > 100);
}

TEST_CASE("a result in a regime no scored case checks has no band, and names the regime") {
    // What the scored cases ran on: one chip, one engine, one framework (names as the presets give them).
    ScoredRegimes scored;
    scored.known = true;
    scored.inference_chips = {"NVIDIA H100 SXM5 80GB"};
    scored.engines = {"vLLM V1 (0.8 and later)"};
    scored.training_chips = {"NVIDIA H100 SXM5 80GB"};
    scored.frameworks = {"Megatron-LM / Megatron-Core / NeMo"};
    CHECK(unvalidated_regimes(scored, false, "NVIDIA H100 SXM5 80GB", "vLLM V1 (0.8 and later)").empty());
    CHECK(unvalidated_regimes(scored, false, "NVIDIA B300", "SGLang 0.5") ==
          std::vector<std::string>{"chip NVIDIA B300", "engine SGLang 0.5"});
    CHECK(unvalidated_regimes(scored, true, "NVIDIA H100 SXM5 80GB", "MaxText (JAX / XLA)") ==
          std::vector<std::string>{"framework MaxText (JAX / XLA)"});
    // Inference chips and training chips are separate regimes.
    CHECK(unvalidated_regimes({true, {}, {"e"}, {"c"}, {"f"}}, false, "c", "e") == std::vector<std::string>{"chip c"});
    CHECK(unvalidated_regimes(ScoredRegimes{}, true, "any", "any").empty());  // not recorded: no check

    // Through the front door, on the bundled cases: no public MaxText run is scored (its 8 TPU
    // cases wait for chip presets), so a MaxText step has no band; Megatron's has one.
    const auto step_band = [](const char* framework) {
        Json doc = Json::parse(R"({"model": "llama-3-8b", "system": {"preset": "dgx-h100", "count": 8},
            "parallelism": {"tp": 1, "pp": 1, "dp": 8, "zero": 1},
            "workload": {"kind": "training", "seq_len": 4096, "global_batch": 64, "micro_batch": 1, "recompute": "full", "precision": "bf16"}})");
        doc["framework"] = framework;
        return evaluate_document(doc)["summary"]["error_band"];
    };
    const Json maxtext = step_band("maxtext");
    CHECK(maxtext["step"]["cases"] == 0);
    CHECK(maxtext["unvalidated"] == Json::array({"framework MaxText (JAX / XLA)"}));
    const Json megatron = step_band("megatron");
    CHECK(megatron["step"]["cases"].get<int>() > 100);
    CHECK_FALSE(megatron.contains("unvalidated"));
    // An inference result on a chip no scored inference case ran on (TPU v5e) has no band either.
    const Json tpu = evaluate_document(Json::parse(R"({"model": "llama-3-8b", "system": {"chip": "tpu-v5e", "count": 1},
        "workload": {"batch": 1, "input_tokens": 128, "output_tokens": 16, "precision": "bf16"}})"));
    CHECK(tpu["summary"]["error_band"]["ttft"]["cases"] == 0);
    CHECK(tpu["summary"]["error_band"]["generation"]["cases"] == 0);
    CHECK(tpu["summary"]["error_band"]["unvalidated"][0] == "chip " + tpu["scenario"]["system"]["chip"]["name"].get<std::string>());
}

TEST_CASE("a mixture-of-experts case becomes a scenario with its experts and expert parallelism") {
    Json c = inference_case();
    c["model"]["moe"] = {{"experts", 8}, {"top_k", 2}, {"expert_ffn", 14336}, {"shared_experts", 0}, {"dense_layers", 1}};
    c["inference"]["ep"] = 2;
    c["inference"]["dp"] = 2;
    c["hardware"]["count"] = 4;
    const Json s = read_measured_case(c).scenario;
    CHECK(s["model"]["moe"]["experts"] == 8);
    CHECK(s["model"]["dense_layers"] == 1);
    CHECK(s["parallelism"]["ep"] == 2);
}

namespace {

// The measured cases the range checks below break: a 128-chip training run and an 8-GPU
// all-reduce, in the public format.
Json training_case() {
    return Json::parse(R"({
      "id": "tr", "source": "test", "kind": "training",
      "hardware": {"chip": "H100-SXM", "count": 128, "per_node": 8, "scale_up_gbps": 450, "scale_out_gbps": 50},
      "model": {"name": "GPT-3", "layers": 96, "hidden": 12288, "heads": 96, "kv_heads": 96, "head_dim": 128,
                "ffn": 49152, "gated_ffn": false, "vocab": 51200, "tied_embeddings": true, "moe": null, "mla": null},
      "training": {"seq_len": 2048, "global_batch": 256, "micro_batch": 1, "dp": 4, "tp": 4, "pp": 8, "cp": 1,
                   "ep": 1, "sp": null, "vpp": null, "recompute": null, "zero": null, "precision": "bf16"},
      "measured": {"step_time_s": 8.91}, "primary": "step_time_s"
    })");
}

Json collective_case() {
    return Json::parse(R"({
      "id": "co", "source": "test", "kind": "collective",
      "hardware": {"chip": "H100-SXM", "count": 8, "per_node": 8, "scale_up_gbps": 450, "scale_out_gbps": null},
      "collective": {"op": "all_reduce", "bytes": 1073741824, "algorithm": null},
      "measured": {"busbw_gbps": 480}, "primary": "busbw_gbps"
    })");
}

}  // namespace

TEST_CASE("a case file is input: a field out of its range skips the case, naming the field and the range") {
    // per_node 0 or 0.5 divided by zero (SIGFPE, the whole run killed); ≥ 1e19 or a product of
    // degrees of 1e36 overflowed the float → int64 conversion (the reason printed −9223372036854775808).
    for (const double per_node : {0.0, 0.5, 1e19, -8.0}) {
        Json c = inference_case();
        c["hardware"]["per_node"] = per_node;
        const std::string reason = skip_reason(c);
        CHECK_MESSAGE(contains(reason, "hardware.per_node is "), per_node);
        CHECK(contains(reason, "allowed: an integer in [1, 1e+09]"));
    }
    Json c = inference_case();
    c["hardware"]["per_node"] = "eight";
    CHECK(contains(skip_reason(c), "hardware.per_node is not a number"));
    c = inference_case();
    c["hardware"]["scale_up_gbps"] = -450;
    CHECK(contains(skip_reason(c), "hardware.scale_up_gbps is -450; allowed: [1e-09, 1e+07]"));
    c = inference_case();
    c["hardware"]["count"] = 8;
    c["inference"]["tp"] = c["inference"]["pp"] = c["inference"]["dp"] = 1e9;
    CHECK(contains(skip_reason(c), "inference.tp × pp × dp is 1e+27 chips; allowed: at most 1e+09"));

    for (const double zero : {1e19, 4.0, -1.0, 1.5}) {
        Json t = training_case();
        t["training"]["zero"] = zero;
        CHECK_MESSAGE(contains(skip_reason(t), "training.zero is "), zero);
        CHECK(contains(skip_reason(t), "allowed: an integer in [0, 3]"));
    }
    Json t = training_case();
    t["training"]["tp"] = t["training"]["pp"] = t["training"]["cp"] = t["training"]["dp"] = 1e9;
    CHECK(contains(skip_reason(t), "training.tp × pp × cp × dp is 1e+36 chips"));
    t = training_case();
    t["hardware"]["per_node"] = 1e19;
    CHECK(contains(skip_reason(t), "hardware.per_node is 1e+19"));
    CHECK(skip_reason(training_case()) == "");  // the unbroken cases read
    CHECK(skip_reason(collective_case()) == "");
}

TEST_CASE("absurd measured cases are skipped, not scored: a negative buffer, a measured value of 5e-324") {
    Json col = collective_case();
    col["collective"]["bytes"] = -1e9;  // was scored: +14,644 %
    CHECK(contains(skip_reason(col), "collective.bytes is -1e+09; allowed: [1, 1e+15]"));
    col["collective"]["bytes"] = 0;
    CHECK(contains(skip_reason(col), "collective.bytes is 0"));
    Json inf = inference_case();
    inf["measured"]["output_tokens_per_s"] = 5e-324;  // was +inf %
    CHECK(contains(skip_reason(inf), "measured.output_tokens_per_s is 4.94066e-324; allowed: [1e-09, 1e+15]"));
    Json mfu = training_case();
    mfu["primary"] = "mfu";
    mfu["measured"] = {{"mfu", 41.9}};  // a percentage where the format asks a fraction
    CHECK(contains(skip_reason(mfu), "measured.mfu is 41.9; allowed: [1e-09, 1]"));

    Json file = Json::array({col, inf, mfu, collective_case()});
    const ValidationReport r = validate_cases(file);
    REQUIRE(r.cases.size() == 1);
    CHECK(r.cases[0].id == "co");
    CHECK(r.skipped.size() == 3);
    for (const ScoredCase& s : r.cases) CHECK(std::isfinite(s.error));
}

TEST_CASE("a peak-memory twin is the most loaded stage's weights, gradients, optimizer and activations (worked by hand)") {
    // One chip, no sharding (ZeRO 0), no recomputation, FlashAttention, b = 1, s = 1024: a
    // 2-layer Llama-style model, h = 1024, 8 heads of 128 (no GQA), gated f = 4096, V = 32000,
    // untied. Parameters: embedding and head 32000·1024 = 32,768,000 each; a layer 4·1024² +
    // 3·1024·4096 + 2·1024 = 16,779,264; final norm 1024: Ψ = 99,095,552.
    // Model state 18·Ψ (2 weights + 4 fp32 gradients + 12 Adam, §31.1) = 1,783,719,936 B.
    // Activations a layer (§31.2, T = 1024, β = 2, dropout off for a gated MLP): attention
    // 2·T·h (input) + 2·T·3h (Q, K, V) + 2·T·h (output) + 4·T·8 (row statistics) = 10,518,528;
    // MLP 2·T·h + 2·2·T·f (up, gate) + 2·T·f (down input) = 27,262,976; norms 2·2·T·h =
    // 4,194,304: 41,975,808, two layers 83,951,616, and the fp32 logits 4·T·V = 131,072,000.
    // Peak = 1,998,743,552 B = 1.86148 GiB.
    const Json doc = Json::parse(R"({
      "id": "p_peakmem", "source": "test", "kind": "memory",
      "hardware": {"chip": "H100-SXM", "count": 1, "per_node": 8, "scale_up_gbps": 450, "scale_out_gbps": 50},
      "model": {"name": "tiny", "layers": 2, "hidden": 1024, "heads": 8, "kv_heads": 8, "head_dim": 128,
                "ffn": 4096, "gated_ffn": true, "vocab": 32000, "tied_embeddings": false, "params_b": 0.099,
                "moe": null, "mla": null},
      "training": {"seq_len": 1024, "global_batch": 1, "micro_batch": 1, "dp": 1, "tp": 1, "pp": 1, "cp": 1, "ep": 1,
                   "sp": false, "vpp": 1, "recompute": "none", "zero": 0, "precision": "bf16",
                   "flash_attention": true, "framework": "torchtitan"},
      "measured": {"peak_memory_gib_per_gpu": 2.0},
      "primary": "peak_memory_gib_per_gpu"
    })");
    CHECK(predict_case(read_measured_case(doc)) == doctest::Approx(1.86148).epsilon(1e-5));
    // The chips.json keys reach their presets (a TPU key drops its hyphen there); a chip whose
    // efficiencies are all assumed keeps its cases out of the scored set (METHODOLOGY §35.4).
    Json tpu = doc;
    tpu["hardware"] = {{"chip", "TPUv5p"}, {"count", 1}, {"per_node", 1}};
    CHECK(contains(skip_reason(tpu), "chip preset tpu-v5p are assumed"));
    tpu["hardware"]["chip"] = "H100-SXM-96GB";
    CHECK(contains(skip_reason(tpu), "chip preset h100-sxm-96gb are assumed"));
}
