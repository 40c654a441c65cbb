// The scenario's "cost" block, read and range-checked; which prices and powers apply and
// the defaults of what it leaves out are cost/resolve.cpp's (core/SCHEMA.md § Cost).
#include "io/cost_json.hpp"

#include <string>

#include "common/error.hpp"
#include "common/format.hpp"
#include "cost/resolve.hpp"
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

}  // namespace

CostInputs parse_cost(const Json* block, const System& sys, const std::string& path) {
    CostRequest q;
    if (block) {
        JsonReader r(*block, path);
        if (r.has("pricing")) q.pricing = r.choice("pricing", kPricing, {Pricing::cloud, Pricing::owned});
        q.usd_per_chip_hour = r.optional_number("usd_per_chip_hour", 1e-6, 1e6);
        q.chip_usd = r.optional_number("chip_usd", 0, 1e9);
        q.system_usd_per_chip = r.optional_number("system_usd_per_chip", 0, 1e9);
        q.network_usd_per_chip = r.optional_number("network_usd_per_chip", 0, 1e9);
        q.amortization_years = r.optional_number("amortization_years", 0.1, 100);
        q.usd_per_kwh = r.optional_number("usd_per_kwh", 0, 100);
        q.pue = r.optional_number("pue", 1, 10);
        q.tdp_w = r.optional_number("tdp_w", 0, 1e6);
        q.idle_w = r.optional_number("idle_w", 0, 1e6);
        q.memory_power_share = r.optional_number("memory_power_share", 0, 1);
        q.system_w_per_chip = r.optional_number("system_w_per_chip", 0, 1e6);
        q.network_w_per_chip = r.optional_number("network_w_per_chip", 0, 1e6);
        if (const Json* p = r.optional_value("package")) q.package = parse_package(*p, r.path_of("package"));
        r.finish();
    }
    CostDefaults d;
    d.amortization_years = default_value("amortization_years");
    d.usd_per_kwh = default_value("usd_per_kwh");
    d.pue = default_value("pue");
    d.idle_fraction_of_tdp = default_value("idle_fraction_of_tdp");
    d.memory_power_share = default_value("memory_power_share");
    return resolve_cost(q, sys, d, path);
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
