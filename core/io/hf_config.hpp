#pragma once
// Importing a Hugging Face transformers config.json as an Envelope model document (the
// shape of presets/models/*.json, which a scenario's "model" accepts inline).
//
// A config describes the network in its family's own field names; each supported family
// (io/hf_families.hpp) maps them onto the model schema and writes a note for every field
// it approximates or leaves out ("sliding_window 4096 is not modelled yet: full attention
// assumed"), and the fields no reader looked at are listed in a note too. A multimodal
// config's text model ("text_config") is what is imported. The document is then read
// back by the schema's own model reader, so it passes every check a preset passes.
// Pure: text in, document out; envelope import-hf, the wasm module and the page call it.
#include <string>
#include <string_view>
#include <vector>

#include "io/json.hpp"
#include "model/model.hpp"

namespace envelope {

struct HfImport {
    Json document;                   // the model document, the notes in its "notes" field
    Model model;                     // the same, as the schema reads it
    std::vector<std::string> notes;  // what was approximated or left out, one sentence each
};

// `name`: the model's name; empty: the config's _name_or_path, else its architecture.
// Throws InputError naming the config's field ("num_hidden_layers: is required",
// "text_config.kv_lora_rank: ...") for a config that is not JSON, lacks a size, has one out
// of the schema's range, or belongs to a family that is not supported.
HfImport import_hf_config(std::string_view config_text, const std::string& name = "");


}  // namespace envelope
