#pragma once
// Requirement analysis (issue 20): for a workload and a target, the least of each chip
// resource that meets the target with the others held at the chip's values — peak FLOP/s,
// HBM bandwidth, HBM capacity, scale-up and scale-out bandwidth — and which one binds.
// Each is a bisection of one scale factor on the scenario's own evaluation (evaluate.hpp);
// METHODOLOGY §38.7 says why each quantity is monotone in its factor.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/spelling.hpp"
#include "explore/serving_search.hpp"
#include "scenario.hpp"

namespace envelope {

enum class Resource { peak_flops, hbm_bandwidth, hbm_capacity, scale_up_bandwidth, scale_out_bandwidth };
inline constexpr Spelling<Resource> kResourceNames[] = {{Resource::peak_flops, "peak_flops"},
                                                       {Resource::hbm_bandwidth, "hbm_bandwidth"},
                                                       {Resource::hbm_capacity, "hbm_capacity"},
                                                       {Resource::scale_up_bandwidth, "scale_up_bandwidth"},
                                                       {Resource::scale_out_bandwidth, "scale_out_bandwidth"}};

// What must hold. Inference: the SLO (means) and a least output tokens/s per chip; training:
// a longest step, a least tokens/s. Every evaluated scenario must also fit in memory.
struct Target {
    Slo slo;
    std::optional<double> output_tokens_per_s_per_chip;
    std::optional<double> step_time_s;
    std::optional<double> tokens_per_s;
};

// found: the least within the range, to the tolerance; below_range: met even at 1/1024 of
// the chip's (required is then an upper bound: that value); above_range: not met even at
// 1024 times it; not_applicable: the system has no such level (scale-out on one node).
enum class RequirementStatus { found, below_range, above_range, not_applicable };
inline constexpr Spelling<RequirementStatus> kRequirementStatusNames[] = {
    {RequirementStatus::found, "found"},
    {RequirementStatus::below_range, "below_range"},
    {RequirementStatus::above_range, "above_range"},
    {RequirementStatus::not_applicable, "not_applicable"}};

struct Requirement {
    Resource resource = Resource::peak_flops;
    RequirementStatus status = RequirementStatus::found;
    double current = 0;               // the chip's (TFLOP/s, TB/s, GB, GB/s per chip)
    std::optional<double> required;   // found, below_range: the least that meets the target
    std::optional<double> ratio;      // required / current
};

struct RequirementAnalysis {
    bool met = false;                  // at the chip as it is
    std::vector<Requirement> resources;
    std::optional<Resource> binds;     // the largest ratio among those found (closest to short, or
                                       // furthest short of the target)
};

// Factors are searched in [1/1024, 1024] of the chip's value, to 0.1 % (relative).
RequirementAnalysis analyze_requirements(const Scenario& s, const Target& t);

// The scenario with one resource scaled by k.
Scenario with_resource_scaled(const Scenario& s, Resource r, double k);

}  // namespace envelope
