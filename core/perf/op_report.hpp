#pragma once
// One op's line in a phase report (result.hpp OpReport), and its share of the phase's
// totals: the one place inference and training turn a timed op into a report.
#include <cstdint>

#include "ops/op.hpp"
#include "perf/context_sum.hpp"
#include "perf/roofline.hpp"
#include "result.hpp"

namespace envelope {

// `t`: the op's time summed over contexts first..last (training and prefill: 0..0); `runs`:
// how many times the phase runs those steps (micro-batches); `spans`: where a collective's
// group sits (nullptr otherwise). Per-execution numbers are means over the steps.
void add_op_report(PhaseReport& phase, const Op& op, const TimeSum& t, int64_t stage, int64_t first, int64_t last,
                   double runs, const Spans* spans, const TimingContext& ctx);

}  // namespace envelope
