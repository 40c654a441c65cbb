// Reading an accelerator package (cost/package.hpp) from JSON, with the packaging and
// process-node inputs of presets/costs/ as defaults.
#include <string>

#include "common/error.hpp"
#include "common/format.hpp"
#include "io/cost_json.hpp"
#include "io/json_reader.hpp"
#include "presets/registry.hpp"

namespace envelope {

namespace {

constexpr Spelling<PackageKind> kKinds[] = {{PackageKind::organic, "organic"},
                                            {PackageKind::fan_out, "fan_out"},
                                            {PackageKind::si_interposer, "si_interposer"},
                                            {PackageKind::bridge, "bridge"}};
// The same kinds' keys in presets/costs/packaging.json.
constexpr Spelling<PackageKind> kKindPresets[] = {{PackageKind::organic, "organic"},
                                                  {PackageKind::fan_out, "fan-out"},
                                                  {PackageKind::si_interposer, "si-interposer"},
                                                  {PackageKind::bridge, "bridge"}};
constexpr Spelling<YieldModel> kYieldModels[] = {{YieldModel::negative_binomial, "negative_binomial"},
                                                 {YieldModel::poisson, "poisson"},
                                                 {YieldModel::murphy, "murphy"}};

const Json& cost_data(const char* key) {
    const Json* doc = cost_document(key);
    if (!doc) throw std::logic_error(std::string("presets/costs/") + key + ".json is missing");
    return *doc;
}

// An entry of a presets/costs list by id, or nullptr.
const Json* entry(const char* document, const char* list, const std::string& id) {
    for (const Json& e : cost_data(document)[list]) {
        if (e.value("id", "") == id) return &e;
    }
    return nullptr;
}

std::string ids(const char* document, const char* list) {
    std::string out;
    for (const Json& e : cost_data(document)[list]) out += (out.empty() ? "" : ", ") + e.value("id", "");
    return out;
}

// The manufacturing constants every wafer shares (presets/costs/packaging.json), with the
// package's own wafer geometry where it gives one: its diameter (200, 300, 450 mm wafers),
// the unusable rim and the saw street between dies.
Wafer base_wafer(YieldModel model, JsonReader& r) {
    const Json& m = cost_data("packaging")["manufacture"];
    Wafer w;
    w.diameter_mm = r.number_or("wafer_diameter_mm", 25, 450, m.at("wafer_diameter_mm").get<double>());
    w.edge_loss_mm = r.number_or("edge_loss_mm", 0, w.diameter_mm / 4, m.at("edge_loss_mm").get<double>());
    w.scribe_lane_mm = r.number_or("scribe_lane_mm", 0, 10, m.at("scribe_lane_mm").get<double>());
    w.critical_level = m.at("critical_level").get<double>();
    w.yield_model = model;
    return w;
}

// A die's units that may ship switched off: all three fields, or none.
UnitRedundancy read_redundancy(JsonReader& d) {
    UnitRedundancy u;
    const bool any = d.has("units") || d.has("units_needed") || d.has("unit_area_share");
    if (!any) return u;
    for (const char* key : {"units", "units_needed", "unit_area_share"}) {
        if (!d.has(key)) {
            throw InputError(d.path_of(key), "is missing: a die that ships with units switched off gives units (how many "
                                             "it has), units_needed (how many must work) and unit_area_share (the share "
                                             "of its area they cover)");
        }
    }
    u.units = d.integer("units", 2, kMaxSalvageUnits);
    u.needed = d.integer("units_needed", 1, u.units);
    u.area_share = d.number("unit_area_share", 0.001, 0.999);
    return u;
}

}  // namespace

Wafer read_node(const Json& v, const std::string& path, const Wafer& base, double& nre_usd) {
    Wafer w = base;
    if (v.is_string()) {
        const Json* n = entry("process-nodes", "nodes", v.get<std::string>());
        if (!n) throw InputError(path, "unknown process node \"" + v.get<std::string>() + "\"; known: " + ids("process-nodes", "nodes"));
        // A preset lacking a field is a defect of presets/costs/process-nodes.json (test_package_economics.cpp
        // loads every one); say which, not "internal error".
        const auto field = [&](const char* key) {
            const auto f = n->find(key);
            if (f == n->end() || !f->is_number()) {
                throw InputError(path, "process node \"" + v.get<std::string>() + "\" of presets/costs/process-nodes.json has no " + key);
            }
            return f->get<double>();
        };
        w.usd = field("wafer_usd");
        w.defect_density_per_cm2 = field("defect_density_per_cm2");
        nre_usd = n->value("nre_usd", 0.0);
        return w;
    }
    JsonReader r(v, path);
    w.usd = r.number("wafer_usd", 1, 1e7);
    w.defect_density_per_cm2 = r.number("defect_density_per_cm2", 0, 100);
    w.critical_level = r.number_or("critical_level", 0.1, 1000, w.critical_level);
    nre_usd = r.number_or("nre_usd", 0, 1e12, 0);
    r.finish();
    return w;
}

PackageSpec parse_package(const Json& value, const std::string& path) {
    JsonReader r(value, path);
    PackageSpec p;
    p.kind = r.choice_or("kind", kKinds, PackageKind::organic);
    const YieldModel model = r.choice_or("yield_model", kYieldModels, YieldModel::negative_binomial);
    const Json* kind = entry("packaging", "packages", spelling_of(kKindPresets, p.kind));
    const Json* organic = entry("packaging", "packages", "organic");
    if (!kind || !organic) throw std::logic_error("presets/costs/packaging.json lacks a package kind");
    const Wafer wafer = base_wafer(model, r);

    const std::string dies_path = r.path_of("dies");
    const Json& dies = r.value("dies");
    if (!dies.is_array() || dies.empty() || dies.size() > 64) {
        throw InputError(dies_path, "must be an array of 1 to 64 dies, each {\"area_mm2\", \"count\", \"node\"}");
    }
    for (std::size_t i = 0; i < dies.size(); ++i) {
        const std::string dp = dies_path + "[" + std::to_string(i) + "]";
        JsonReader d(dies[i], dp);
        DieSpec die;
        die.name = d.string_or("name", "die " + std::to_string(i));
        die.area_mm2 = d.number("area_mm2", 1, 1e5);
        die.count = d.integer_or("count", 1, 1024, 1);
        double node_nre = 0;
        die.wafer = read_node(d.value("node"), d.path_of("node"), wafer, node_nre);
        die.redundancy = read_redundancy(d);
        // Chiplet Actuary's NRE of a die: 80 % scales with its area (per 300 mm²), 20 % is fixed.
        const double scaled = node_nre * (0.8 * die.area_mm2 / 300 + 0.2);
        die.nre_usd = d.number_or("nre_usd", 0, 1e12, scaled);
        die.volume = d.number_or("volume", 0, 1e12, 0);
        d.finish();
        if (dies_per_wafer(die.area_mm2, die.wafer) < 1) {
            throw InputError(d.path_of("area_mm2"), "is " + format_number(die.area_mm2, 6) + " mm²: not one whole die fits the " +
                                                       format_number(die.wafer.diameter_mm, 4) + " mm wafer");
        }
        p.dies.push_back(die);
    }

    if (const Json* h = r.optional_value("hbm")) {
        JsonReader hr(*h, r.path_of("hbm"));
        p.hbm_stacks = hr.integer("stacks", 0, 64);
        const std::string type = hr.string_or("type", "");
        const Json* preset = type.empty() ? nullptr : entry("packaging", "hbm", type);
        if (!type.empty() && !preset) {
            throw InputError(hr.path_of("type"), "unknown HBM type \"" + type + "\"; known: " + ids("packaging", "hbm"));
        }
        // A preset's price or footprint of 0 means none is public: the block must give it.
        const double usd = preset ? preset->value("usd_per_stack", 0.0) : 0;
        const double area = preset ? preset->value("area_mm2", 0.0) : 0;
        p.hbm_usd_per_stack = usd > 0 ? hr.number_or("usd_per_stack", 0, 1e6, usd) : hr.number("usd_per_stack", 0, 1e6);
        p.hbm_area_mm2 = area > 0 ? hr.number_or("area_mm2", 0, 1e4, area) : hr.number("area_mm2", 0, 1e4);
        hr.finish();
    }

    p.substrate_area_scale = r.number_or("substrate_area_scale", 1, 100, organic->at("area_scale_factor").get<double>());
    p.substrate_usd_per_mm2 = r.number_or("substrate_usd_per_mm2", 0, 100, organic->at("re_cost_usd_per_mm2").get<double>());
    p.substrate_bonding_yield = r.number_or("substrate_bonding_yield", 0.01, 1, organic->at("bonding_yield").get<double>());
    p.c4_bump_usd_per_mm2 = r.number_or("c4_bump_usd_per_mm2", 0, 100, organic->at("bump_cost_usd_per_mm2").get<double>());
    if (p.kind != PackageKind::organic) {
        // A packaging input the preset lacks (bridges: none is public) must come from the block.
        auto input = [&](const char* key, const char* preset_key, double min, double max) {
            return kind->contains(preset_key) ? r.number_or(key, min, max, kind->at(preset_key).get<double>())
                                              : r.number(key, min, max);
        };
        // Fan-out RDL has no micro-bumps of its own in Chiplet Actuary: the Si interposer's.
        const Json* si = entry("packaging", "packages", "si-interposer");
        const double microbump = kind->value("bump_cost_usd_per_mm2", si ? si->value("bump_cost_usd_per_mm2", 0.0) : 0.0);
        p.microbump_usd_per_mm2 = r.number_or("microbump_usd_per_mm2", 0, 100, microbump);
        p.bonding_yield = input("bonding_yield", "bonding_yield", 0.01, 1);
        p.interposer_wafer = wafer;
        p.interposer_wafer.usd = input("interposer_wafer_usd", "wafer_usd", 1, 1e7);
        p.interposer_wafer.defect_density_per_cm2 = input("interposer_defect_density_per_cm2", "defect_density_per_cm2", 0, 100);
        p.interposer_wafer.critical_level = input("interposer_critical_level", "critical_level", 0.1, 1000);
        if (p.kind != PackageKind::bridge) p.interposer_area_scale = input("interposer_area_scale", "area_scale_factor", 1, 100);
    }
    if (p.kind == PackageKind::fan_out) p.chip_first = r.boolean_or("chip_first", false);
    if (p.kind == PackageKind::bridge) {
        int64_t fallback = 0;
        for (const DieSpec& d : p.dies) fallback += d.count;
        fallback += p.hbm_stacks;
        p.bridges = r.integer_or("bridges", 0, 1024, fallback - 1);  // one per neighbouring pair in a row
        p.bridge_area_mm2 = r.number("bridge_area_mm2", 0.1, 1e4);
    }
    p.test_usd = r.number_or("test_usd", 0, 1e6, 0);
    p.volume = r.number_or("volume", 0, 1e12, 0);
    const Json* nre = p.kind == PackageKind::bridge ? organic : kind;  // bridges sit in an organic substrate
    p.package_nre_usd_per_mm2 = r.number_or("package_nre_usd_per_mm2", 0, 1e9, nre->value("nre_cost_usd_per_mm2", 0.0));
    p.package_nre_fixed_usd = r.number_or("package_nre_fixed_usd", 0, 1e12, nre->value("nre_cost_fixed_usd", 0.0));
    r.finish();
    const PackageProblem problem = package_problem(p);
    if (!problem.none()) throw InputError(path.empty() ? problem.field : path + "." + problem.field, problem.message);
    return p;
}

Json to_json(const PackageCost& c) {
    Json dies = Json::array();
    for (const PackageDieReport& d : c.dies) {
        dies.push_back({{"name", d.name},
                        {"count", d.count},
                        {"area_mm2", d.area_mm2},
                        {"dies_per_wafer", d.cost.dies_per_wafer},
                        {"yield", d.cost.yield},
                        {"defect_free_yield", d.cost.defect_free_yield},
                        {"raw_usd", d.cost.raw_usd},
                        {"known_good_usd", d.cost.known_good_usd}});
    }
    return {{"dies", dies},
            {"package_area_mm2", c.package_area_mm2},
            {"interposer_area_mm2", c.interposer_area_mm2},
            {"package_yield", c.package_yield},
            {"raw_dies_usd", c.raw_dies_usd},
            {"die_defects_usd", c.die_defects_usd},
            {"raw_package_usd", c.raw_package_usd},
            {"package_defects_usd", c.package_defects_usd},
            {"wasted_dies_usd", c.wasted_dies_usd},
            {"hbm_usd", c.hbm_usd},
            {"test_usd", c.test_usd},
            {"nre_usd", c.nre_usd},
            {"total_usd", c.total_usd()}};
}

}  // namespace envelope
