// The pieces the Hugging Face family readers share (io/hf_families.hpp).
#include <cmath>

#include "common/error.hpp"
#include "io/hf_families.hpp"
#include "io/json_reader.hpp"
#include "io/schema_limits.hpp"

namespace envelope::hf {

using namespace limits;

Trunk read_trunk(HfFields& f) {
    Trunk t;
    // GPT-2 and Falcon's original configs spell the sizes n_embd, n_layer, n_positions
    // (transformers maps them through each config class's attribute_map).
    t.hidden = f.count({"hidden_size", "n_embd", "d_model"}, 1, kMaxWidth);
    t.layers = f.count({"num_hidden_layers", "n_layer", "num_layers"}, 1, kMaxLayers);
    t.vocab = f.count({"vocab_size"}, 1, kMaxVocab);
    t.max_seq_len = f.optional_count({"max_position_embeddings", "n_positions"}, 0, kMaxTokens).value_or(0);
    return t;
}

AttentionSpec read_attention(HfFields& f, int64_t hidden, std::initializer_list<const char*> kv_keys) {
    AttentionSpec a;
    const std::initializer_list<const char*> head_keys = {"num_attention_heads", "n_head"};
    a.heads = f.count(head_keys, 1, kMaxHeads);
    a.kv_heads = f.optional_count(kv_keys, 1, a.heads).value_or(a.heads);
    if (a.heads % a.kv_heads != 0) {
        throw InputError(f.path_of(kv_keys), "must divide the " + std::to_string(a.heads) +
                                                 " query heads (each KV head serves heads / kv_heads of them)");
    }
    // Configs give head_dim when it is not hidden / heads (Qwen3, Mistral-Nemo, Llama 4).
    if (const std::optional<int64_t> d = f.optional_count({"head_dim"}, 1, kMaxWidth)) {
        a.head_dim = *d;
    } else if (hidden % a.heads != 0) {
        throw InputError(f.path_of(head_keys), std::to_string(a.heads) + " heads do not divide hidden_size " +
                                                   std::to_string(hidden) + " (give head_dim)");
    } else {
        a.head_dim = hidden / a.heads;
    }
    return a;
}

std::vector<LayerGroup> group_layers(const std::vector<LayerSpec>& layers) {
    std::vector<LayerGroup> groups;
    for (const LayerSpec& l : layers) {
        if (!groups.empty() && groups.back().layer == l) {
            ++groups.back().count;
        } else {
            groups.push_back({l, 1});
        }
    }
    return groups;
}

std::vector<bool> layer_set(HfFields& f, const char* key, int64_t layers) {
    std::vector<bool> in(static_cast<std::size_t>(layers), false);
    const Json* list = f.find({key});
    if (!list) return in;
    if (!list->is_array()) {
        throw InputError(f.path(key), std::string("must be an array of layer indices, got ") + json_type_name(*list));
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
        const int64_t layer = read_integer((*list)[i], f.path(key) + "[" + std::to_string(i) + "]", 0, layers - 1);
        in[static_cast<std::size_t>(layer)] = true;
    }
    return in;
}

std::vector<int64_t> read_windows(HfFields& f, int64_t layers, Notes& notes) {
    const int64_t window = f.optional_count({"sliding_window"}, 0, kMaxTokens).value_or(0);
    std::vector<int64_t> out(static_cast<std::size_t>(layers), 0);
    // A window given but switched off (Qwen's configs carry one they do not use).
    const bool switched = f.has({"use_sliding_window"});
    const bool on = switched ? f.flag("use_sliding_window", false) : true;
    // Qwen2Config's default: the first 28 layers keep full attention.
    const int64_t first = switched ? f.optional_count({"max_window_layers"}, 0, kMaxLayers).value_or(28) : 0;
    f.ignore({"max_window_layers"});
    if (const Json* types = f.find({"layer_types"})) {
        if (!types->is_array()) {
            throw InputError(f.path("layer_types"), std::string("must be an array, got ") + json_type_name(*types));
        }
        std::string other;
        for (std::size_t i = 0; i < types->size() && i < out.size(); ++i) {
            const std::string path = f.path("layer_types") + "[" + std::to_string(i) + "]";
            const Json& t = (*types)[i];
            if (!t.is_string()) throw InputError(path, std::string("must be a string, got ") + json_type_name(t));
            const std::string kind = t.get<std::string>();
            if (kind == "sliding_attention") {
                if (window == 0) throw InputError(f.path("sliding_window"), "is required: " + path + " is sliding_attention");
                out[i] = window;
            } else if (kind != "full_attention" && other.find(kind) == std::string::npos) {
                other += (other.empty() ? "" : ", ") + kind.substr(0, 60);
            }
        }
        if (!other.empty()) notes.push_back("layer_types " + other + " not modelled: full attention assumed there");
        return out;
    }
    if (on && window > 0) {
        for (int64_t i = first; i < layers; ++i) out[static_cast<std::size_t>(i)] = window;
    }
    return out;
}

void read_common(HfFields& f, Notes& notes) {
    // The fields of transformers' PretrainedConfig that say nothing about the network's
    // shape, and per-family settings that change no size Envelope counts.
    f.ignore({"_name_or_path", "architectures", "model_type", "transformers_version", "torch_dtype", "dtype",
              "use_cache", "initializer_range", "bos_token_id", "eos_token_id", "pad_token_id", "sep_token_id",
              "decoder_start_token_id", "tokenizer_class", "auto_map", "_commit_hash", "_attn_implementation",
              "return_dict", "output_hidden_states", "output_attentions", "torchscript", "use_bfloat16",
              "tf_legacy_loss", "pruned_heads", "chunk_size_feed_forward", "is_encoder_decoder", "is_decoder",
              "cross_attention_hidden_size", "add_cross_attention", "tie_encoder_decoder", "finetuning_task",
              "id2label", "label2id", "num_labels", "task_specific_params", "problem_type", "prefix",
              "max_length", "min_length", "do_sample", "early_stopping", "num_beams", "num_beam_groups",
              "diversity_penalty", "temperature", "top_k", "top_p", "typical_p", "repetition_penalty",
              "length_penalty", "no_repeat_ngram_size", "encoder_no_repeat_ngram_size", "bad_words_ids",
              "num_return_sequences", "output_scores", "return_dict_in_generate", "forced_bos_token_id",
              "forced_eos_token_id", "remove_invalid_values", "exponential_decay_length_penalty",
              "suppress_tokens", "begin_suppress_tokens",
              // numerics and regularisation: the same operators, the same sizes
              "rms_norm_eps", "layer_norm_eps", "layer_norm_epsilon", "hidden_act", "activation_function",
              "attention_dropout", "hidden_dropout", "dropout", "activation_dropout", "attn_pdrop", "embd_pdrop",
              "resid_pdrop", "summary_first_dropout", "classifier_dropout",
              // positions: rotary embeddings have no parameters
              "rope_theta", "rope_parameters", "rotary_emb_base", "rotary_pct", "partial_rotary_factor",
              // routing hyper-parameters: the experts' sizes and top_k are read by the families
              "router_aux_loss_coef", "router_z_loss_coef", "output_router_logits", "norm_topk_prob",
              "router_jitter_noise",
              // training-time layout hints of the original checkpoints
              "pretraining_tp"});
    if (const Json* rope = f.find({"rope_scaling"})) {
        std::string kind;
        if (rope->is_object()) {
            for (const char* key : {"rope_type", "type"}) {
                const auto it = rope->find(key);
                if (kind.empty() && it != rope->end() && it->is_string()) kind = it->get<std::string>();
            }
        }
        notes.push_back("rope_scaling" + (kind.empty() ? std::string() : " (" + kind + ")") +
                        " ignored: it does not change cost");
    }
    if (const Json* q = f.find({"quantization_config"})) {
        std::string method;
        if (q->is_object()) {
            const auto it = q->find("quant_method");
            if (it != q->end() && it->is_string()) method = " (" + it->get<std::string>() + ")";
        }
        notes.push_back("quantization_config" + method +
                        " ignored: the workload's precision sets the width of the weights");
    }
}

std::string grouped(double count) {
    std::string digits = std::to_string(static_cast<long long>(std::llround(count)));
    std::string out;
    const std::size_t lead = digits.size() % 3 == 0 ? 3 : digits.size() % 3;
    out = digits.substr(0, lead);
    for (std::size_t i = lead; i < digits.size(); i += 3) out += "," + digits.substr(i, 3);
    return out;
}

}  // namespace envelope::hf
