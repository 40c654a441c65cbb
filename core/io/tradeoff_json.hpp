#pragma once
// The trade-off request and answer (explore/trade_off.hpp; core/SCHEMA.md § Trade-off).
#include "io/json.hpp"

namespace envelope {

// {"scenario", "knobs": [{"knob", "values": [...]}, ...]} → {"ok": true, "workload", "knobs",
// "base_package_usd", "points": [...]}. Throws InputError naming the field.
Json tradeoff_document(const Json& request);

// A package document (cost/package.hpp) → {"ok": true, ...its cost by part}.
Json package_cost_document(const Json& package);

}  // namespace envelope
