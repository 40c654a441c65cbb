#pragma once
// The presets compiled into the binary (presets/*/*.json, embedded at build time by
// core/presets/embed_presets.cmake), so the CLI and the wasm module see the same set.
#include <string>
#include <string_view>
#include <vector>

#include "io/json.hpp"

namespace envelope {

enum class PresetKind { model, chip, system, engine, framework, scenario };

// Folder name and JSON key of a kind: "models", "chips", "systems", "engines", "scenarios".
const char* preset_folder(PresetKind kind);

// The preset's document, or nullptr when there is none with that key. Keys are the
// file names without ".json" ("llama-2-70b").
const Json* find_preset(PresetKind kind, std::string_view key);

// Keys of one kind, sorted.
std::vector<std::string> preset_keys(PresetKind kind);

// {"models": {key: document, ...}, "chips": ..., "systems": ..., "engines": ..., "scenarios": ...}
const Json& all_presets();

// The published measurements bundled from presets/measured/ (the format of
// presets/measured/FORMAT.md): "cases" (an array of measured cases) and "chips" (the spec
// sheet they refer to). An empty array for an unknown key.
const Json& measured_document(std::string_view key);

// A cost data document from presets/costs/ ("defaults", "packaging", "process-nodes",
// "cloud"), or nullptr when there is none of that name.
const Json* cost_document(std::string_view key);

}  // namespace envelope
