#include "io/scenario_json.hpp"

#include <cmath>
#include <string>

#include "common/error.hpp"
#include "common/format.hpp"
#include "io/fabric_json.hpp"
#include "io/json_reader.hpp"
#include "io/names.hpp"
#include "io/preset_ref.hpp"
#include "io/schema_limits.hpp"
#include "presets/registry.hpp"

namespace envelope {

using namespace limits;

namespace {

Topology read_topology(const Json& v, const std::string& path) { return read_spelling(v, path, kTopologyNames); }

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
    for (Precision p : kMatrixFormats) {
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
    c.reference_system = r.string_or("reference_system", "");
    c.tdp_w = r.number_or("tdp_w", 0, 1e6, 0);

    JsonReader eff(r.value("efficiency"), r.path_of("efficiency"));
    eff.string_or("source", "");
    // false: every efficiency is borrowed from a sibling chip or assumed, none measured on this one.
    eff.boolean_or("measured", true);
    JsonReader matrix(eff.value("matrix"), eff.path_of("matrix"));
    c.matrix_efficiency_default = matrix.number("default", kTiny, 1);
    for (Precision p : kMatrixFormats) {
        const std::string key(to_string(p));
        c.matrix_efficiency[static_cast<std::size_t>(p)] = matrix.optional_number(key.c_str(), kTiny, 1);
    }
    matrix.finish();
    c.memory_efficiency = eff.number("memory", kTiny, 1);
    c.attention_efficiency = eff.number_or("attention", 0, 1, 0);
    c.attention_backward_efficiency = eff.number_or("attention_backward", 0, 1, 0);
    c.attention_half_keys = eff.number_or("attention_half_keys", 0, 1e6, 0);
    c.attention_backward_half_keys = eff.number_or("attention_backward_half_keys", 0, 1e6, 0);
    if (const Json* sv = eff.optional_value("sustained")) {
        JsonReader sr(*sv, eff.path_of("sustained"));
        c.sustained_compute = sr.number("value", 0.3, 1);
        sr.string_or("unit", "");
        sr.string_or("source", "");
        sr.string_or("fit", "");
        sr.finish();
    }
    eff.finish();

    if (const Json* e = r.optional_value("economics")) {
        JsonReader er(*e, r.path_of("economics"));
        c.economics.price_usd = er.number_or("price_usd", 0, 1e9, 0);
        c.economics.idle_w = er.number_or("idle_w", 0, 1e6, 0);
        c.economics.cloud_usd_per_hour = er.number_or("cloud_usd_per_hour", 0, 1e6, 0);
        c.economics.source = er.string_or("source", "");
        er.finish();
        if (c.tdp_w > 0 && c.economics.idle_w > c.tdp_w) {
            throw InputError(er.path_of("idle_w"), "must not exceed tdp_w = " + format_number(c.tdp_w, 6) + " W");
        }
    }
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

std::vector<int64_t> read_dims(JsonReader& r, int64_t size) {
    const std::string path = r.path_of("dims");
    const Json& v = r.value("dims");
    if (!v.is_array() || v.empty() || v.size() > 3) {
        throw InputError(path, "must be the torus shape, an array of 1 to 3 sizes whose product is size");
    }
    std::vector<int64_t> dims;
    double product = 1;
    for (std::size_t i = 0; i < v.size(); ++i) {
        dims.push_back(read_integer(v[i], path + "[" + std::to_string(i) + "]", 1, kMaxChips));
        product *= static_cast<double>(dims.back());
    }
    if (product != static_cast<double>(size)) {
        throw InputError(path, "multiplies to " + format_number(product, 15) + ", not size = " + std::to_string(size));
    }
    return dims;
}

NetworkLevel parse_level(const Json& given, const std::string& path, std::size_t index) {
    const Json value = with_fabric(given, path);  // "fabric": the transport's defaults (io/fabric_json.hpp)
    JsonReader r(value, path);
    NetworkLevel l;
    l.name = r.string_or("name", "level " + std::to_string(index));
    l.source = r.string_or("source", "");
    r.string_or("notes", "");
    if (r.has("bandwidth_gbps")) {
        throw InputError(r.path_of("bandwidth_gbps"),
                         "is replaced by links_per_chip and link_gbps (per link, one direction, GB/s)");
    }
    l.size = r.integer("size", 1, kMaxChips);
    l.topology = read_topology(r.value("topology"), r.path_of("topology"));
    if (l.topology == Topology::torus) {
        l.dims = read_dims(r, l.size);
    } else if (r.has("dims")) {
        throw InputError(r.path_of("dims"), "only a torus has dims");
    }
    l.links_per_chip = r.integer("links_per_chip", 1, 1'000'000);
    l.link_gbps = r.number("link_gbps", kTiny, 1e7);
    l.latency_us = r.number("latency_us", 0, 1e6);
    l.call_latency_us = r.number_or("call_latency_us", 0, 1e6, 0);
    l.efficiency = r.number("efficiency", kTiny, 1);
    l.ll_bandwidth_gbps = r.number_or("ll_bandwidth_gbps", 0, 1e7, 0);
    if (r.has("oversubscription") && !switched(l.topology)) {
        throw InputError(r.path_of("oversubscription"), "applies to topology \"fat_tree\" or \"dragonfly\" only");
    }
    l.oversubscription = r.number_or("oversubscription", 1, 1e6, 1);
    if (const Json* inr = r.optional_value("in_network_reduction")) {
        const std::string ip = r.path_of("in_network_reduction");
        if (l.topology != Topology::switch_ && l.topology != Topology::fat_tree) {
            throw InputError(ip, "needs topology \"switch\" or \"fat_tree\" (NVLS, SHARP reduce in a switch)");
        }
        JsonReader ir(*inr, ip);
        l.in_network_reduction.efficiency = ir.number("efficiency", kTiny, 1);
        l.in_network_reduction.latency_us = ir.number("latency_us", 0, 1e6);
        l.in_network_reduction.min_chips = ir.integer_or("min_chips", 2, kMaxChips, 2);
        ir.finish();
    }
    if (const Json* e = r.optional_value("economics")) {
        JsonReader er(*e, r.path_of("economics"));
        l.usd_per_chip = er.number_or("usd_per_chip", 0, 1e9, 0);
        l.w_per_chip = er.number_or("w_per_chip", 0, 1e6, 0);
        l.economics_source = er.string_or("source", "");
        er.finish();
    }
    r.finish();
    return l;
}

Network parse_network(const Json& net, const std::string& path) {
    if (!net.is_array()) {
        throw InputError(path, std::string("must be an array of levels, innermost first, got ") + json_type_name(net));
    }
    if (net.size() > 16) throw InputError(path, "has more than 16 levels");
    Network out;
    for (std::size_t i = 0; i < net.size(); ++i) {
        out.levels.push_back(parse_level(net[i], path + "[" + std::to_string(i) + "]", i));
    }
    return out;
}

// A system that names only a chip and a count gets the network of the chip's reference
// system (an 8-GPU node and its scale-out fabric, a TPU pod's torus).
Network reference_network(const Chip& chip, const std::string& path) {
    if (chip.reference_system.empty()) {
        throw InputError(path, "is required: chip " + chip.name + " names no reference_system to take it from");
    }
    const Json* preset = find_preset(PresetKind::system, chip.reference_system);
    if (!preset || !preset->contains("network")) {
        throw InputError(path, "is required: chip " + chip.name + "'s reference_system \"" + chip.reference_system +
                                   "\" is not a system preset with a network");
    }
    return parse_network((*preset)["network"], path);
}

SystemEconomics parse_system_economics(const Json& value, const std::string& path) {
    JsonReader r(value, path);
    SystemEconomics e;
    e.usd_per_chip = r.number_or("usd_per_chip", 0, 1e9, 0);
    e.w_per_chip = r.number_or("w_per_chip", 0, 1e6, 0);
    e.source = r.string_or("source", "");
    r.finish();
    return e;
}

HostResources parse_host(const Json& value, const std::string& path) {
    JsonReader r(value, path);
    HostResources h;
    h.link_gbps = r.number_or("link_gbps", 0, 1e5, 0);
    h.memory_gb = r.number_or("memory_gb", 0, 1e7, 0);
    h.memory_gbps = r.number_or("memory_gbps", 0, 1e5, 0);
    h.nvme_gbps = r.number_or("nvme_gbps", 0, 1e5, 0);
    h.source = r.string_or("source", "");
    r.finish();
    return h;
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
    const std::string net_path = r.path_of("network");
    if (const Json* net = r.optional_value("network")) {
        s.network = parse_network(*net, net_path);
    } else if (s.count > 1) {
        s.network = reference_network(s.chip, net_path);
    }
    if (const Json* host = r.optional_value("host")) {
        s.host = parse_host(*host, r.path_of("host"));
    } else if (!s.chip.reference_system.empty()) {
        // Like the network, the host of the chip's reference system (a DGX node's CPUs).
        const Json* preset = find_preset(PresetKind::system, s.chip.reference_system);
        if (preset && preset->contains("host")) s.host = parse_host((*preset)["host"], r.path_of("host"));
    }
    if (const Json* e = r.optional_value("economics")) {
        s.economics = parse_system_economics(*e, r.path_of("economics"));
    } else if (!s.chip.reference_system.empty()) {
        // Like the host: the chip's reference system's (a DGX node's hosts and switches).
        const Json* preset = find_preset(PresetKind::system, s.chip.reference_system);
        if (preset && preset->contains("economics")) {
            s.economics = parse_system_economics((*preset)["economics"], r.path_of("economics"));
        }
    }
    s.network_note = grow_fabric(s.network, s.count);
    if (s.network.chips() < static_cast<double>(s.count)) {
        throw InputError(r.has("network") ? net_path : r.path_of("count"),
                         "the network's levels join " + format_number(s.network.chips(), 15) +
                             " chips, fewer than system.count = " + std::to_string(s.count) +
                             " (raise the size of the outermost level)");
    }
    r.finish();
    return s;
}

// ---- writing ----

Json to_json(const Chip& c) {
    Json peaks = Json::object();
    Json matrix = {{"default", c.matrix_efficiency_default}};
    for (Precision p : kMatrixFormats) {
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
                {"reference_system", c.reference_system},
                {"tdp_w", c.tdp_w},
                {"economics",
                 {{"price_usd", c.economics.price_usd},
                  {"idle_w", c.economics.idle_w},
                  {"cloud_usd_per_hour", c.economics.cloud_usd_per_hour},
                  {"source", c.economics.source}}},
                {"efficiency",
                 {{"matrix", matrix},
                  {"memory", c.memory_efficiency},
                  {"attention", c.attention_efficiency},
                  {"attention_backward", c.attention_backward_efficiency},
                  {"attention_half_keys", c.attention_half_keys},
                  {"sustained", {{"value", c.sustained_compute}}},
                  {"attention_backward_half_keys", c.attention_backward_half_keys}}},
                {"kernels",
                 {{"compute_units", c.compute_units},
                  {"gemm_tile_m", c.gemm_tile_m},
                  {"gemm_tile_n", c.gemm_tile_n},
                  {"gemm_k_overhead", c.gemm_k_overhead},
                  {"gemm_overhead_us", c.gemm_overhead_us},
                  {"kernel_overhead_us", c.kernel_overhead_us},
                  {"gemm_memory_efficiency", c.gemm_memory_efficiency}}}};
}

Json to_json(const NetworkLevel& l) {
    Json j = Json::object();
    j["name"] = l.name;
    if (!l.source.empty()) j["source"] = l.source;
    j["size"] = l.size;
    j["topology"] = to_string(l.topology);
    if (l.topology == Topology::torus) j["dims"] = l.dims;
    j["links_per_chip"] = l.links_per_chip;
    j["link_gbps"] = l.link_gbps;
    j["latency_us"] = l.latency_us;
    j["call_latency_us"] = l.call_latency_us;
    j["efficiency"] = l.efficiency;
    if (l.ll_bandwidth_gbps > 0) j["ll_bandwidth_gbps"] = l.ll_bandwidth_gbps;
    if (switched(l.topology)) j["oversubscription"] = l.oversubscription;
    if (l.in_network_reduction.efficiency > 0) {
        j["in_network_reduction"] = {{"efficiency", l.in_network_reduction.efficiency},
                                     {"latency_us", l.in_network_reduction.latency_us},
                                     {"min_chips", l.in_network_reduction.min_chips}};
    }
    if (l.usd_per_chip > 0 || l.w_per_chip > 0) {
        j["economics"] = {{"usd_per_chip", l.usd_per_chip}, {"w_per_chip", l.w_per_chip}, {"source", l.economics_source}};
    }
    return j;
}

Json to_json(const System& s) {
    Json levels = Json::array();
    for (const NetworkLevel& l : s.network.levels) levels.push_back(to_json(l));
    Json j{{"name", s.name}, {"source", s.source}, {"chip", to_json(s.chip)}, {"count", s.count}, {"network", levels}};
    const HostResources& h = s.host;
    if (h.link_gbps > 0 || h.memory_gb > 0 || h.memory_gbps > 0 || h.nvme_gbps > 0) {
        j["host"] = {{"link_gbps", h.link_gbps},
                     {"memory_gb", h.memory_gb},
                     {"memory_gbps", h.memory_gbps},
                     {"nvme_gbps", h.nvme_gbps},
                     {"source", h.source}};
    }
    const SystemEconomics& e = s.economics;
    if (e.usd_per_chip > 0 || e.w_per_chip > 0) {
        j["economics"] = {{"usd_per_chip", e.usd_per_chip}, {"w_per_chip", e.w_per_chip}, {"source", e.source}};
    }
    return j;
}

}  // namespace envelope
