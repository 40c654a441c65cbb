// The scenario schema: every class of bad input names its field; good input round-trips.
#include <doctest/doctest.h>

#include <string>
#include <tuple>

#include "api.hpp"
#include "common/error.hpp"
#include "evaluate.hpp"
#include "io/scenario_json.hpp"

using namespace envelope;

namespace {

Json base() {
    return Json::parse(R"({
      "model": "llama-3-8b",
      "system": {"chip": "h100-sxm", "count": 2},
      "parallelism": {"tp": 2},
      "workload": {"batch": 4, "input_tokens": 512, "output_tokens": 64, "precision": "bf16"}
    })");
}

// Parse and check `doc` and return the error path and message (fails the test if it passes).
std::pair<std::string, std::string> error_of(const Json& doc) {
    try {
        check_scenario(parse_scenario(doc));
    } catch (const InputError& e) {
        return {e.path(), e.what()};
    }
    FAIL("expected an InputError");
    return {};
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("a valid scenario parses with presets resolved and defaults filled") {
    const Scenario s = parse_scenario(base());
    CHECK(s.model.layers() == 32);
    CHECK(s.system.chip.hbm_gb == 85.52);  // 81559 MiB, what nvidia-smi reports
    CHECK(s.system.network.levels.size() == 2);                 // NVLink, then InfiniBand
    CHECK(s.system.network.levels[0].size == 8);                // the 8-GPU NVSwitch board
    CHECK(s.system.network.levels[0].bandwidth_gbps() == 450);  // 18 links × 25 GB/s
    CHECK(s.workload.inference.flash_attention);                        // documented default
    CHECK(s.workload.inference.precision.kv_cache == Precision::bf16);  // string shorthand
}

TEST_CASE("errors name the field and the allowed range") {
    Json doc = base();

    SUBCASE("wrong type") {
        doc["workload"]["batch"] = "four";
        const auto [path, msg] = error_of(doc);
        CHECK(path == "workload.batch");
        CHECK(contains(msg, "an integer in [1, 10000000]"));
        CHECK(contains(msg, "got string"));
    }
    SUBCASE("missing field") {
        doc["workload"].erase("input_tokens");
        CHECK(error_of(doc).first == "workload.input_tokens");
        CHECK(contains(error_of(doc).second, "required"));
    }
    SUBCASE("negative number") {
        doc["workload"]["output_tokens"] = -5;
        CHECK(error_of(doc).first == "workload.output_tokens");
        CHECK(contains(error_of(doc).second, "got -5"));
    }
    SUBCASE("non-integer count") {
        doc["workload"]["batch"] = 2.5;
        CHECK(error_of(doc).first == "workload.batch");
    }
    SUBCASE("huge number (would overflow)") {
        doc["workload"]["batch"] = 1e300;
        CHECK(error_of(doc).first == "workload.batch");
    }
    SUBCASE("zero or non-finite real") {
        doc["system"] = {{"preset", "dgx-h100"}, {"chip", {{"preset", "h100-sxm"}, {"hbm_tb_s", 0}}}};
        CHECK(error_of(doc).first == "system.chip.hbm_tb_s");
    }
    SUBCASE("unknown preset lists the available ones") {
        doc["model"] = "llama-9";
        const auto [path, msg] = error_of(doc);
        CHECK(path == "model");
        CHECK(contains(msg, "unknown model preset \"llama-9\""));
        CHECK(contains(msg, "llama-2-70b"));
    }
    SUBCASE("unknown preset inside an override") {
        doc["system"]["chip"] = {{"preset", "h1000"}};
        CHECK(error_of(doc).first == "system.chip.preset");
    }
    SUBCASE("unknown field (typo)") {
        doc["workload"]["batch_size"] = 4;
        const auto [path, msg] = error_of(doc);
        CHECK(path == "workload.batch_size");
        CHECK(contains(msg, "unknown field"));
    }
    SUBCASE("bad enum value") {
        doc["workload"]["precision"] = "bf17";
        const auto [path, msg] = error_of(doc);
        CHECK(path == "workload.precision");
        CHECK(contains(msg, "\"bf16\""));
        doc["workload"]["precision"] = {{"weights", "bf16"}, {"kv_cache", 8}, {"activations", "bf16"}};
        CHECK(error_of(doc).first == "workload.precision.kv_cache");
    }
    SUBCASE("TP not dividing the heads") {
        doc["system"]["count"] = 3;
        doc["parallelism"]["tp"] = 3;
        const auto [path, msg] = error_of(doc);
        CHECK(path == "parallelism.tp");
        CHECK(contains(msg, "must divide model.heads = 32"));
    }
    SUBCASE("TP and KV heads that do not nest") {
        doc["model"] = {{"preset", "llama-3-8b"}, {"kv_heads", 4}, {"heads", 24}};
        doc["system"]["count"] = 6;
        doc["parallelism"]["tp"] = 6;
        CHECK(error_of(doc).first == "parallelism.tp");
    }
    SUBCASE("KV heads must divide heads") {
        doc["model"] = {{"preset", "llama-3-8b"}, {"kv_heads", 5}};
        CHECK(error_of(doc).first == "model.kv_heads");
    }
    SUBCASE("TP larger than the system") {
        doc["parallelism"]["tp"] = 4;
        CHECK(contains(error_of(doc).second, "system.count = 2"));
    }
    SUBCASE("a level in the old shape (one bandwidth per chip)") {
        doc["system"] = Json::parse(R"({"chip": "h100-sxm", "count": 8, "network": [
            {"size": 8, "topology": "switch", "bandwidth_gbps": 450, "latency_us": 1, "efficiency": 0.8}]})");
        const auto [path, msg] = error_of(doc);
        CHECK(path == "system.network[0].bandwidth_gbps");
        CHECK(contains(msg, "links_per_chip and link_gbps"));
    }
    SUBCASE("a torus whose dims do not make its size") {
        doc["system"] = Json::parse(R"({"chip": "tpu-v5e", "count": 16, "network": [
            {"size": 16, "topology": "torus", "dims": [4, 3], "links_per_chip": 4, "link_gbps": 50,
             "latency_us": 1, "efficiency": 0.9}]})");
        CHECK(error_of(doc).first == "system.network[0].dims");
    }
    SUBCASE("more chips than the system has") {
        doc["parallelism"] = {{"tp", 2}, {"dp", 2}};
        const auto [path, msg] = error_of(doc);
        CHECK(path == "parallelism");
        CHECK(contains(msg, "tp × cp × dp × pp = 4"));
    }
    SUBCASE("stage_layers that do not add up") {
        doc["parallelism"] = {{"tp", 1}, {"pp", 2}, {"stage_layers", {10, 20}}};
        const auto [path, msg] = error_of(doc);
        CHECK(path == "parallelism.stage_layers");
        CHECK(contains(msg, "adds up to 30 layers"));
    }
    SUBCASE("the mapping given twice") {
        doc["workload"]["parallelism"] = {{"tp", 2}};
        CHECK(error_of(doc).first == "workload.parallelism");
    }
    SUBCASE("expert parallelism without experts, or not dividing them") {
        doc["system"]["count"] = 4;
        doc["parallelism"] = {{"tp", 2}, {"dp", 2}, {"ep", 2}};
        auto [path, msg] = error_of(doc);
        CHECK(path == "parallelism.ep");
        CHECK(contains(msg, "needs a mixture-of-experts model"));
        doc["model"] = "mixtral-8x7b";
        doc["system"]["count"] = 6;
        doc["parallelism"] = {{"tp", 2}, {"dp", 3}, {"ep", 3}};
        std::tie(path, msg) = error_of(doc);
        CHECK(path == "parallelism.ep");
        CHECK(contains(msg, "must divide the 8 experts"));
    }
    SUBCASE("a mixture's top_k larger than its experts") {
        doc["model"] = {{"preset", "mixtral-8x7b"}, {"moe", {{"top_k", 9}}}};
        CHECK(error_of(doc).first == "model.moe.top_k");
    }
    SUBCASE("a training-only option on an inference workload") {
        doc["parallelism"]["zero"] = 1;
        CHECK(error_of(doc).first == "parallelism.zero");
    }
    SUBCASE("network too small for the system") {
        doc["system"]["network"] = Json::parse(
            R"([{"size": 1, "topology": "ring", "links_per_chip": 2, "link_gbps": 225, "latency_us": 1,
                 "efficiency": 0.8}])");
        CHECK(error_of(doc).first == "system.network");
    }
    SUBCASE("bad network level field") {
        doc["system"]["network"] = Json::parse(
            R"([{"size": 2, "topology": "mesh", "links_per_chip": 1, "link_gbps": 450, "latency_us": 1,
                 "efficiency": 0.8}])");
        const auto [path, msg] = error_of(doc);
        CHECK(path == "system.network[0].topology");
        CHECK(contains(msg, "\"dragonfly\""));
    }
    SUBCASE("format the chip cannot compute in") {
        doc["system"]["chip"] = "a100-sxm-80gb";
        doc["workload"]["precision"] = "fp8";
        const auto [path, msg] = error_of(doc);
        CHECK(path == "workload.precision.activations");
        CHECK(contains(msg, "no fp8 peak"));
    }
    SUBCASE("the top level must be an object") {
        CHECK(error_of(Json::array()).first == "");
    }
}

TEST_CASE("weight-only quantization on a chip without that format is fine") {
    Json doc = base();
    doc["system"]["chip"] = "a100-sxm-80gb";
    doc["workload"]["precision"] = {{"weights", "int4"}, {"kv_cache", "bf16"}, {"activations", "bf16"}};
    CHECK_NOTHROW(parse_scenario(doc));
}

TEST_CASE("the resolved scenario round-trips through JSON") {
    Json doc = base();
    doc["model"] = {{"preset", "gpt-3-175b"}, {"layers", 4}};
    doc["system"] = {{"preset", "dgx-h100"}, {"count", 2}};
    const Scenario once = parse_scenario(doc);
    const Json written = to_json(once);
    const Scenario twice = parse_scenario(written);
    CHECK(to_json(twice) == written);
    CHECK(twice.model.layers() == 4);                  // the override
    CHECK(twice.model.groups[0].layer.linear_bias);    // from the preset
}

TEST_CASE("preset overrides merge nested objects (JSON Merge Patch)") {
    Json doc = base();
    doc["system"]["chip"] = {{"preset", "h100-sxm"}, {"efficiency", {{"memory", 0.5}}}};
    const Scenario s = parse_scenario(doc);
    CHECK(s.system.chip.memory_efficiency == 0.5);
    CHECK(s.system.chip.matrix_efficiency_default == doctest::Approx(0.803));  // kept from the preset
}

TEST_CASE("fused attention's half-rate keys: read, echoed, and refused outside [0, 10^6]") {
    Json doc = base();
    doc["system"]["chip"] = {{"preset", "h100-sxm"}, {"efficiency", {{"attention_half_keys", 150}}}};
    const Scenario s = parse_scenario(doc);
    CHECK(s.system.chip.attention_half_keys == 150);
    CHECK(s.system.chip.attention_backward_half_keys == 427);  // the preset's
    const Json written = to_json(s);
    CHECK(written["system"]["chip"]["efficiency"]["attention_half_keys"] == 150);
    CHECK(written["system"]["chip"]["efficiency"]["attention_backward_half_keys"] == 427);
    doc["system"]["chip"]["efficiency"]["attention_half_keys"] = -1;
    CHECK(error_of(doc).first == "system.chip.efficiency.attention_half_keys");
    doc["system"]["chip"]["efficiency"] = {{"attention_backward_half_keys", 2e6}};
    CHECK(error_of(doc).first == "system.chip.efficiency.attention_backward_half_keys");
}

TEST_CASE("a single chip needs no network, and its resolved scenario round-trips") {
    Json doc = base();
    // The chip without its reference system (a merge patch's null removes the key).
    doc["system"] = {{"chip", {{"preset", "h100-sxm"}, {"reference_system", nullptr}}}, {"count", 1}};
    doc["parallelism"]["tp"] = 1;
    const Scenario once = parse_scenario(doc);
    CHECK(once.system.network.levels.empty());
    const Json written = to_json(once);
    CHECK(written["system"]["network"] == Json::array());
    CHECK(to_json(parse_scenario(written)) == written);

    doc["system"]["count"] = 2;  // two chips and nothing to join them: an error, not a silent default
    CHECK(error_of(doc).first == "system.network");
}

TEST_CASE("scenario name and description are echoed") {
    Json doc = base();
    doc["name"] = "mine";
    doc["description"] = "a test";
    const Json out = to_json(parse_scenario(doc));
    CHECK(out["name"] == "mine");
    CHECK(out["description"] == "a test");
}

TEST_CASE("evaluate_json never throws: errors come back as values") {
    for (const char* text : {"", "{", "null", "[1,2]", "{\"model\": 1}", "\xff\xfe", "{\"model\":\"\xff\"}"}) {
        const Json out = Json::parse(evaluate_json(text));
        CHECK(out["ok"] == false);
        CHECK(out["error"]["message"].get<std::string>().size() > 0);
        CHECK(out["error"].contains("path"));
    }
    const Json good = Json::parse(evaluate_json(base().dump()));
    CHECK(good["ok"] == true);
    CHECK(good["summary"]["ttft_s"].get<double>() > 0);
}

TEST_CASE("the mapping: legacy place, replicas filling the system, the resolved order") {
    Json doc = base();
    SUBCASE("workload.parallelism (the schema before) is still read") {
        doc.erase("parallelism");
        doc["workload"]["parallelism"] = {{"tp", 2}};
        CHECK(parse_scenario(doc).parallelism.tp == 2);
    }
    SUBCASE("without dp the system fills with replicas; an explicit dp is kept") {
        doc["system"]["count"] = 8;
        CHECK(parse_scenario(doc).parallelism.dp == 4);   // 8 chips / TP 2
        doc["parallelism"]["dp"] = 1;
        CHECK(parse_scenario(doc).parallelism.dp == 1);
    }
    SUBCASE("order echoes innermost first, tp by default") {
        const Json written = to_json(parse_scenario(doc));
        CHECK(written["parallelism"]["order"] == Json::array({"tp", "cp", "ep", "dp", "pp"}));
        doc["parallelism"]["order"] = {"tp", "tp", "ep", "dp", "pp"};
        CHECK(error_of(doc).first == "parallelism.order[1]");
    }
}

TEST_CASE("a training workload parses, round-trips and evaluates") {
    Json doc = base();
    doc["workload"] = {{"kind", "training"}, {"seq_len", 4096}, {"global_batch", 512}, {"micro_batch", 1},
                       {"recompute", "selective"}, {"precision", "bf16"}};
    const Scenario s = parse_scenario(doc);
    CHECK(s.workload.kind == WorkloadKind::training);
    CHECK(s.workload.training.recompute == Recompute::selective);
    CHECK(to_json(parse_scenario(to_json(s))) == to_json(s));
    const Json out = Json::parse(evaluate_json(doc.dump()));
    CHECK(out["ok"] == true);
    CHECK(out["workload"] == "training");
    CHECK(out["summary"]["step_time_s"].get<double>() > 0);
}
