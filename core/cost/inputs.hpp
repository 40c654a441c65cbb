#pragma once
// What a scenario's "cost" block resolves to (cost/resolve.cpp fills every default from
// the chip's and system's "economics" presets and presets/costs/defaults.json, and lists
// each default it used in `assumptions`). SI units except where the name says.
#include <optional>
#include <string>
#include <vector>

#include "cost/package.hpp"

namespace envelope {

enum class Pricing {
    cloud,    // rent: an all-in price per chip-hour (power included)
    owned,    // buy: hardware amortized over its life, plus the electricity it draws
    unknown,  // no price given and none in the presets: energy only
};

struct CostInputs {
    Pricing pricing = Pricing::unknown;
    double usd_per_chip_hour = 0;      // cloud

    // owned: capital cost per accelerator, straight-line over amortization_years
    double chip_usd = 0;
    double system_usd_per_chip = 0;    // hosts, chassis, scale-up switches, racks
    double network_usd_per_chip = 0;   // scale-out NICs, optics, switch ports
    double amortization_years = 0;
    double usd_per_kwh = 0;
    double pue = 1;                    // facility power ÷ IT power

    // power (cost/power.hpp)
    double tdp_w = 0;
    double idle_w = 0;
    double memory_power_share = 0;
    double system_w_per_chip = 0;      // hosts, fans, scale-up switches, per chip
    double network_w_per_chip = 0;     // scale-out fabric, per chip

    // The system's chips a layout leaves idle are paid for and powered (a node is rented or
    // bought whole). A serving search turns it off: each candidate is priced for the chips it
    // uses, as a choice of how many to buy (explore/serving_search.cpp).
    bool charge_idle_chips = true;

    std::optional<PackageSpec> package;  // the accelerator's manufacturing cost, if described

    std::vector<std::string> assumptions;  // each default used: "field = value (source)"
};

}  // namespace envelope
