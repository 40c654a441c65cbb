#pragma once
// Requests whose lengths vary (workload.inference.lengths): a mean input and output length,
// which need not be integers, and optionally a uniform spread around them.
//
// Every time the model gives is a smooth function T(I, O) of one request's lengths, evaluated
// by the integer model. For lengths with mean m and variance v, E[T] is taken by two rules:
//   a real length x between the integers ⌊x⌋ and ⌈x⌉: T(x) = (⌈x⌉ − x)·T(⌊x⌋) + (x − ⌊x⌋)·T(⌈x⌉)
//             (exact for what is linear in length: weights, projections, the KV read per token)
//   a spread  v > 0: E[T] = (T(m − √v) + T(m + √v)) / 2, the two-point rule that matches the
//             mean and the variance, so exact for what is quadratic in length (attention's
//             I² prefill term, the decode context sum's O²/2): E[L²] = m² + v
// over the input and the output independently (at most 4 × 4 integer points). Times per
// request (TTFT, TPOT, E2E, the request period 1/X) are averaged; rates are the mean lengths
// over them: output tokens/s = X·E[O], prefill tokens/s = X·E[I]. Memory, phases and the
// network report are the longest request's (input_tokens, output_tokens hold ⌈max⌉), the
// footprint a batch must fit at its peak.
#include "result.hpp"
#include "scenario.hpp"

namespace envelope {

// One integer evaluation of the scenario (a static batch, a closed or an open loop).
using EvaluateOne = Result (*)(const Scenario&);

// Precondition: s.workload.inference.lengths.on(). Returns the longest request's result with
// its summary and roofline taken over the length distribution.
Result evaluate_lengths(const Scenario& s, EvaluateOne one);

}  // namespace envelope
