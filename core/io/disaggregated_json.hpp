#pragma once
// The scenario's "disaggregated" block (core/SCHEMA.md): a prefill and a decode pool, each
// {"workers", "parallelism" (one worker's layout), "batch_per_rank"}, and "kv_transfer".
#include <string>

#include "io/json.hpp"
#include "io/scenario_json.hpp"
#include "result.hpp"
#include "workload/disaggregated.hpp"

namespace envelope {

Disaggregated parse_disaggregated(const Json& value, const std::string& path);
Json to_json(const Disaggregated& d);
// The result's "disaggregated" block: each pool, the KV move, what binds, TTFT's parts.
Json to_json(const DisaggregatedReport& d);

}  // namespace envelope
