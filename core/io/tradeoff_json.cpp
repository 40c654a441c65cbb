#include "io/tradeoff_json.hpp"

#include <set>
#include <string>

#include "common/error.hpp"
#include "explore/trade_off.hpp"
#include "evaluate.hpp"
#include "io/cost_json.hpp"
#include "io/json_reader.hpp"
#include "io/names.hpp"
#include "io/scenario_json.hpp"
#include "io/schema_limits.hpp"
#include "version.hpp"

namespace envelope {

namespace {

constexpr std::size_t kMaxValuesPerKnob = 64;

KnobValue read_value(const Json& v, const std::string& path, Knob knob, const Scenario& s) {
    KnobValue out;
    switch (knob) {
        case Knob::hbm_stacks: out.number = static_cast<double>(read_integer(v, path, 1, 64)); break;
        case Knob::chiplets: out.number = static_cast<double>(read_integer(v, path, 1, 64)); break;
        case Knob::chips_per_system: out.number = static_cast<double>(read_integer(v, path, 1, limits::kMaxChips)); break;
        case Knob::die_area_mm2: out.number = read_number(v, path, 1, 1e5); break;
        case Knob::scale_up_gbps: out.number = read_number(v, path, 1e-3, 1e7); break;
        case Knob::process_node: {
            if (!v.is_string()) throw InputError(path, "must be a process node id of presets/costs/process-nodes.json");
            out.label = v.get<std::string>();
            out.wafer = read_node(v, path, s.cost.package->dies.front().wafer, out.node_nre_usd);
            break;
        }
    }
    return out;
}

Json optional(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

Json point_json(const TradeOffPoint& p, const std::vector<KnobAxis>& axes, bool training) {
    Json setting = Json::object();
    for (std::size_t a = 0; a < axes.size(); ++a) {
        const char* name = spelling_of(kKnobNames, axes[a].knob);
        setting[name] = axes[a].knob == Knob::process_node ? Json(p.setting[a]) : Json(p.values[a]);
    }
    Json j = {{"setting", setting}, {"ok", p.error.empty()}};
    if (!p.error.empty()) {
        j["error"] = {{"path", p.error_path}, {"message", p.error}};
        return j;
    }
    j["fits"] = p.fits;
    j["pareto"] = p.pareto;
    j["package_usd"] = optional(p.package_usd);
    j["usd_per_chip_hour"] = optional(p.usd_per_chip_hour);
    if (training) {
        j["step_time_s"] = p.step_time_s;
        j["usd_per_step"] = optional(p.usd_per_step);
        j["usd_total"] = optional(p.usd_total);
    } else {
        j["output_tokens_per_s"] = p.output_tokens_per_s;
        j["output_tokens_per_s_per_chip"] = p.output_tokens_per_s_per_chip;
        j["ttft_s"] = p.ttft_s;
        j["tpot_s"] = optional(p.tpot_s);
        j["usd_per_m_output_tokens"] = optional(p.usd_per_m_output_tokens);
        j["joules_per_output_token"] = optional(p.joules_per_output_token);
    }
    return j;
}

}  // namespace

Json tradeoff_document(const Json& request) {
    JsonReader r(request, "");
    Scenario s;
    try {
        s = parse_scenario(r.value("scenario"));
        check_scenario(s);
    } catch (const InputError& e) {
        throw InputError(e.path().empty() ? "scenario" : "scenario." + e.path(), e.what());
    }
    const Json& knobs = r.value("knobs");
    if (!knobs.is_array() || knobs.empty() || knobs.size() > 2) {
        throw InputError("knobs", "must be an array of one or two {\"knob\", \"values\"}");
    }
    std::vector<KnobAxis> axes;
    std::set<int> seen;
    std::size_t points = 1;
    for (std::size_t i = 0; i < knobs.size(); ++i) {
        const std::string path = "knobs[" + std::to_string(i) + "]";
        JsonReader k(knobs[i], path);
        KnobAxis axis;
        axis.knob = k.choice("knob", kKnobNames);
        if (!seen.insert(static_cast<int>(axis.knob)).second) throw InputError(k.path_of("knob"), "is given twice");
        if (knob_needs_package(axis.knob) && !s.cost.package) {
            throw InputError(k.path_of("knob"), "needs the accelerator's package: give scenario.cost.package");
        }
        if (axis.knob == Knob::hbm_stacks && s.cost.package->hbm_stacks == 0) {
            throw InputError(k.path_of("knob"), "needs the package's HBM stacks: give scenario.cost.package.hbm");
        }
        if ((axis.knob == Knob::scale_up_gbps || axis.knob == Knob::chips_per_system) && s.system.network.levels.empty()) {
            throw InputError(k.path_of("knob"), "needs a system network");
        }
        const Json& values = k.value("values");
        if (!values.is_array() || values.empty() || values.size() > kMaxValuesPerKnob) {
            throw InputError(k.path_of("values"), "must be an array of 1 to " + std::to_string(kMaxValuesPerKnob) + " values");
        }
        for (std::size_t v = 0; v < values.size(); ++v) {
            axis.values.push_back(read_value(values[v], k.path_of("values") + "[" + std::to_string(v) + "]", axis.knob, s));
        }
        k.finish();
        points *= axis.values.size();
        axes.push_back(std::move(axis));
    }
    if (points > kMaxTradeOffPoints) {
        throw InputError("knobs", "make " + std::to_string(points) + " points; at most " + std::to_string(kMaxTradeOffPoints));
    }
    r.finish();

    const TradeOff t = trade_off(s, axes);
    Json names = Json::array(), list = Json::array();
    for (const KnobAxis& a : axes) names.push_back(spelling_of(kKnobNames, a.knob));
    for (const TradeOffPoint& p : t.points) list.push_back(point_json(p, axes, t.training));
    return {{"ok", true},
            {"version", kVersion},
            {"workload", to_string(t.training ? WorkloadKind::training : WorkloadKind::inference)},
            {"knobs", names},
            {"base_package_usd", optional(t.base_package_usd)},
            {"points", list}};
}

Json package_cost_document(const Json& package) {
    Json out = to_json(package_cost(parse_package(package, "")));
    out["ok"] = true;
    out["version"] = kVersion;
    return out;
}

}  // namespace envelope
