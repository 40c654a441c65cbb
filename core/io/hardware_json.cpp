#include "io/scenario_json.hpp"

#include <string>

#include "common/error.hpp"
#include "common/format.hpp"
#include "io/json_reader.hpp"
#include "io/names.hpp"
#include "io/preset_ref.hpp"
#include "io/schema_limits.hpp"

namespace envelope {

using namespace limits;

Chip parse_chip(const Json& value, const std::string& path) {
    const Json doc = resolve_preset(PresetKind::chip, value, path);
    JsonReader r(doc, path);
    Chip c;
    c.name = r.string("name");
    c.source = r.string_or("source", "");
    r.string_or("notes", "");

    JsonReader peaks(r.value("peak_tflops"), r.path_of("peak_tflops"));
    bool any_matrix_peak = false;
    for (Precision p : kAllPrecisions) {
        const std::string key(to_string(p));
        c.peak_tflops[static_cast<std::size_t>(p)] = peaks.optional_number(key.c_str(), kTiny, 1e7);
        if (p != Precision::fp32 && c.peak(p)) any_matrix_peak = true;
    }
    peaks.finish();
    if (!any_matrix_peak) {
        throw InputError(r.path_of("peak_tflops"), "needs at least one matrix peak (bf16, fp16, fp8, ...)");
    }

    c.hbm_gb = r.number("hbm_gb", kTiny, 1e7);
    c.hbm_tb_s = r.number("hbm_tb_s", kTiny, 1e5);
    c.sram_mb = r.number_or("sram_mb", 0, 1e7, 0);
    c.scale_up_gbps = r.number("scale_up_gbps", 0, 1e7);
    c.scale_up_latency_us = r.number("scale_up_latency_us", 0, 1e6);
    c.scale_out_gbps = r.number_or("scale_out_gbps", 0, 1e7, 0);
    c.tdp_w = r.number_or("tdp_w", 0, 1e6, 0);

    JsonReader eff(r.value("efficiency"), r.path_of("efficiency"));
    eff.string_or("source", "");
    JsonReader matrix(eff.value("matrix"), eff.path_of("matrix"));
    c.matrix_efficiency_default = matrix.number("default", kTiny, 1);
    for (Precision p : kAllPrecisions) {
        const std::string key(to_string(p));
        c.matrix_efficiency[static_cast<std::size_t>(p)] = matrix.optional_number(key.c_str(), kTiny, 1);
    }
    matrix.finish();
    c.memory_efficiency = eff.number("memory", kTiny, 1);
    c.scale_up_efficiency = eff.number("scale_up", kTiny, 1);
    eff.finish();
    r.finish();
    return c;
}

namespace {

NetworkLevel parse_level(const Json& value, const std::string& path, std::size_t index) {
    JsonReader r(value, path);
    NetworkLevel l;
    l.name = r.string_or("name", "level " + std::to_string(index));
    l.size = r.integer("size", 1, kMaxChips);
    l.topology = r.choice("topology", {"switch", "ring"}) == 1 ? Topology::ring : Topology::switch_;
    l.bandwidth_gbps = r.number("bandwidth_gbps", kTiny, 1e7);
    l.latency_us = r.number("latency_us", 0, 1e6);
    l.efficiency = r.number("efficiency", kTiny, 1);
    r.finish();
    return l;
}

// Default network when a system of several chips gives none: one scale-up level joining
// all its chips, with the chip's scale-up bandwidth, latency and efficiency. A single
// chip needs no network (an empty list).
Network default_network(const Chip& chip, int64_t count) {
    NetworkLevel l;
    l.name = "scale-up";
    l.size = count;
    l.topology = Topology::switch_;
    l.bandwidth_gbps = chip.scale_up_gbps;
    l.latency_us = chip.scale_up_latency_us;
    l.efficiency = chip.scale_up_efficiency;
    return Network{{l}};
}

}  // namespace

System parse_system(const Json& value, const std::string& path) {
    const Json doc = resolve_preset(PresetKind::system, value, path);
    JsonReader r(doc, path);
    System s;
    s.name = r.string_or("name", "");
    s.source = r.string_or("source", "");
    r.string_or("notes", "");
    s.chip = parse_chip(r.value("chip"), r.path_of("chip"));
    s.count = r.integer("count", 1, kMaxChips);
    if (const Json* net = r.optional_value("network")) {
        const std::string net_path = r.path_of("network");
        if (!net->is_array()) {
            throw InputError(net_path, std::string("must be an array of levels, innermost first, got ") +
                                           json_type_name(*net));
        }
        if (net->empty() && s.count > 1) {
            throw InputError(net_path, "needs at least one level to join system.count = " +
                                           std::to_string(s.count) + " chips");
        }
        double joined = 1;
        for (std::size_t i = 0; i < net->size(); ++i) {
            s.network.levels.push_back(
                parse_level((*net)[i], net_path + "[" + std::to_string(i) + "]", i));
            joined *= static_cast<double>(s.network.levels.back().size);
        }
        if (joined < static_cast<double>(s.count)) {
            throw InputError(net_path, "levels join " + format_number(joined, 15) +
                                           " chips, fewer than system.count = " + std::to_string(s.count));
        }
    } else if (s.count > 1) {
        if (s.chip.scale_up_gbps <= 0) {
            throw InputError(r.path_of("network"),
                             "is required: chip " + s.chip.name + " has no scale_up_gbps to default to");
        }
        s.network = default_network(s.chip, s.count);
    }
    r.finish();
    return s;
}

// ---- writing ----

Json to_json(const Chip& c) {
    Json peaks = Json::object();
    Json matrix = {{"default", c.matrix_efficiency_default}};
    for (Precision p : kAllPrecisions) {
        const std::string key(to_string(p));
        if (auto v = c.peak(p)) peaks[key] = *v;
        if (auto e = c.matrix_efficiency[static_cast<std::size_t>(p)]) matrix[key] = *e;
    }
    return Json{{"name", c.name},
                {"source", c.source},
                {"peak_tflops", peaks},
                {"hbm_gb", c.hbm_gb},
                {"hbm_tb_s", c.hbm_tb_s},
                {"sram_mb", c.sram_mb},
                {"scale_up_gbps", c.scale_up_gbps},
                {"scale_up_latency_us", c.scale_up_latency_us},
                {"scale_out_gbps", c.scale_out_gbps},
                {"tdp_w", c.tdp_w},
                {"efficiency",
                 {{"matrix", matrix}, {"memory", c.memory_efficiency}, {"scale_up", c.scale_up_efficiency}}}};
}

Json to_json(const System& s) {
    Json levels = Json::array();
    for (const NetworkLevel& l : s.network.levels) {
        levels.push_back({{"name", l.name},
                          {"size", l.size},
                          {"topology", to_string(l.topology)},
                          {"bandwidth_gbps", l.bandwidth_gbps},
                          {"latency_us", l.latency_us},
                          {"efficiency", l.efficiency}});
    }
    return Json{{"name", s.name},
                {"source", s.source},
                {"chip", to_json(s.chip)},
                {"count", s.count},
                {"network", levels}};
}

}  // namespace envelope
