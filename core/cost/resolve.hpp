#pragma once
// Which prices and powers a scenario's cost is computed with: what its cost block states,
// each input it leaves out taken from the chip's and system's economics presets or the
// defaults, and each such default named in CostInputs::assumptions (core/SCHEMA.md § Cost).
// The reader (io/cost_json.cpp) only reads and range-checks; the choices live here.
#include <optional>
#include <string>

#include "cost/inputs.hpp"
#include "hardware/system.hpp"

namespace envelope {

// The cost block as given: each field absent when it is not stated.
struct CostRequest {
    std::optional<Pricing> pricing;  // cloud or owned
    std::optional<double> usd_per_chip_hour;
    std::optional<double> chip_usd, system_usd_per_chip, network_usd_per_chip, amortization_years, usd_per_kwh;
    std::optional<double> pue, tdp_w, idle_w, memory_power_share, system_w_per_chip, network_w_per_chip;
    std::optional<PackageSpec> package;
};

// presets/costs/defaults.json: the economics no chip or system preset gives.
struct CostDefaults {
    double amortization_years = 0;
    double usd_per_kwh = 0;
    double pue = 1;
    double idle_fraction_of_tdp = 0;
    double memory_power_share = 0;
};

// The cost inputs of a scenario on `sys`. Pricing: what the block states; else renting when
// a price per chip-hour is given or the chip has a cloud price, buying when a chip price is;
// else none (energy only). A price that does not apply to the pricing is refused, naming
// its field under `path`, as is an idle power above the TDP.
CostInputs resolve_cost(const CostRequest& request, const System& sys, const CostDefaults& defaults,
                        const std::string& path);

// The scale-out levels `sys` spans and their economics per chip: a level counts once the
// system holds more chips than one unit of the level below it (one DGX node pays no
// InfiniBand fabric). `from` says where the numbers come from.
struct FabricEconomics {
    double usd_per_chip = 0;
    double w_per_chip = 0;
    std::string from;
};
FabricEconomics spanned_fabric(const System& sys);

}  // namespace envelope
