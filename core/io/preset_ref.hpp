#pragma once
// Presettable values and enum fields shared by the schema's readers.
#include <string>

#include "common/precision.hpp"
#include "io/json.hpp"
#include "presets/registry.hpp"

namespace envelope {

// A presettable value: "key", {...inline...} or {"preset": "key", ...overrides...}.
// Overrides apply as a JSON Merge Patch (RFC 7386): nested objects merge field by
// field ({"efficiency": {"memory": 0.8}} keeps the preset's matrix efficiencies),
// anything else replaces, null removes. Throws InputError for an unknown preset.
Json resolve_preset(PresetKind kind, const Json& value, const std::string& path);

// One of the format names ("bf16"); InputError otherwise.
Precision read_precision(const Json& v, const std::string& path);

}  // namespace envelope
