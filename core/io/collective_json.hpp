#pragma once
// `envelope collective` and the page's network view: one collective on a system, predicted
// the way nccl-tests measures it, at one message size or a sweep of them.
//
// Request: {"system": S (a preset key, an inline system, or a preset with overrides),
//           "op": "all_reduce" | "all_gather" | "reduce_scatter" | "all_to_all" |
//                 "broadcast" | "send_recv",
//           "chips": N (2 … the chips its network joins, which may exceed its count: a
//                  node preset is one node of a fabric), "stride": 1 (chips apart),
//           "bytes": B  or  "sweep": {"from": 8, "to": 8e9, "factor": 2},
//           "algorithm": "auto" | "ring" | "in_network"}
// Response: {"ok": true, "version", "system", "op", "chips", "stride", "levels": the spans,
//            "points": [{"bytes", "time_s", "algbw_gbps", "busbw_gbps", "algorithm",
//                        "bound_time_s"}]}
#include "io/json.hpp"

namespace envelope {

// Throws InputError naming the field.
Json collective_document(const Json& request);

}  // namespace envelope
