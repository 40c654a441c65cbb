#include "cost/resolve.hpp"

#include <utility>

#include "common/error.hpp"
#include "common/format.hpp"

namespace envelope {

namespace {

constexpr const char* kDefaults = "presets/costs/defaults.json";

// Takes a stated input, or `fallback` with where it came from named in the assumptions.
class Taker {
public:
    explicit Taker(CostInputs& out) : out_(out) {}
    double operator()(const char* key, const std::optional<double>& given, double fallback, const std::string& from) {
        if (given) return *given;
        out_.assumptions.push_back(std::string(key) + " = " + format_number(fallback, 6) + ": " + from);
        return fallback;
    }

private:
    CostInputs& out_;
};

}  // namespace

FabricEconomics spanned_fabric(const System& sys) {
    FabricEconomics f;
    int spanned = 0;
    bool described = false;
    for (std::size_t i = 1; i < sys.network.levels.size(); ++i) {
        if (static_cast<double>(sys.count) <= sys.network.chips_per_unit(i - 1)) break;
        const NetworkLevel& l = sys.network.levels[i];
        ++spanned;
        described = described || l.usd_per_chip > 0 || l.w_per_chip > 0;
        f.usd_per_chip += l.usd_per_chip;
        f.w_per_chip += l.w_per_chip;
    }
    f.from = spanned == 0 ? "the system spans no scale-out level"
             : described  ? "the scale-out levels' economics presets"
                          : "not known: no scale-out level it spans gives one";
    return f;
}

CostInputs resolve_cost(const CostRequest& q, const System& sys, const CostDefaults& d, const std::string& path) {
    CostInputs c;
    Taker take(c);
    const Chip& chip = sys.chip;
    const Chip::Economics& ce = chip.economics;
    const std::string chip_from = "chip " + chip.name + "'s economics preset";
    const std::string system_from = "system " + (sys.name.empty() ? std::string("(custom)") : sys.name) + "'s economics preset";
    const FabricEconomics fabric = spanned_fabric(sys);
    const auto field = [&](const char* key) { return path + "." + key; };

    Pricing pricing = q.pricing.value_or(Pricing::unknown);
    if (pricing == Pricing::owned && q.usd_per_chip_hour) {
        throw InputError(field("usd_per_chip_hour"), "is a cloud price; it does not apply with pricing \"owned\"");
    }
    if (pricing == Pricing::unknown) {
        if (q.usd_per_chip_hour || ce.cloud_usd_per_hour > 0) pricing = Pricing::cloud;
        else if (ce.price_usd > 0 || q.chip_usd) pricing = Pricing::owned;
    }
    // The prices of owning have no place in a rented or unpriced run.
    if (pricing != Pricing::owned) {
        const std::pair<const char*, const std::optional<double>*> owning[] = {
            {"chip_usd", &q.chip_usd},
            {"system_usd_per_chip", &q.system_usd_per_chip},
            {"network_usd_per_chip", &q.network_usd_per_chip},
            {"amortization_years", &q.amortization_years},
            {"usd_per_kwh", &q.usd_per_kwh}};
        for (const auto& [key, value] : owning) {
            if (!*value) continue;
            if (pricing == Pricing::unknown) {
                throw InputError(field(key), "is a price of owning, which needs " + field("chip_usd") + " (chip " + chip.name +
                                                 " has no purchase price in its presets)");
            }
            const std::string chosen = q.pricing           ? ""
                                       : q.usd_per_chip_hour ? " (chosen by " + field("usd_per_chip_hour") + ")"
                                                             : " (chosen by the chip's cloud price: give pricing \"owned\" to buy)";
            throw InputError(field(key), "is a price of owning; it does not apply with pricing \"cloud\"" + chosen);
        }
    }
    if (pricing == Pricing::cloud) {
        if (!q.usd_per_chip_hour && ce.cloud_usd_per_hour <= 0) {
            // A missing price leaves the dollars out, never the performance or the energy.
            c.assumptions.push_back("no price: renting needs cost.usd_per_chip_hour, and chip " + chip.name +
                                    " has no cloud price in its presets");
        } else {
            c.pricing = Pricing::cloud;
            c.usd_per_chip_hour = take("usd_per_chip_hour", q.usd_per_chip_hour, ce.cloud_usd_per_hour, chip_from);
        }
    } else if (pricing == Pricing::owned && !q.chip_usd && ce.price_usd <= 0) {
        // The other prices of owning, when given, were range-checked by the reader (and are unused).
        c.assumptions.push_back("no price: buying needs cost.chip_usd, and chip " + chip.name +
                                " has no purchase price in its presets");
    } else if (pricing == Pricing::owned) {
        c.pricing = Pricing::owned;
        c.chip_usd = take("chip_usd", q.chip_usd, ce.price_usd, chip_from);
        c.system_usd_per_chip = take("system_usd_per_chip", q.system_usd_per_chip, sys.economics.usd_per_chip,
                                     sys.economics.usd_per_chip > 0 ? system_from : "not known");
        c.network_usd_per_chip = take("network_usd_per_chip", q.network_usd_per_chip, fabric.usd_per_chip, fabric.from);
        c.amortization_years = take("amortization_years", q.amortization_years, d.amortization_years, kDefaults);
        c.usd_per_kwh = take("usd_per_kwh", q.usd_per_kwh, d.usd_per_kwh, kDefaults);
    } else {
        c.assumptions.push_back("no price: chip " + chip.name +
                                " has none in its presets; give cost.usd_per_chip_hour or cost.chip_usd for dollars");
    }

    c.pue = take("pue", q.pue, d.pue, kDefaults);
    if (chip.tdp_w <= 0 && !q.tdp_w) c.assumptions.push_back("chip " + chip.name + " has no tdp_w: its power is not modelled");
    c.tdp_w = take("tdp_w", q.tdp_w, chip.tdp_w, "chip " + chip.name + "'s preset");
    const double idle = ce.idle_w > 0 ? ce.idle_w : d.idle_fraction_of_tdp * c.tdp_w;
    c.idle_w = take("idle_w", q.idle_w, idle,
                    ce.idle_w > 0 ? chip_from
                                  : "tdp_w × idle_fraction_of_tdp of presets/costs/defaults.json (the chip's is not known)");
    if (c.idle_w > c.tdp_w) throw InputError(field("idle_w"), "must not exceed tdp_w = " + format_number(c.tdp_w, 6) + " W");
    c.memory_power_share = take("memory_power_share", q.memory_power_share, d.memory_power_share, kDefaults);
    c.system_w_per_chip = take("system_w_per_chip", q.system_w_per_chip, sys.economics.w_per_chip,
                               sys.economics.w_per_chip > 0 ? system_from : "not known");
    c.network_w_per_chip = take("network_w_per_chip", q.network_w_per_chip, fabric.w_per_chip, fabric.from);
    c.package = q.package;
    return c;
}

}  // namespace envelope
