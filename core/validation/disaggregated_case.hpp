#pragma once
// A measured case's `disaggregated` block (presets/measured/FORMAT.md) turned into the
// scenario's (core/SCHEMA.md "disaggregated"): each pool's worker count and one worker's
// layout (tp, pp, attention-DP ranks dp, ep, moe_tp), the decode ranks' batch limit
// (decode_layout.batch_per_rank), and the job's clients for the whole deployment (the case's
// inference.batch). inference.tp/pp/ep/dp describe one decode worker and are not read.
// A block without worker counts skips the case (SkipCase), naming the field.
#include "io/json.hpp"
#include "validation/measured_case.hpp"

namespace envelope {

// Precondition: c.scenario is the aggregated scenario read_inference built for the case.
// Does nothing when the case has no disaggregated block.
void read_disaggregated(const Json& doc, MeasuredCase& c);

}  // namespace envelope
