// Parameter-efficient fine-tuning (workload/peft.hpp, model/adapters.hpp, ops/lora.cpp,
// METHODOLOGY.md §39), checked by hand on Llama-2-70B (presets/models/llama-2-70b.json):
// 80 layers, h = 8192, 64 heads and 8 KV heads of 128, gated FFN 28,672, vocabulary 32,000, untied.
//
// Base parameters, by hand: a layer's QKV 8192 × (8192 + 2·1024) = 83,886,080, output 8192 × 8192 =
// 67,108,864, gate + up 8192 × 57,344 = 469,762,048, down 28,672 × 8192 = 234,881,024: 855,638,016
// matrix weights and 2·8192 norm scales. 80 layers: 68,451,041,280 matrix weights and 1,310,720
// scales; embedding and LM head 32,000 × 8192 = 262,144,000 each, final norm 8192: in all
// 68,976,648,192 (the "69 B" of MLPerf's llama2_70b_lora).
//
// LoRA r = 16 on linear_qkv and linear_proj (MLPerf's llama2_70b_lora targets): per layer
// r·(8192 + 10,240) = 294,912 for the fused QKV and r·(8192 + 8192) = 262,144 for the output,
// 557,056; × 80 layers = 44,564,480 adapter parameters (0.065 % of the base).
#include <doctest/doctest.h>

#include <string>

#include "common/error.hpp"
#include "evaluate.hpp"
#include "fixtures.hpp"
#include "io/scenario_json.hpp"
#include "model/adapters.hpp"
#include "model/params.hpp"

using namespace envelope;

namespace {

constexpr double kAdapters = 44'564'480;       // r 16 on QKV + O, 80 layers (above)
constexpr double kBase = 68'976'648'192;       // every base parameter
constexpr double kMatrices = 68'451'041'280;   // the layers' matrix weights
constexpr double kRest = 525'606'912;          // norms, embedding, LM head: kept in 16 bits

// Llama-2-70B on `chips` H100s of DGX H100s, DP over them, ZeRO `zero`, sequences of 4096.
Json lora_doc(int chips, int zero, const Json& peft) {
    Json doc = {{"model", "llama-2-70b"},
                {"system", {{"preset", "dgx-h100"}, {"count", chips}}},
                {"parallelism", {{"tp", 1}, {"pp", 1}, {"dp", chips}, {"zero", zero}}},
                {"workload",
                 {{"kind", "training"}, {"seq_len", 4096}, {"global_batch", chips}, {"micro_batch", 1},
                  {"recompute", "full"}, {"precision", "bf16"}}}};
    if (!peft.is_null()) doc["workload"]["peft"] = peft;
    return doc;
}

const Json kLora = {{"method", "lora"}, {"rank", 16}, {"alpha", 32}, {"targets", {"linear_qkv", "linear_proj"}}};

std::string error_path_of(const Json& doc) {
    try {
        const Scenario s = parse_scenario(doc);
        check_scenario(s);
    } catch (const InputError& e) {
        return e.path();
    }
    return "";
}

}  // namespace

TEST_CASE("LoRA r16 on QKV + O of Llama-2-70B: 44,564,480 adapter parameters, memory by hand") {
    const Scenario s = parse_scenario(lora_doc(1, 0, kLora));
    CHECK(count_params(s.model).total() == doctest::Approx(kBase).epsilon(1e-12));
    CHECK(slice_adapter_params(s.model, s.model.groups, s.workload.training.peft, 1) == doctest::Approx(kAdapters).epsilon(1e-12));
    const TrainingMemory m = evaluate(s).training_memory.front();
    // Frozen bf16 base 2 × 68,976,648,192 plus the bf16 adapters 2 × 44,564,480: 138,042,425,344 B.
    CHECK(m.weights_bytes == doctest::Approx(138'042'425'344.0).epsilon(1e-12));
    // fp32 gradients and Adam (master, m, v) of the adapters only: 4 and 12 bytes each.
    CHECK(m.gradient_bytes == doctest::Approx(178'257'920.0).epsilon(1e-12));
    CHECK(m.optimizer_bytes == doctest::Approx(534'773'760.0).epsilon(1e-12));
    // Full fine-tuning of the same model holds 2 + 4 + 12 = 18 bytes a parameter: 1.2416 TB
    // before activations.
    const TrainingMemory full = evaluate(parse_scenario(lora_doc(1, 0, Json()))).training_memory.front();
    CHECK(full.weights_bytes + full.gradient_bytes + full.optimizer_bytes == doctest::Approx(18 * kBase));
}

TEST_CASE("QLoRA: an NF4 base with double quantization is 4.127 bits a weight (Dettmers et al. 2023 §3)") {
    Json q = kLora;
    q["method"] = "qlora";
    const Scenario s = parse_scenario(lora_doc(1, 0, q));
    const Peft& p = s.workload.training.peft;
    CHECK(p.base == BaseFormat::nf4);
    // 4 bits + 8/64 (8-bit constants per block of 64) + 32/(64·256) (their fp32 constants) = 4.127.
    CHECK(8 * base_bytes_per_param(p) == doctest::Approx(4.127).epsilon(1e-3));
    Peft single = p;
    single.double_quantization = false;
    CHECK(8 * base_bytes_per_param(single) == doctest::Approx(4.5));  // 4 + 32/64
    // The 68,451,041,280 matrix weights at 4.126953125 bits = 35,311,779,840 B; the norms,
    // embedding and LM head 2 × 525,606,912 in bf16; the adapters 2 × 44,564,480: 36,452,122,624 B
    // (36.5 GB: a 70B model's weights on one 48 GB chip, QLoRA's headline).
    const TrainingMemory m = evaluate(s).training_memory.front();
    CHECK(m.weights_bytes == doctest::Approx(35'311'779'840.0 + 2 * kRest + 2 * kAdapters).epsilon(1e-12));
    CHECK(m.weights_bytes == doctest::Approx(36'452'122'624.0).epsilon(1e-12));
    (void)kMatrices;
}

TEST_CASE("LoRA step: no weight gradients for the base, the DP sync carries the adapters' gradients only") {
    const Result lora = evaluate(parse_scenario(lora_doc(8, 1, kLora)));
    const Result full = evaluate(parse_scenario(lora_doc(8, 1, Json())));
    CHECK(lora.training.step_time_s < full.training.step_time_s);
    // (Its exposed time need not be shorter: 0.27 GB is one bucket, all of it after the last
    // backward, where the full run's 69 B hide behind the backward but for the last bucket.)
    CHECK(lora.training.breakdown.optimizer_s < 1e-3 * full.training.breakdown.optimizer_s);
    // The distributed optimizer reduce-scatters fp32 gradients (4 B) and all-gathers bf16
    // parameters (2 B): 6 × 44,564,480 = 267,386,880 bytes of the adapters, not of the 69 B base.
    double dp_bytes = 0;
    for (const DimensionReport& d : lora.network) {
        if (d.dim == ParallelDim::dp) dp_bytes = d.bytes;
    }
    CHECK(dp_bytes == doctest::Approx(6 * kAdapters).epsilon(1e-12));
    // Weight gradients only for the two adapters' A and B.
    for (const PhaseReport& phase : lora.phases) {
        for (const OpReport& op : phase.ops) {
            if (std::string(op_variant_name(op.variant)) != "wgrad") continue;
            CHECK_MESSAGE((std::string(op.name) == "lora_a" || std::string(op.name) == "lora_b"), op.name);
        }
    }
}

TEST_CASE("QLoRA dequantizes the NF4 base for every GEMM reading it: slower than LoRA over bf16") {
    Json q = kLora;
    q["method"] = "qlora";
    const Result qlora = evaluate(parse_scenario(lora_doc(8, 1, q)));
    const Result lora = evaluate(parse_scenario(lora_doc(8, 1, kLora)));
    CHECK(qlora.training.step_time_s > lora.training.step_time_s);
    bool forward = false, backward = false;
    for (const PhaseReport& phase : qlora.phases) {
        for (const OpReport& op : phase.ops) {
            if (std::string(op.name) != "nf4_dequant") continue;
            (phase.kind == PhaseKind::forward ? forward : backward) = true;
        }
    }
    CHECK(forward);
    CHECK(backward);
}

TEST_CASE("workload.peft: bad input names the field and the allowed range") {
    Json p = kLora;
    p["rank"] = 0;
    CHECK(error_path_of(lora_doc(1, 0, p)) == "workload.peft.rank");
    p["rank"] = 9000;  // above the narrower side (8192) of the output projection
    CHECK(error_path_of(lora_doc(1, 0, p)) == "workload.peft.rank");
    p = kLora;
    p["targets"] = {"linear_qkv", "wq"};
    CHECK(error_path_of(lora_doc(1, 0, p)) == "workload.peft.targets[1]");
    p["targets"] = {"o_proj", "linear_proj"};  // the same matrix twice
    CHECK(error_path_of(lora_doc(1, 0, p)) == "workload.peft.targets[1]");
    p["targets"] = Json::array();
    CHECK(error_path_of(lora_doc(1, 0, p)) == "workload.peft.targets");
    p = kLora;
    p["base_precision"] = "nf4";  // NF4 is QLoRA's
    CHECK(error_path_of(lora_doc(1, 0, p)) == "workload.peft.base_precision");
    p = kLora;
    p["method"] = "dora";
    CHECK(error_path_of(lora_doc(1, 0, p)) == "workload.peft.method");
    p = kLora;
    p["double_quantization"] = false;
    CHECK(error_path_of(lora_doc(1, 0, p)) == "workload.peft.double_quantization");
}

TEST_CASE("workload.peft targets a matrix every layer has") {
    Json doc = lora_doc(8, 1, kLora);
    doc["model"] = "mixtral-8x7b";  // attention adapters on a mixture are fine, MLP ones are not
    CHECK(error_path_of(doc) == "");
    doc["workload"]["peft"]["targets"] = {"linear_qkv", "down_proj"};
    CHECK(error_path_of(doc) == "workload.peft.targets[1]");
    doc["model"] = "gpt-3-175b";  // a plain (ungated) MLP: no gate projection
    doc["workload"]["peft"]["targets"] = {"gate_proj"};
    CHECK(error_path_of(doc) == "workload.peft.targets[0]");
    doc["workload"]["peft"]["targets"] = {"linear_fc1", "linear_fc2"};
    CHECK(error_path_of(doc) == "");
    doc["model"] = "deepseek-v3";  // MLA: no plain Q/K/V projections
    doc["workload"]["peft"]["targets"] = {"q_proj"};
    CHECK(error_path_of(doc) == "workload.peft.targets[0]");
}

TEST_CASE("workload.peft round-trips through the scenario JSON") {
    Json p = kLora;
    p["dropout"] = 0.1;
    const Scenario s = parse_scenario(lora_doc(8, 1, p));
    const Json back = to_json(s)["workload"]["peft"];
    CHECK(back["method"] == "lora");
    CHECK(back["rank"] == 16);
    CHECK(back["targets"] == Json({"linear_qkv", "o_proj"}));  // linear_proj is written as o_proj: one matrix
    CHECK(back["dropout"] == doctest::Approx(0.1));
    const Scenario again = parse_scenario(to_json(s));
    CHECK(evaluate(again).training.step_time_s == doctest::Approx(evaluate(s).training.step_time_s));
}
