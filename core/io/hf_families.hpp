#pragma once
// Inside the Hugging Face importer (io/hf_config.hpp): one reader per family of configs,
// and the pieces they share. Each reader maps a config's fields onto the model schema
// (model/model.hpp) and writes a note for every field it approximates or leaves out.
#include <cstdint>
#include <string>
#include <vector>

#include "io/hf_fields.hpp"
#include "model/model.hpp"

namespace envelope::hf {

using Notes = std::vector<std::string>;

// Reads one family's fields; name and source are left to the caller.
using FamilyReader = Model (*)(HfFields& f, Notes& notes);

struct Family {
    const char* model_type;    // config.json "model_type"
    const char* architecture;  // its "architectures" entry, for configs without a model_type
    FamilyReader read;
};

// Every supported family, in the order the error message lists them.
const std::vector<Family>& families();

// Llama-style decoders (hf_llama.cpp) and GPT-style ones (hf_gpt.cpp).
Model read_llama(HfFields& f, Notes& notes);
Model read_mistral(HfFields& f, Notes& notes);
Model read_gemma2(HfFields& f, Notes& notes);
Model read_gemma3(HfFields& f, Notes& notes);  // gemma3_text, or a Gemma 3 config's text_config
Model read_qwen2(HfFields& f, Notes& notes);
Model read_qwen3(HfFields& f, Notes& notes);
Model read_mixtral(HfFields& f, Notes& notes);
Model read_qwen2_moe(HfFields& f, Notes& notes);
Model read_qwen3_moe(HfFields& f, Notes& notes);
Model read_llama4_text(HfFields& f, Notes& notes);
Model read_deepseek(HfFields& f, Notes& notes);  // DeepSeek-V2 and V3
Model read_gpt2(HfFields& f, Notes& notes);
Model read_gpt_neox(HfFields& f, Notes& notes);
Model read_opt(HfFields& f, Notes& notes);
Model read_falcon(HfFields& f, Notes& notes);
Model read_refined_web(HfFields& f, Notes& notes);        // Falcon-40B's first config: the new design
Model read_refined_web_model(HfFields& f, Notes& notes);  // Falcon-7B's first config: the first design
// State-space models (hf_ssm.cpp).
Model read_mamba(HfFields& f, Notes& notes);
Model read_mamba2(HfFields& f, Notes& notes);
Model read_jamba(HfFields& f, Notes& notes);

// ---- shared pieces (hf_common.cpp) ----

// The sizes every family has, under their usual names (GPT-2's and Falcon's aliases
// included): hidden, layers, vocab, max_seq_len (0 when the config gives none).
struct Trunk {
    int64_t hidden = 0;
    int64_t layers = 0;
    int64_t vocab = 0;
    int64_t max_seq_len = 0;
};
Trunk read_trunk(HfFields& f);

// Query heads, KV heads (default: as many as query heads) and head_dim (default:
// hidden / heads, which must then divide). kv_keys: the config's names for the KV heads;
// none for a family without grouped KV heads.
AttentionSpec read_attention(HfFields& f, int64_t hidden, std::initializer_list<const char*> kv_keys);

// Consecutive layers of the same spec as one group each.
std::vector<LayerGroup> group_layers(const std::vector<LayerSpec>& layers);

// Which layers a mixture replaces: the layer indices of an array field
// ("mlp_only_layers": [0, 3]); each must be in [0, layers − 1].
std::vector<bool> layer_set(HfFields& f, const char* key, int64_t layers);

// Each layer's sliding window (0: full attention), by transformers' rules: layer_types
// when given ("sliding_attention" layers get sliding_window); else with use_sliding_window
// (Qwen) the layers from max_window_layers on; else (Mistral, Mixtral) every layer when
// sliding_window is set. Kinds of attention the schema lacks are noted.
std::vector<int64_t> read_windows(HfFields& f, int64_t layers, Notes& notes);

// Fields every family may carry that change nothing Envelope computes (token ids,
// dropout, norm epsilons, RoPE bases, generation defaults), read silently; and notes for
// rope_scaling and quantization_config, which look as if they should matter.
void read_common(HfFields& f, Notes& notes);

// 8030261248 → "8,030,261,248": parameter counts in notes.
std::string grouped(double count);

}  // namespace envelope::hf
