// Importing Hugging Face config.json files (io/hf_config.hpp): real configs, copied from the
// model pages on huggingface.co, must give the parameter counts their publishers state;
// a config with a missing, negative or unsupported field must fail at that field.
#include <doctest/doctest.h>

#include <string>

#include "api.hpp"
#include "hf_configs.hpp"
#include "common/error.hpp"
#include "io/hf_config.hpp"
#include "io/json_parse.hpp"
#include "io/scenario_json.hpp"
#include "model/params.hpp"

using namespace envelope;
using namespace envelope::test;

namespace {

bool has_note(const HfImport& r, const std::string& part) {
    for (const std::string& n : r.notes) {
        if (n.find(part) != std::string::npos) return true;
    }
    return false;
}

// The config with one field replaced (or removed: value "").
std::string with(const std::string& config, const std::string& key, const std::string& value) {
    Json j = parse_json_text(config);
    if (value.empty()) j.erase(key);
    else j[key] = parse_json_text(value);
    return to_text(j);
}

InputError error_of(const std::string& text) {
    try {
        import_hf_config(text);
    } catch (const InputError& e) {
        return e;
    }
    FAIL("imported without an error: " << text.substr(0, 200));
    return InputError("", "");
}

}  // namespace

TEST_CASE("Llama-3.1-8B: the published 8,030,261,248 parameters exactly") {
    const HfImport r = import_hf_config(kLlama31_8B, "Llama-3.1-8B");
    // The checkpoint's model.safetensors.index.json: total_size 16,060,522,496 bytes of
    // bf16 = 8,030,261,248 parameters. Every weight is one the schema expresses.
    CHECK(count_params(r.model).total() == 8'030'261'248.0);
    CHECK(r.model.name == "Llama-3.1-8B");
    CHECK(r.model.max_seq_len == 131072);
    const LayerSpec& l = r.model.groups.at(0).layer;
    CHECK(l.attention.kv_heads == 8);
    CHECK(l.attention.head_dim == 128);
    CHECK(l.ffn.gated);
    CHECK_FALSE(l.linear_bias);
    CHECK(has_note(r, "rope_scaling (llama3) ignored: it does not change cost"));
    CHECK(r.notes.size() == 1);  // every other field is known to change nothing
    // The document is a model as presets are: it evaluates inline in a scenario.
    const Json scenario = {{"model", r.document},
                           {"system", {{"chip", "h100-sxm"}, {"count", 1}}},
                           {"workload", {{"batch", 1}, {"input_tokens", 128}, {"output_tokens", 16}, {"precision", "bf16"}}}};
    const Json result = parse_json_text(evaluate_json(to_text(scenario)));
    CHECK(result["ok"] == true);
    CHECK(result["scenario"]["model"]["name"] == "Llama-3.1-8B");
}

TEST_CASE("Mixtral-8x7B: 46,702,792,704 parameters, 12.9B active") {
    const HfImport r = import_hf_config(kMixtral8x7B);
    // total_size 93,405,585,408 bytes of bf16 in the checkpoint's index; Jiang et al. 2024:
    // 47B parameters, 13B active (12.9B: README and the mixtral-8x7b preset).
    CHECK(count_params(r.model).total() == 46'702'792'704.0);
    CHECK(active_params(r.model) == doctest::Approx(12.88e9).epsilon(0.005));
    const MoeSpec& moe = r.model.groups.at(0).layer.ffn.moe;
    CHECK(moe.experts == 8);
    CHECK(moe.top_k == 2);
    CHECK(moe.expert_ffn == 14336);
    CHECK(moe.shared_experts == 0);
    CHECK(r.model.name == "MixtralForCausalLM");  // no _name_or_path: the architecture
    CHECK(r.notes.empty());                       // sliding_window is null: nothing to say
}

TEST_CASE("Qwen3-30B-A3B: 30.5B parameters but the q/k norms, 3.3B active") {
    const HfImport r = import_hf_config(kQwen3_30B_A3B);
    // The checkpoint's total_size, 61,064,245,248 bytes of bf16, is 30,532,122,624
    // parameters; the schema has no per-head Q and K norms (q_norm, k_norm: 2 × head_dim
    // 128 per layer, 12,288 in 48 layers), which the import notes. Nothing else differs.
    const ParamCount p = count_params(r.model);
    CHECK(p.total() + 48 * 2 * 128 == 30'532'122'624.0);
    CHECK(has_note(r, "q_norm and k_norm (256 parameters per layer, 12,288 in all) are not counted"));
    // The model card: "30.5B in total and 3.3B activated", "29.9B non-embedding".
    CHECK(p.total() - p.embedding - p.lm_head == doctest::Approx(29.9e9).epsilon(0.002));
    const double active = active_params(r.model);
    CHECK(active >= 3.3e9);
    CHECK(active < 3.4e9);
    REQUIRE(r.model.groups.size() == 1);
    const MoeSpec& moe = r.model.groups[0].layer.ffn.moe;
    CHECK(moe.experts == 128);
    CHECK(moe.top_k == 8);
    CHECK(moe.expert_ffn == 768);
    CHECK(r.model.groups[0].layer.attention.head_dim == 128);  // given: 2048 / 32 would be 64
    CHECK(r.model.max_seq_len == 40960);
}

TEST_CASE("GPT-2: every weight but the learned positions, by hand") {
    const HfImport r = import_hf_config(kGpt2);
    // 124,439,808 parameters (the sum over GPT2LMHeadModel's parameters, LM head tied):
    //   wte 50257·768 = 38,597,376; wpe 1024·768 = 786,432; per layer (× 12):
    //   2 LayerNorms 2·1,536, c_attn 768·2304 + 2304, c_proj 768·768 + 768,
    //   c_fc 768·3072 + 3072, mlp c_proj 3072·768 + 768 = 7,087,872; ln_f 1,536.
    // Positions are not counted by Envelope (model/params.hpp), and the import says so.
    CHECK(count_params(r.model).total() + 786'432 == 124'439'808.0);
    CHECK(has_note(r, "learned position embeddings (1024 × 768 = 786,432 parameters) are not counted"));
    const LayerSpec& l = r.model.groups.at(0).layer;
    CHECK(l.norm == NormKind::layernorm);
    CHECK(l.linear_bias);
    CHECK_FALSE(l.ffn.gated);
    CHECK(l.ffn.ffn == 3072);  // n_inner absent: 4 × n_embd
    CHECK(r.model.tied_embeddings);
}

TEST_CASE("the name: the argument, else _name_or_path (a hub id whole, a folder's last part)") {
    CHECK(import_hf_config(with(kLlama31_8B, "_name_or_path", R"("meta-llama/Llama-3.1-8B")")).model.name ==
          "meta-llama/Llama-3.1-8B");
    CHECK(import_hf_config(with(kLlama31_8B, "_name_or_path", R"("/data/models/my-llama/")")).model.name == "my-llama");
    CHECK(import_hf_config(with(kLlama31_8B, "_name_or_path", R"("./")")).model.name == "LlamaForCausalLM");
    const HfImport r = import_hf_config(with(kLlama31_8B, "_name_or_path", R"("meta-llama/Llama-3.1-8B")"), "mine");
    CHECK(r.model.name == "mine");
    CHECK(r.model.source.find("https://huggingface.co/meta-llama/Llama-3.1-8B") == 0);
}

TEST_CASE("sliding windows by transformers' rules: every layer, from max_window_layers on, or layer_types") {
    // Mistral-7B-v0.1: a 4096-token window on every layer.
    const std::string mistral = with(with(kLlama31_8B, "model_type", R"("mistral")"), "sliding_window", "4096");
    HfImport r = import_hf_config(mistral);
    REQUIRE(r.model.groups.size() == 1);
    CHECK(r.model.groups[0].layer.attention.window == 4096);
    CHECK(r.document["sliding_window"] == 4096);
    // Qwen's configs carry a window they do not use unless use_sliding_window is true; then
    // the layers from max_window_layers on have it.
    const std::string qwen = with(kQwen3_30B_A3B, "sliding_window", "4096");
    CHECK(import_hf_config(qwen).model.groups.at(0).layer.attention.window == 0);
    r = import_hf_config(with(with(qwen, "use_sliding_window", "true"), "max_window_layers", "40"));
    REQUIRE(r.model.groups.size() == 2);
    CHECK(r.model.groups[0].count == 40);
    CHECK(r.model.groups[0].layer.attention.window == 0);
    CHECK(r.model.groups[1].layer.attention.window == 4096);
    // layer_types names each layer's kind; kinds the schema lacks are noted.
    Json types = Json::array();
    for (int i = 0; i < 32; ++i) types.push_back(i % 4 == 3 ? "full_attention" : "sliding_attention");
    r = import_hf_config(with(with(mistral, "layer_types", to_text(types)), "sliding_window", "1024"));
    REQUIRE(r.model.groups.size() == 16);  // 3 windowed, 1 full, eight times
    CHECK(r.model.groups[0].count == 3);
    CHECK(r.model.groups[0].layer.attention.window == 1024);
    CHECK(r.model.groups[1].layer.attention.window == 0);
    types[0] = "linear_attention";
    CHECK(has_note(import_hf_config(with(mistral, "layer_types", to_text(types))),
                   "layer_types linear_attention not modelled: full attention assumed there"));
    CHECK(error_of(with(with(mistral, "layer_types", to_text(types)), "sliding_window", "")).path() == "sliding_window");
}

TEST_CASE("what is approximated is noted: partial biases, unknown fields, quantization") {
    // Qwen2: biases on Q, K and V only.
    const HfImport qwen2 = import_hf_config(with(kLlama31_8B, "model_type", R"("qwen2")"));
    CHECK(has_note(qwen2, "Qwen2 has biases on Q, K and V (6,144 parameters per layer, 196,608 in all)"));
    CHECK_FALSE(qwen2.model.groups[0].layer.linear_bias);
    // Llama with attention_bias: Q, K, V and O biases, not the MLP's.
    CHECK(has_note(import_hf_config(with(kLlama31_8B, "attention_bias", "true")), "attention_bias: the biases of Q, K, V and O"));
    const HfImport both = import_hf_config(with(with(kLlama31_8B, "attention_bias", "true"), "mlp_bias", "true"));
    CHECK(both.model.groups[0].layer.linear_bias);
    // A field nobody knows is listed, not dropped silently.
    CHECK(has_note(import_hf_config(with(kLlama31_8B, "mystery_width", "512")), "not read (unknown to the importer"));
    CHECK(has_note(import_hf_config(with(kLlama31_8B, "quantization_config", R"({"quant_method": "fp8"})")),
                   "quantization_config (fp8) ignored"));
}

TEST_CASE("Qwen mixtures: shared experts, dense layers, every other layer a mixture") {
    // Qwen1.5-MoE-A2.7B: one shared expert of 5632 = 4 experts of 1408.
    std::string q = with(kQwen3_30B_A3B, "model_type", R"("qwen2_moe")");
    q = with(with(q, "moe_intermediate_size", "1408"), "shared_expert_intermediate_size", "5632");
    HfImport r = import_hf_config(q);
    CHECK(r.model.groups.at(0).layer.ffn.moe.shared_experts == 4);
    CHECK(has_note(r, "shared_expert_gate"));
    // mlp_only_layers [0, 1]: two dense layers of intermediate_size first.
    r = import_hf_config(with(kQwen3_30B_A3B, "mlp_only_layers", "[0, 1]"));
    REQUIRE(r.model.groups.size() == 2);
    CHECK(r.model.groups[0].count == 2);
    CHECK_FALSE(r.model.groups[0].layer.ffn.is_moe());
    CHECK(r.model.groups[0].layer.ffn.ffn == 6144);
    CHECK(r.model.groups[1].count == 46);
    CHECK(r.document.contains("layer_groups"));
    // decoder_sparse_step 2: layers 1, 3, 5, ... are mixtures; 48 groups of one layer.
    r = import_hf_config(with(kQwen3_30B_A3B, "decoder_sparse_step", "2"));
    REQUIRE(r.model.groups.size() == 48);
    CHECK_FALSE(r.model.groups[0].layer.ffn.is_moe());
    CHECK(r.model.groups[1].layer.ffn.is_moe());
}

TEST_CASE("a multimodal config: the text model under text_config (Llama 4)") {
    // Llama-4-Scout-17B-16E's text_config (abridged to what the importer reads).
    const std::string scout = R"({
      "architectures": ["Llama4ForConditionalGeneration"], "model_type": "llama4",
      "vision_config": {"hidden_size": 1408, "num_hidden_layers": 34},
      "text_config": {"model_type": "llama4_text", "hidden_size": 5120, "num_hidden_layers": 48,
        "num_attention_heads": 40, "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 8192,
        "intermediate_size_mlp": 16384, "num_local_experts": 16, "num_experts_per_tok": 1,
        "interleave_moe_layer_step": 1, "vocab_size": 202048, "max_position_embeddings": 10485760,
        "attention_chunk_size": 8192, "use_qk_norm": true, "tie_word_embeddings": false}})";
    const HfImport r = import_hf_config(scout);
    REQUIRE(r.model.groups.size() == 1);
    const MoeSpec& moe = r.model.groups[0].layer.ffn.moe;
    CHECK(moe.experts == 16);
    CHECK(moe.top_k == 1);
    CHECK(moe.shared_experts == 1);
    CHECK(moe.expert_ffn == 8192);
    CHECK(has_note(r, "text_config"));
    CHECK(has_note(r, "attention_chunk_size 8192"));
    CHECK(r.model.name == "Llama4ForConditionalGeneration");
    // Maverick's layout: every second layer a mixture, the others dense of intermediate_size_mlp.
    Json maverick = parse_json_text(scout);
    maverick["text_config"]["interleave_moe_layer_step"] = 2;
    const HfImport m = import_hf_config(to_text(maverick));
    REQUIRE(m.model.groups.size() == 48);
    CHECK(m.model.groups[0].layer.ffn.ffn == 16384);
    CHECK_FALSE(m.model.groups[0].layer.ffn.is_moe());
    CHECK(m.model.groups[1].layer.ffn.is_moe());
    // Errors name the nested field.
    maverick["text_config"].erase("num_hidden_layers");
    CHECK(error_of(to_text(maverick)).path() == "text_config.num_hidden_layers");
}

TEST_CASE("bad configs fail at the field") {
    InputError e = error_of(with(kLlama31_8B, "num_hidden_layers", ""));
    CHECK(e.path() == "num_hidden_layers");
    CHECK(std::string(e.what()) == "is required");

    e = error_of(with(kLlama31_8B, "hidden_size", "-4096"));
    CHECK(e.path() == "hidden_size");
    CHECK(std::string(e.what()) == "must be an integer in [1, 10000000], got -4096");
    CHECK(error_of(with(kMixtral8x7B, "num_experts_per_tok", "0")).path() == "num_experts_per_tok");
    CHECK(error_of(with(kMixtral8x7B, "num_experts_per_tok", "9")).path() == "num_experts_per_tok");
    CHECK(error_of(with(kLlama31_8B, "num_hidden_layers", "5000")).path() == "num_hidden_layers");
    CHECK(error_of(with(kLlama31_8B, "intermediate_size", "1.5")).path() == "intermediate_size");
    CHECK(error_of(with(kLlama31_8B, "vocab_size", R"("128256")")).path() == "vocab_size");
    CHECK(error_of(with(kQwen3_30B_A3B, "mlp_only_layers", "[48]")).path() == "mlp_only_layers[0]");

    e = error_of(with(kLlama31_8B, "num_key_value_heads", "5"));
    CHECK(e.path() == "num_key_value_heads");
    CHECK(std::string(e.what()).find("must divide the 32 query heads") == 0);
    // Without head_dim, the heads must divide the width.
    CHECK(error_of(with(kLlama31_8B, "num_attention_heads", "48")).path() == "num_attention_heads");
}

TEST_CASE("DeepSeek-V3: latent attention, 3 dense layers then 58 mixtures, the published 671B") {
    const HfImport r = import_hf_config(kDeepSeekV3, "DeepSeek-V3");
    REQUIRE(r.model.groups.size() == 2);
    CHECK(r.model.groups[0].count == 3);
    CHECK_FALSE(r.model.groups[0].layer.ffn.is_moe());
    CHECK(r.model.groups[1].count == 58);
    const MlaSpec& mla = r.model.groups[1].layer.attention.mla;
    CHECK(mla.kv_lora_rank == 512);
    CHECK(mla.q_lora_rank == 1536);
    CHECK(mla.qk_rope_dim == 64);
    CHECK(mla.qk_nope_dim == 128);
    CHECK(mla.v_head_dim == 128);
    const MoeSpec& moe = r.model.groups[1].layer.ffn.moe;
    CHECK(moe.experts == 256);
    CHECK(moe.top_k == 8);
    CHECK(moe.expert_ffn == 2048);
    CHECK(moe.shared_experts == 1);
    // DeepSeek-AI 2024 (arXiv:2412.19437): 671B parameters, 37B activated per token; the
    // 685B on Hugging Face add the 14B multi-token-prediction module, which is noted.
    CHECK(count_params(r.model).total() == doctest::Approx(671e9).epsilon(0.001));
    // 37.55B active here: the published 37B is rounded, and whether the 0.93B embedding
    // table counts as activated is a convention (tests/core/test_mla.cpp allows 2 % too).
    CHECK(active_params(r.model) == doctest::Approx(37e9).epsilon(0.02));
    CHECK(has_note(r, "multi-token-prediction module (num_nextn_predict_layers 1) is not counted"));
    CHECK(has_note(r, "e_score_correction_bias, 256 per mixture layer"));
    CHECK(has_note(r, "group-limited routing (n_group 8"));
    CHECK(has_note(r, "quantization_config (fp8) ignored"));
    CHECK(has_note(r, "rope_scaling (yarn) ignored"));
    // DeepSeek-V2-Lite: no query latent (q_lora_rank null).
    CHECK(import_hf_config(with(kDeepSeekV3, "q_lora_rank", "null")).model.groups[1].layer.attention.mla.q_lora_rank == 0);
    CHECK(error_of(with(kDeepSeekV3, "kv_lora_rank", "")).path() == "kv_lora_rank");
    CHECK(error_of(with(kDeepSeekV3, "first_k_dense_replace", "62")).path() == "first_k_dense_replace");
}

TEST_CASE("each config gives its model preset's architecture, field for field") {
    // The presets (presets/models/) were written from the same configs by hand and are
    // pinned against the published parameter counts.
    const std::pair<const char*, const char*> pairs[] = {{kLlama31_8B, "llama-3.1-8b"},
                                                         {kMixtral8x7B, "mixtral-8x7b"},
                                                         {kQwen3_30B_A3B, "qwen3-30b-a3b"},
                                                         {kDeepSeekV3, "deepseek-v3"},
                                                         {kMamba130M, "mamba-130m"},
                                                         {kJamba, "jamba-v0.1"},
                                                         {kGemma2_9B, "gemma-2-9b"}};
    for (const auto& pair : pairs) {
        const char* config = pair.first;  // not a structured binding: doctest's lambdas capture it
        const char* key = pair.second;
        Json preset = to_json(parse_model(Json(key), "model"));
        Json mine = to_json(import_hf_config(config).model);
        for (Json* j : {&preset, &mine}) {
            j->erase("name");
            j->erase("source");
        }
        CHECK_MESSAGE(mine == preset, key << ": " << to_text(mine) << " vs " << to_text(preset));
    }
}

TEST_CASE("an unknown family, garbage and hostile text are errors, and the JSON entry never throws") {
    InputError e = error_of(with(kLlama31_8B, "model_type", R"("t5")"));
    CHECK(e.path() == "model_type");
    CHECK(std::string(e.what()).find("\"t5\" is not supported yet (supported: llama, mistral, qwen2, qwen3, mixtral") == 0);
    e = error_of(with(with(kLlama31_8B, "model_type", ""), "architectures", R"(["FooForCausalLM"])"));
    CHECK(e.path() == "architectures[0]");
    CHECK(std::string(e.what()).find("LlamaForCausalLM, MistralForCausalLM") != std::string::npos);
    // Without model_type the architecture names the family.
    CHECK(import_hf_config(with(kLlama31_8B, "model_type", "")).model.groups.at(0).count == 32);
    CHECK(error_of(with(with(kLlama31_8B, "model_type", ""), "architectures", "")).path() == "model_type");

    e = error_of("{\"hidden_size\": ");
    CHECK(e.path().empty());
    CHECK(std::string(e.what()).find("not valid JSON") == 0);
    CHECK(error_of("[1, 2]").path().empty());
    CHECK(error_of(std::string(70, '[') + std::string(70, ']')).path() != "");
    CHECK(error_of(with(kLlama31_8B, "text_config", "7")).path() == "text_config");

    const Json bad = parse_json_text(import_hf_config_json("not json"));
    CHECK(bad["ok"] == false);
    CHECK(bad["error"]["path"] == "");
    const Json good = parse_json_text(import_hf_config_json(kMixtral8x7B, "Mixtral"));
    CHECK(good["ok"] == true);
    CHECK(good["model"]["name"] == "Mixtral");
    CHECK(good["params"] == 46'702'792'704.0);
    CHECK(good["notes"].is_array());
}

TEST_CASE("hostile configs: every field of every config deleted, retyped, negated, zeroed, enlarged") {
    // Each mutation gives a model or an error naming a path; never an internal error, and a
    // model that comes back is one the schema reads (import_hf_config checks it).
    const char* values[] = {"", "null", "-1", "0", "1e400", "4294967297", "0.5", "\"x\"", "[]", "{}", "true", "[99999]"};
    int models = 0;
    int errors = 0;
    for (const char* config : {kLlama31_8B, kMixtral8x7B, kQwen3_30B_A3B, kGpt2, kDeepSeekV3}) {
        const Json doc = parse_json_text(config);
        for (auto it = doc.begin(); it != doc.end(); ++it) {
            for (const char* v : values) {
                const Json out = parse_json_text(import_hf_config_json(with(config, it.key(), v)));
                if (out["ok"] == true) {
                    ++models;
                    CHECK(out["params"].get<double>() > 0);
                } else {
                    ++errors;
                    const std::string message = out["error"]["message"];
                    CHECK_MESSAGE(message.rfind("internal error", 0) != 0, it.key() << " = " << v << ": " << message);
                }
            }
        }
    }
    CHECK(models > 100);
    CHECK(errors > 50);
}
