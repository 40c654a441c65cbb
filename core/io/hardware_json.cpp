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

namespace {

constexpr const char* kTopologies[] = {"switch", "ring", "fully_connected"};
constexpr Topology kTopologyValues[] = {Topology::switch_, Topology::ring, Topology::fully_connected};

Topology read_topology(const Json& v, const std::string& path) {
    return kTopologyValues[read_choice(v, path, {std::begin(kTopologies), std::end(kTopologies)})];
}

}  // namespace

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
    c.scale_up_name = r.string_or("scale_up_name", "scale-up");
    c.scale_up_gbps = r.number("scale_up_gbps", 0, 1e7);
    c.scale_up_latency_us = r.number("scale_up_latency_us", 0, 1e6);
    c.scale_up_call_latency_us = r.number_or("scale_up_call_latency_us", 0, 1e6, 0);
    c.in_network_reduction_latency_us = r.number_or("in_network_reduction_latency_us", 0, 1e6, 0);
    c.in_network_reduction_min_chips = r.integer_or("in_network_reduction_min_chips", 2, kMaxChips, 2);
    if (r.has("scale_up_topology")) {
        c.scale_up_topology = read_topology(r.value("scale_up_topology"), r.path_of("scale_up_topology"));
    }
    c.scale_up_size = r.integer_or("scale_up_size", 0, kMaxChips, 0);
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
    c.attention_efficiency = eff.number_or("attention", 0, 1, 0);
    c.in_network_reduction_efficiency = eff.number_or("in_network_reduction", 0, 1, 0);
    if (c.in_network_reduction_efficiency > 0 && c.scale_up_topology != Topology::switch_) {
        throw InputError(eff.path_of("in_network_reduction"), "needs scale_up_topology \"switch\"");
    }
    eff.finish();

    if (const Json* k = r.optional_value("kernels")) {
        JsonReader kr(*k, r.path_of("kernels"));
        kr.string_or("source", "");
        c.compute_units = kr.integer_or("compute_units", 0, 1'000'000, 0);
        c.gemm_tile_m = kr.integer_or("gemm_tile_m", 0, 65'536, 0);
        c.gemm_tile_n = kr.integer_or("gemm_tile_n", 0, 65'536, 0);
        c.gemm_k_overhead = kr.number_or("gemm_k_overhead", 0, 1e6, 0);
        c.gemm_overhead_us = kr.number_or("gemm_overhead_us", 0, 1e6, 0);
        c.kernel_overhead_us = kr.number_or("kernel_overhead_us", 0, 1e6, 0);
        c.gemm_memory_efficiency = kr.number_or("gemm_memory_efficiency", 0, 1, 0);
        kr.finish();
    }
    r.finish();
    return c;
}

namespace {

NetworkLevel parse_level(const Json& value, const std::string& path, std::size_t index) {
    JsonReader r(value, path);
    NetworkLevel l;
    l.name = r.string_or("name", "level " + std::to_string(index));
    l.size = r.integer("size", 1, kMaxChips);
    l.topology = read_topology(r.value("topology"), r.path_of("topology"));
    l.bandwidth_gbps = r.number("bandwidth_gbps", kTiny, 1e7);
    l.latency_us = r.number("latency_us", 0, 1e6);
    l.efficiency = r.number("efficiency", kTiny, 1);
    l.call_latency_us = r.number_or("call_latency_us", 0, 1e6, 0);
    l.in_network_reduction_efficiency = r.number_or("in_network_reduction_efficiency", 0, 1, 0);
    l.in_network_reduction_latency_us = r.number_or("in_network_reduction_latency_us", 0, 1e6, 0);
    l.in_network_reduction_min_chips = r.integer_or("in_network_reduction_min_chips", 2, kMaxChips, 2);
    if (l.in_network_reduction_efficiency > 0 && l.topology != Topology::switch_) {
        throw InputError(r.path_of("in_network_reduction_efficiency"), "needs topology \"switch\"");
    }
    r.finish();
    return l;
}

// Default network when a system of several chips gives none: one scale-up level joining
// all its chips, with the chip's scale-up bandwidth, latency and efficiency. A single
// chip needs no network (an empty list).
Network default_network(const Chip& chip, int64_t count) {
    NetworkLevel l;
    l.name = chip.scale_up_name;
    l.size = chip.scale_up_size > 0 ? chip.scale_up_size : count;
    l.topology = chip.scale_up_topology;
    l.bandwidth_gbps = chip.scale_up_gbps;
    l.latency_us = chip.scale_up_latency_us;
    l.efficiency = chip.scale_up_efficiency;
    l.call_latency_us = chip.scale_up_call_latency_us;
    l.in_network_reduction_efficiency = chip.in_network_reduction_efficiency;
    l.in_network_reduction_latency_us = chip.in_network_reduction_latency_us;
    l.in_network_reduction_min_chips = chip.in_network_reduction_min_chips;
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
        if (s.chip.scale_up_size > 0 && s.count > s.chip.scale_up_size) {
            throw InputError(r.path_of("count"),
                             std::to_string(s.count) + " chips exceed the " + std::to_string(s.chip.scale_up_size) +
                                 "-chip scale-up domain of " + s.chip.name +
                                 "; systems of several domains need system.network with one level per tier");
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
                {"scale_up_name", c.scale_up_name},
                {"scale_up_gbps", c.scale_up_gbps},
                {"scale_up_latency_us", c.scale_up_latency_us},
                {"scale_up_call_latency_us", c.scale_up_call_latency_us},
                {"in_network_reduction_latency_us", c.in_network_reduction_latency_us},
                {"in_network_reduction_min_chips", c.in_network_reduction_min_chips},
                {"scale_up_topology", to_string(c.scale_up_topology)},
                {"scale_up_size", c.scale_up_size},
                {"scale_out_gbps", c.scale_out_gbps},
                {"tdp_w", c.tdp_w},
                {"efficiency",
                 {{"matrix", matrix},
                  {"memory", c.memory_efficiency},
                  {"scale_up", c.scale_up_efficiency},
                  {"attention", c.attention_efficiency},
                  {"in_network_reduction", c.in_network_reduction_efficiency}}},
                {"kernels",
                 {{"compute_units", c.compute_units},
                  {"gemm_tile_m", c.gemm_tile_m},
                  {"gemm_tile_n", c.gemm_tile_n},
                  {"gemm_k_overhead", c.gemm_k_overhead},
                  {"gemm_overhead_us", c.gemm_overhead_us},
                  {"kernel_overhead_us", c.kernel_overhead_us},
                  {"gemm_memory_efficiency", c.gemm_memory_efficiency}}}};
}

Json to_json(const System& s) {
    Json levels = Json::array();
    for (const NetworkLevel& l : s.network.levels) {
        levels.push_back({{"name", l.name},
                          {"size", l.size},
                          {"topology", to_string(l.topology)},
                          {"bandwidth_gbps", l.bandwidth_gbps},
                          {"latency_us", l.latency_us},
                          {"efficiency", l.efficiency},
                          {"call_latency_us", l.call_latency_us},
                          {"in_network_reduction_efficiency", l.in_network_reduction_efficiency},
                          {"in_network_reduction_latency_us", l.in_network_reduction_latency_us},
                          {"in_network_reduction_min_chips", l.in_network_reduction_min_chips}});
    }
    return Json{{"name", s.name},
                {"source", s.source},
                {"chip", to_json(s.chip)},
                {"count", s.count},
                {"network", levels}};
}

}  // namespace envelope
