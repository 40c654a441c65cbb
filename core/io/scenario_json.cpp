#include "io/scenario_json.hpp"

#include <string>

#include "common/error.hpp"
#include "common/format.hpp"
#include "inference/check.hpp"
#include "io/json_reader.hpp"
#include "io/names.hpp"
#include "presets/registry.hpp"

namespace envelope {

namespace {

// Allowed ranges. Wide enough for any real or hypothetical design, narrow enough that
// products of them stay finite in doubles.
constexpr int64_t kMaxLayers = 1000;
constexpr int64_t kMaxWidth = 10'000'000;      // hidden, ffn, head_dim
constexpr int64_t kMaxHeads = 100'000;
constexpr int64_t kMaxVocab = 100'000'000;
constexpr int64_t kMaxTokens = 100'000'000;    // input, output, max_seq_len
constexpr int64_t kMaxBatch = 10'000'000;
constexpr int64_t kMaxChips = 10'000'000;
constexpr double kTiny = 1e-9;                 // lower bound for "must be positive" reals

std::string join_keys(PresetKind kind) {
    std::string out;
    for (const auto& k : preset_keys(kind)) out += (out.empty() ? "" : ", ") + k;
    return out;
}

const Json& preset_or_throw(PresetKind kind, const std::string& key, const std::string& path) {
    const Json* p = find_preset(kind, key);
    if (!p) {
        std::string singular = preset_folder(kind);
        singular.pop_back();
        throw InputError(path, "unknown " + singular + " preset \"" + key + "\" (available: " +
                                   join_keys(kind) + ")");
    }
    return *p;
}

// A presettable value: "key", {...inline...} or {"preset": "key", ...overrides...}.
// Overrides apply as a JSON Merge Patch (RFC 7386): nested objects merge field by
// field ({"efficiency": {"memory": 0.8}} keeps the preset's matrix efficiencies),
// anything else replaces, null removes.
Json resolve(PresetKind kind, const Json& value, const std::string& path) {
    if (value.is_string()) return preset_or_throw(kind, value.get<std::string>(), path);
    if (!value.is_object()) {
        throw InputError(path, std::string("must be a preset name or an object, got ") +
                                   json_type_name(value));
    }
    const auto it = value.find("preset");
    if (it == value.end()) return value;
    if (!it->is_string()) {
        throw InputError(path + ".preset", std::string("must be a string, got ") + json_type_name(*it));
    }
    Json merged = preset_or_throw(kind, it->get<std::string>(), path + ".preset");
    Json patch = value;
    patch.erase("preset");
    merged.merge_patch(patch);
    return merged;
}

Precision read_precision(const Json& v, const std::string& path) {
    std::vector<std::string> names;
    for (Precision p : kAllPrecisions) names.emplace_back(to_string(p));
    return kAllPrecisions[read_choice(v, path, names)];
}

}  // namespace

Model parse_model(const Json& value, const std::string& path) {
    const Json doc = resolve(PresetKind::model, value, path);
    JsonReader r(doc, path);
    Model m;
    m.name = r.string("name");
    m.source = r.string_or("source", "");
    r.string_or("notes", "");
    m.layers = r.integer("layers", 1, kMaxLayers);
    m.hidden = r.integer("hidden", 1, kMaxWidth);
    m.heads = r.integer("heads", 1, kMaxHeads);
    m.kv_heads = r.integer("kv_heads", 1, m.heads);
    if (m.heads % m.kv_heads != 0) {
        throw InputError(r.path_of("kv_heads"), "must divide heads = " + std::to_string(m.heads) +
                                                    " (each KV head serves heads / kv_heads query heads)");
    }
    m.head_dim = r.integer("head_dim", 1, kMaxWidth);
    m.ffn = r.integer("ffn", 1, kMaxWidth);
    m.gated_ffn = r.boolean("gated_ffn");
    m.vocab = r.integer("vocab", 1, kMaxVocab);
    m.tied_embeddings = r.boolean_or("tied_embeddings", false);
    m.norm = r.choice_or("norm", {"rmsnorm", "layernorm"}, 0) == 1 ? NormKind::layernorm
                                                                    : NormKind::rmsnorm;
    m.linear_bias = r.boolean_or("linear_bias", false);
    m.max_seq_len = r.integer_or("max_seq_len", 0, kMaxTokens, 0);
    r.finish();
    return m;
}

Chip parse_chip(const Json& value, const std::string& path) {
    const Json doc = resolve(PresetKind::chip, value, path);
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
    const Json doc = resolve(PresetKind::system, value, path);
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

InferenceWorkload parse_workload(const Json& value, const std::string& path) {
    JsonReader r(value, path);
    InferenceWorkload w;
    r.choice_or("kind", {"inference"}, 0);
    w.batch = r.integer("batch", 1, kMaxBatch);
    w.input_tokens = r.integer("input_tokens", 1, kMaxTokens);
    w.output_tokens = r.integer("output_tokens", 1, kMaxTokens);

    if (const Json* par = r.optional_value("parallelism")) {
        JsonReader pr(*par, r.path_of("parallelism"));
        w.parallelism.tp = pr.integer_or("tp", 1, kMaxHeads, 1);
        pr.finish();
    }

    const Json& prec = r.value("precision");
    if (prec.is_string()) {
        // Shorthand: one format for weights, KV cache and activations.
        w.precision.weights = read_precision(prec, r.path_of("precision"));
        w.precision.kv_cache = w.precision.activations = w.precision.weights;
    } else {
        JsonReader pr(prec, r.path_of("precision"));
        w.precision.weights = read_precision(pr.value("weights"), pr.path_of("weights"));
        w.precision.kv_cache = read_precision(pr.value("kv_cache"), pr.path_of("kv_cache"));
        w.precision.activations = read_precision(pr.value("activations"), pr.path_of("activations"));
        pr.finish();
    }
    w.flash_attention = r.boolean_or("flash_attention", true);
    r.finish();
    return w;
}

Scenario parse_scenario(const Json& doc) {
    JsonReader r(doc, "");
    Scenario s;
    s.name = r.string_or("name", "");
    s.description = r.string_or("description", "");
    s.model = parse_model(r.value("model"), "model");
    s.system = parse_system(r.value("system"), "system");
    s.workload = parse_workload(r.value("workload"), "workload");
    r.finish();
    check_inference(s);
    return s;
}

// ---- writing ----

Json to_json(const Model& m) {
    return Json{{"name", m.name},
                {"source", m.source},
                {"layers", m.layers},
                {"hidden", m.hidden},
                {"heads", m.heads},
                {"kv_heads", m.kv_heads},
                {"head_dim", m.head_dim},
                {"ffn", m.ffn},
                {"gated_ffn", m.gated_ffn},
                {"vocab", m.vocab},
                {"tied_embeddings", m.tied_embeddings},
                {"norm", to_string(m.norm)},
                {"linear_bias", m.linear_bias},
                {"max_seq_len", m.max_seq_len}};
}

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

Json to_json(const InferenceWorkload& w) {
    return Json{{"kind", "inference"},
                {"batch", w.batch},
                {"input_tokens", w.input_tokens},
                {"output_tokens", w.output_tokens},
                {"parallelism", {{"tp", w.parallelism.tp}}},
                {"precision",
                 {{"weights", std::string(to_string(w.precision.weights))},
                  {"kv_cache", std::string(to_string(w.precision.kv_cache))},
                  {"activations", std::string(to_string(w.precision.activations))}}},
                {"flash_attention", w.flash_attention}};
}

Json to_json(const Scenario& s) {
    Json j = Json::object();
    if (!s.name.empty()) j["name"] = s.name;
    if (!s.description.empty()) j["description"] = s.description;
    j["model"] = to_json(s.model);
    j["system"] = to_json(s.system);
    j["workload"] = to_json(s.workload);
    return j;
}

}  // namespace envelope
