#pragma once
// The sweep request and answer (`envelope sweep`, the wasm module's sweep(); SCHEMA.md).
//
// Request: {"scenario": an inference scenario document,
//           "axis": "batch" | "input_tokens" | "output_tokens" | "tp",
//           "values": [v, …] (1 … 128 integers in the axis's range, evaluated in that order)
//           or "range": {"from", "to", "points": 2 … 128} (geometric, rounded, ascending;
//                        the scenario's own value is added when it lies within)}
// Answer:  {"ok": true, "version", "axis", "current" (the scenario's own value),
//           "points": [{"value", "ok": true, "fits", "chips", "output_tokens_per_s",
//                       "output_tokens_per_s_per_chip", "output_tokens_per_s_per_user",
//                       "ttft_s", "tpot_s" (null: one token generated), "e2e_latency_s",
//                       "memory_bytes", "capacity_bytes", "weights_bytes",
//                       "kv_cache_bytes", "activation_bytes"}
//                      | {"value", "ok": false, "error": {"path", "message"}}, …]}
#include <cstdint>
#include <vector>

#include "explore/sweep.hpp"
#include "io/json.hpp"

namespace envelope {

struct SweepRequest {
    const Json* scenario = nullptr;   // points into the request document
    SweepAxis axis = SweepAxis::batch;
    std::vector<int64_t> values;      // given, or the range's (without the scenario's own)
    bool range = false;               // values came from a range: add the scenario's own
    int64_t from = 0, to = 0;
};

// Throws InputError naming the field ("axis", "values[3]", "range.points"). The scenario is
// not read here: parse it with the path prefix "scenario.".
SweepRequest parse_sweep_request(const Json& request);

// The axis's allowed values (the scenario schema's range of that field).
int64_t sweep_axis_max(SweepAxis axis);

Json sweep_answer_json(SweepAxis axis, int64_t current, const std::vector<SweepPoint>& points);

}  // namespace envelope
