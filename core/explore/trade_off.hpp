#pragma once
// The performance–cost trade-off of hardware design choices (the founding paper's purpose):
// one or two knobs of the accelerator or its system swept over a grid, each point evaluated
// for performance (evaluate.hpp) and cost (workload_cost.hpp, package.hpp), the Pareto
// front marked. METHODOLOGY.md § The trade-off.
//
// What a knob changes (everything else stays the scenario's):
//   hbm_stacks       memory capacity and bandwidth ∝ stacks (each stack adds its capacity and
//                    its interface); the package's stacks
//   die_area_mm2     the logic dies' total area; matrix and vector peaks and compute units ∝
//                    area (same node, same clock); the dies' areas and NRE
//   chiplets         the same logic area split into k equal dies (performance unchanged; a
//                    die-to-die interface's area and power are not modelled)
//   process_node     the dies' wafer price, defect density and NRE (speed unchanged: a node's
//                    density and clock gains are not modelled)
//   scale_up_gbps    the first network level's bandwidth per chip
//   chips_per_system the first network level's size (the scale-up domain)
// The chip's price follows its package cost at the scenario's ratio of price to cost.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/spelling.hpp"
#include "cost/package.hpp"
#include "scenario.hpp"

namespace envelope {

enum class Knob { hbm_stacks, die_area_mm2, chiplets, process_node, scale_up_gbps, chips_per_system };
inline constexpr Spelling<Knob> kKnobNames[] = {
    {Knob::hbm_stacks, "hbm_stacks"},     {Knob::die_area_mm2, "die_area_mm2"},   {Knob::chiplets, "chiplets"},
    {Knob::process_node, "process_node"}, {Knob::scale_up_gbps, "scale_up_gbps"}, {Knob::chips_per_system, "chips_per_system"},
};
bool knob_needs_package(Knob k);

// One value of a knob: a number, or a process node (resolved by the reader).
struct KnobValue {
    double number = 0;
    std::string label;  // the node's id
    Wafer wafer;        // process_node
    double node_nre_usd = 0;
};

struct KnobAxis {
    Knob knob = Knob::hbm_stacks;
    std::vector<KnobValue> values;
};

// The most points one trade-off evaluates.
inline constexpr std::size_t kMaxTradeOffPoints = 1024;

struct TradeOffPoint {
    std::vector<std::string> setting;  // each knob's value, as text
    std::vector<double> values;        // each knob's value (process_node: its index)
    std::string error_path, error;     // not a valid scenario: why
    bool fits = false;
    // performance
    double output_tokens_per_s = 0, output_tokens_per_s_per_chip = 0, ttft_s = 0;
    std::optional<double> tpot_s;
    double step_time_s = 0;
    // cost
    std::optional<double> package_usd;
    std::optional<double> usd_per_chip_hour;
    std::optional<double> usd_per_m_output_tokens;
    std::optional<double> joules_per_output_token;
    std::optional<double> usd_per_step, usd_total;
    bool pareto = false;
};

struct TradeOff {
    bool training = false;
    std::vector<TradeOffPoint> points;  // the first knob's values vary slowest
    std::optional<double> base_package_usd;
};

// Precondition: s.cost.package is set when a knob needs it; at most 2 axes whose value
// counts multiply to ≤ kMaxTradeOffPoints.
TradeOff trade_off(const Scenario& s, const std::vector<KnobAxis>& axes);

}  // namespace envelope
