#pragma once
// One inference scenario moved along one axis (the batch, the prompt, the generation, the TP
// degree) and evaluated at each value: the numbers a chart of "X against Y" needs, in one
// call. Each point is the scenario's own evaluation (evaluate.hpp) with that one field
// changed; a value the checks refuse comes back as a point with its error, never dropped.
// The throughput–latency curve (fit.hpp) is a sweep over the batch.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/spelling.hpp"
#include "scenario.hpp"

namespace envelope {

enum class SweepAxis { batch, input_tokens, output_tokens, tp };
inline constexpr Spelling<SweepAxis> kSweepAxisNames[] = {{SweepAxis::batch, "batch"},
                                                         {SweepAxis::input_tokens, "input_tokens"},
                                                         {SweepAxis::output_tokens, "output_tokens"},
                                                         {SweepAxis::tp, "tp"}};
const char* to_string(SweepAxis a);

// The most values one sweep evaluates (a range adds the scenario's own: one more).
inline constexpr int kMaxSweepPoints = 128;

// The scenario's own value on the axis.
int64_t axis_value(const Scenario& s, SweepAxis axis);

// The scenario with one field set. Batch: micro-batches are capped at the batch (a pipeline
// cannot split fewer sequences). TP: the replicas (dp) stay as they are, so the chips used
// follow tp · pp · dp.
Scenario at_axis_value(const Scenario& s, SweepAxis axis, int64_t value);

// `points` integers from `from` to `to` (from ≤ to), spaced geometrically and rounded,
// ascending, without repeats (fewer when the span holds fewer integers).
std::vector<int64_t> geometric_values(int64_t from, int64_t to, int points);

struct SweepPoint {
    int64_t value = 0;
    // Empty: evaluated. Otherwise why this value is not a valid scenario (the field, the reason).
    std::string error_path, error;
    bool ok() const { return error.empty() && error_path.empty(); }

    int64_t chips = 0;                        // tp · pp · dp
    double output_tokens_per_s = 0;           // all replicas
    double output_tokens_per_s_per_chip = 0;
    double output_tokens_per_s_per_user = 0;  // 1 / TPOT; 0 when one token is generated
    double ttft_s = 0;
    std::optional<double> tpot_s;             // none when one token is generated
    double e2e_latency_s = 0;
    // Per chip, on the stage that needs the most (the result's memory).
    double memory_bytes = 0;
    double capacity_bytes = 0;
    double weights_bytes = 0;
    double kv_cache_bytes = 0;
    double activation_bytes = 0;
    bool fits = false;
};

// Checks (check_scenario) and evaluates `s`; an InputError becomes the point's error.
// Precondition: an inference scenario.
SweepPoint sweep_point(const Scenario& s, int64_t value);

// One point per value, in the order given.
std::vector<SweepPoint> sweep(const Scenario& s, SweepAxis axis, const std::vector<int64_t>& values);

}  // namespace envelope
