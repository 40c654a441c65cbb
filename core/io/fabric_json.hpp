#pragma once
// Scale-out fabrics (presets/fabrics/<key>.json; METHODOLOGY.md §12.9; SCHEMA.md § Fabrics): a
// transport's per-crossing latency, call latency and achievable bandwidth fraction, each with its
// source. A network level that names one ("fabric": "efa-v2") takes those of the three it does
// not set itself.
#include <string>
#include <string_view>
#include <vector>

#include "io/json.hpp"

namespace envelope {

// The fabric preset of that key, or nullptr.
const Json* find_fabric(std::string_view key);

// Keys of every fabric preset, sorted.
std::vector<std::string> fabric_keys();

// The key of the fabric a free-text name (a measured case's hardware.fabric.name) names: the
// preset with the longest entry of its "names" found in the text, ignoring case; "" when none.
std::string fabric_named(std::string_view text);

// A network level with "fabric": the level with latency_us, call_latency_us and efficiency
// filled from the fabric preset where the level lacks them, and "fabric" removed. Throws
// InputError (path.fabric) when the key names no preset or is not a string.
Json with_fabric(const Json& level, const std::string& path);

// A system (a preset key or an object with a network) whose outermost level names `fabric`
// (envelope collective --fabric): the level's latency_us, call_latency_us and efficiency give way
// to the fabric's. Throws InputError (path) for an unknown fabric or a system without a network
// of at least two levels.
Json on_fabric(const Json& system, const std::string& fabric, const std::string& path);

}  // namespace envelope
