// The scenario's "cost" block: every price and power input, each defaulting to the chip's
// and system's "economics" presets or presets/costs/defaults.json, and each default
// used named in the result's assumptions (core/SCHEMA.md § Cost).
#include "io/cost_json.hpp"

#include <string>

#include "common/error.hpp"
#include "common/format.hpp"
#include "io/json_reader.hpp"
#include "presets/registry.hpp"

namespace envelope {

namespace {

constexpr Spelling<Pricing> kPricing[] = {
    {Pricing::cloud, "cloud"}, {Pricing::owned, "owned"}, {Pricing::unknown, "unknown"}};

double default_value(const char* key) {
    const Json* doc = cost_document("defaults");
    if (!doc || !doc->contains(key)) throw std::logic_error(std::string("presets/costs/defaults.json lacks ") + key);
    return (*doc)[key].at("value").get<double>();
}

// Reads an optional input; when absent, takes `fallback` and records where it came from.
class Inputs {
public:
    Inputs(JsonReader* r, CostInputs& out) : r_(r), out_(out) {}

    double read(const char* key, double min, double max, double fallback, const std::string& from) {
        if (r_ && r_->has(key)) return r_->number(key, min, max);
        out_.assumptions.push_back(std::string(key) + " = " + format_number(fallback, 6) + ": " + from);
        return fallback;
    }
    bool has(const char* key) { return r_ && r_->has(key); }

private:
    JsonReader* r_;
    CostInputs& out_;
};

// The scale-out levels the system spans: a level counts once the system holds more chips
// than one unit of the level below it (one DGX node pays no InfiniBand fabric). Returns where
// the numbers come from, for the assumptions.
std::string fabric(const System& sys, double& usd, double& w) {
    usd = w = 0;
    int spanned = 0;
    bool described = false;
    for (std::size_t i = 1; i < sys.network.levels.size(); ++i) {
        if (static_cast<double>(sys.count) <= sys.network.chips_per_unit(i - 1)) break;
        const NetworkLevel& l = sys.network.levels[i];
        ++spanned;
        described = described || l.usd_per_chip > 0 || l.w_per_chip > 0;
        usd += l.usd_per_chip;
        w += l.w_per_chip;
    }
    if (spanned == 0) return "the system spans no scale-out level";
    return described ? "the scale-out levels' economics presets" : "not known: no scale-out level it spans gives one";
}

}  // namespace

CostInputs parse_cost(const Json* block, const System& sys, const Parallelism& par, const std::string& path) {
    (void)par;
    CostInputs c;
    std::optional<JsonReader> reader;
    if (block) reader.emplace(*block, path);
    JsonReader* r = reader ? &*reader : nullptr;
    Inputs in(r, c);
    const Chip& chip = sys.chip;
    const Chip::Economics& ce = chip.economics;
    const std::string chip_from = "chip " + chip.name + "'s economics preset";
    const std::string system_from = "system " + (sys.name.empty() ? std::string("(custom)") : sys.name) + "'s economics preset";

    // Pricing: rent when a price per chip-hour is given or known, buy when a chip price is.
    const bool hourly_given = in.has("usd_per_chip_hour");
    Pricing pricing = Pricing::unknown;  // the one chosen; c.pricing stays unknown without a price
    if (r && r->has("pricing")) pricing = r->choice("pricing", kPricing, {Pricing::cloud, Pricing::owned});
    if (pricing == Pricing::owned && hourly_given) {
        throw InputError(r->path_of("usd_per_chip_hour"), "is a cloud price; it does not apply with pricing \"owned\"");
    }
    if (pricing == Pricing::unknown) {
        if (hourly_given || ce.cloud_usd_per_hour > 0) pricing = Pricing::cloud;
        else if (ce.price_usd > 0 || in.has("chip_usd")) pricing = Pricing::owned;
    }
    if (pricing == Pricing::cloud) {
        if (!hourly_given && ce.cloud_usd_per_hour <= 0) {
            // A missing price leaves the dollars out, never the performance or the energy.
            c.assumptions.push_back("no price: renting needs cost.usd_per_chip_hour, and chip " + chip.name +
                                    " has no cloud price in its presets");
        } else {
            c.pricing = Pricing::cloud;
            c.usd_per_chip_hour = in.read("usd_per_chip_hour", 1e-6, 1e6, ce.cloud_usd_per_hour, chip_from);
        }
    } else if (pricing == Pricing::owned && !in.has("chip_usd") && ce.price_usd <= 0) {
        c.assumptions.push_back("no price: buying needs cost.chip_usd, and chip " + chip.name +
                                " has no purchase price in its presets");
        // The other prices of owning, when given, are still checked (and unused).
        if (in.has("system_usd_per_chip")) r->number("system_usd_per_chip", 0, 1e9);
        if (in.has("network_usd_per_chip")) r->number("network_usd_per_chip", 0, 1e9);
        if (in.has("amortization_years")) r->number("amortization_years", 0.1, 100);
        if (in.has("usd_per_kwh")) r->number("usd_per_kwh", 0, 100);
    } else if (pricing == Pricing::owned) {
        c.pricing = Pricing::owned;
        c.chip_usd = in.read("chip_usd", 0, 1e9, ce.price_usd, chip_from);
        c.system_usd_per_chip = in.read("system_usd_per_chip", 0, 1e9, sys.economics.usd_per_chip,
                                        sys.economics.usd_per_chip > 0 ? system_from : "not known");
        double fabric_usd = 0, fabric_w = 0;
        const std::string from = fabric(sys, fabric_usd, fabric_w);
        c.network_usd_per_chip = in.read("network_usd_per_chip", 0, 1e9, fabric_usd, from);
        c.amortization_years = in.read("amortization_years", 0.1, 100, default_value("amortization_years"), "presets/costs/defaults.json");
        c.usd_per_kwh = in.read("usd_per_kwh", 0, 100, default_value("usd_per_kwh"), "presets/costs/defaults.json");
    } else {
        c.assumptions.push_back("no price: chip " + chip.name +
                                " has none in its presets; give cost.usd_per_chip_hour or cost.chip_usd for dollars");
    }

    c.pue = in.read("pue", 1, 10, default_value("pue"), "presets/costs/defaults.json");
    if (chip.tdp_w <= 0 && !in.has("tdp_w")) c.assumptions.push_back("chip " + chip.name + " has no tdp_w: its power is not modelled");
    c.tdp_w = in.read("tdp_w", 0, 1e6, chip.tdp_w, "chip " + chip.name + "'s preset");
    const double idle = ce.idle_w > 0 ? ce.idle_w : default_value("idle_fraction_of_tdp") * c.tdp_w;
    c.idle_w = in.read("idle_w", 0, 1e6, idle,
                       ce.idle_w > 0 ? chip_from : "tdp_w × idle_fraction_of_tdp of presets/costs/defaults.json (the chip's is not known)");
    if (c.idle_w > c.tdp_w) throw InputError(path + ".idle_w", "must not exceed tdp_w = " + format_number(c.tdp_w, 6) + " W");
    c.memory_power_share = in.read("memory_power_share", 0, 1, default_value("memory_power_share"), "presets/costs/defaults.json");
    c.system_w_per_chip = in.read("system_w_per_chip", 0, 1e6, sys.economics.w_per_chip,
                                  sys.economics.w_per_chip > 0 ? system_from : "not known");
    double fabric_usd = 0, fabric_w = 0;
    const std::string fabric_from = fabric(sys, fabric_usd, fabric_w);
    c.network_w_per_chip = in.read("network_w_per_chip", 0, 1e6, fabric_w, fabric_from);

    if (r) {
        if (const Json* p = r->optional_value("package")) c.package = parse_package(*p, r->path_of("package"));
        r->finish();
    }
    return c;
}

Json to_json(const CostInputs& c) {
    Json j = Json::object();
    if (c.pricing != Pricing::unknown) j["pricing"] = spelling_of(kPricing, c.pricing);
    if (c.pricing == Pricing::cloud) {
        j["usd_per_chip_hour"] = c.usd_per_chip_hour;
    } else if (c.pricing == Pricing::owned) {
        j["chip_usd"] = c.chip_usd;
        j["system_usd_per_chip"] = c.system_usd_per_chip;
        j["network_usd_per_chip"] = c.network_usd_per_chip;
        j["amortization_years"] = c.amortization_years;
        j["usd_per_kwh"] = c.usd_per_kwh;
    }
    j["pue"] = c.pue;
    j["tdp_w"] = c.tdp_w;
    j["idle_w"] = c.idle_w;
    j["memory_power_share"] = c.memory_power_share;
    j["system_w_per_chip"] = c.system_w_per_chip;
    j["network_w_per_chip"] = c.network_w_per_chip;
    return j;
}

namespace {

void put(Json& j, const char* key, const std::optional<double>& v) { j[key] = v ? Json(*v) : Json(nullptr); }

}  // namespace

Json to_json(const CostReport& c) {
    Json j = Json::object();
    j["pricing"] = spelling_of(kPricing, c.pricing);
    j["chips"] = c.chips;
    j["idle_chips"] = c.idle_chips;
    put(j, "usd_per_chip_hour", c.usd_per_chip_hour);
    put(j, "usd_per_idle_chip_hour", c.usd_per_idle_chip_hour);
    put(j, "capex_usd_per_chip_hour", c.capex_usd_per_chip_hour);
    put(j, "energy_usd_per_chip_hour", c.energy_usd_per_chip_hour);
    if (const auto& p = c.power_per_chip) {
        j["power_w_per_chip"] = {{"chip", p->chip_w}, {"system", p->system_w}, {"network", p->network_w}, {"it", p->it_w()},
                                 {"facility", p->facility_w}};
    } else {
        j["power_w_per_chip"] = nullptr;
    }
    if (const auto& p = c.idle_power_per_chip) {
        j["idle_power_w_per_chip"] = {{"chip", p->chip_w}, {"system", p->system_w}, {"network", p->network_w},
                                      {"it", p->it_w()}, {"facility", p->facility_w}};
    } else {
        j["idle_power_w_per_chip"] = nullptr;
    }
    if (c.training) {
        put(j, "usd_per_step", c.usd_per_step);
        put(j, "energy_kwh_per_step", c.energy_kwh_per_step);
        put(j, "steps", c.steps);
        put(j, "usd_total", c.usd_total);
        put(j, "energy_kwh", c.energy_kwh);
        put(j, "facility_energy_kwh", c.facility_energy_kwh);
        put(j, "chip_hours", c.chip_hours);
        put(j, "tokens_per_usd", c.tokens_per_usd);
    } else {
        put(j, "usd_per_m_input_tokens", c.usd_per_m_input_tokens);
        put(j, "usd_per_m_output_tokens", c.usd_per_m_output_tokens);
        put(j, "usd_per_request", c.usd_per_request);
        put(j, "output_tokens_per_usd", c.output_tokens_per_usd);
        put(j, "joules_per_output_token", c.joules_per_output_token);
        put(j, "joules_per_request", c.joules_per_request);
    }
    if (c.package) j["package"] = to_json(*c.package);
    j["assumptions"] = c.assumptions;
    return j;
}

}  // namespace envelope
