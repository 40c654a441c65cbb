#include "validation/error_band.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "presets/registry.hpp"

namespace envelope {

double quantile(std::vector<double> v, double p) {
    if (v.empty()) return 1.0;
    std::sort(v.begin(), v.end());
    const double h = p * static_cast<double>(v.size() - 1);
    const auto i = static_cast<std::size_t>(std::floor(h));
    if (i + 1 >= v.size()) return v.back();
    return v[i] + (h - static_cast<double>(i)) * (v[i + 1] - v[i]);
}

namespace {

ErrorBand band_of(const std::vector<double>& time_ratios, double coverage) {
    ErrorBand b;
    b.cases = static_cast<int>(time_ratios.size());
    if (b.cases == 0) return b;
    const double tail = (1 - coverage) / 2;
    b.low = quantile(time_ratios, tail);
    b.high = quantile(time_ratios, 1 - tail);
    return b;
}

}  // namespace

namespace {

// The name of the preset `key` of `kind` ("" when there is none).
std::string preset_name(PresetKind kind, const Json& key) {
    if (!key.is_string()) return "";
    const Json* doc = find_preset(kind, key.get<std::string>());
    return doc && doc->is_object() && (*doc).contains("name") ? (*doc)["name"].get<std::string>() : "";
}

void add_name(std::vector<std::string>& names, const std::string& name) {
    if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
}

// The chip, engine and framework a scored case's scenario ran on (its presets' names).
void record_regimes(const ScoredCase& c, ScoredRegimes& scored) {
    if (!c.scenario.is_object()) return;
    const Json& system = c.scenario.value("system", Json::object());
    const Json chip = system.is_object() ? system.value("chip", Json()) : Json();
    if (c.kind == "inference") {
        add_name(scored.inference_chips, preset_name(PresetKind::chip, chip));
        add_name(scored.engines, preset_name(PresetKind::engine, Json(c.engine.empty() ? "default" : c.engine)));
    } else if (c.kind == "training" || c.kind == "memory") {
        add_name(scored.training_chips, preset_name(PresetKind::chip, chip));
        add_name(scored.frameworks, preset_name(PresetKind::framework, c.scenario.value("framework", Json("current"))));
    }
}

Json sorted(std::vector<std::string> names) {
    std::sort(names.begin(), names.end());
    return names;
}

std::vector<std::string> names_from(const Json& doc, const char* key) {
    std::vector<std::string> out;
    if (doc.is_object() && doc.contains(key) && doc[key].is_array()) {
        for (const Json& n : doc[key]) if (n.is_string()) out.push_back(n.get<std::string>());
    }
    return out;
}

bool has(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

std::vector<std::string> unvalidated_regimes(const ScoredRegimes& scored, bool training, const std::string& chip,
                                             const std::string& software) {
    std::vector<std::string> out;
    if (!scored.known) return out;
    if (!has(training ? scored.training_chips : scored.inference_chips, chip)) out.push_back("chip " + chip);
    if (!has(training ? scored.frameworks : scored.engines, software)) {
        out.push_back((training ? "framework " : "engine ") + software);
    }
    return out;
}

InferenceErrorBands inference_error_bands(const ValidationReport& report) {
    InferenceErrorBands bands;
    bands.scored.known = true;
    std::vector<double> ttft[3], generation[3], step;
    for (const ScoredCase& c : report.cases) {
        record_regimes(c, bands.scored);
        // As a ratio on time: measured / predicted for a time, predicted / measured for a rate.
        const double ratio = c.measured / c.predicted;
        if (c.kind == "training") {
            if (c.primary == "step_time_s") step.push_back(ratio);
            else if (c.primary == "tflops_per_gpu" || c.primary == "mfu") step.push_back(1 / ratio);
            continue;
        }
        if (c.kind != "inference") continue;
        const Json* workload = c.scenario.is_object() && c.scenario.contains("workload") ? &c.scenario["workload"] : nullptr;
        const std::string mode = workload ? workload->value("mode", "static") : "static";
        const int loop = mode == "concurrency" ? 1 : mode == "server" ? 2 : 0;
        if (c.primary == "ttft_ms") ttft[loop].push_back(ratio);
        else if (c.primary == "tpot_ms" || c.primary == "e2e_latency_ms") generation[loop].push_back(ratio);
        else generation[loop].push_back(1 / ratio);
    }
    bands.static_batch = {band_of(ttft[0], bands.coverage), band_of(generation[0], bands.coverage)};
    bands.closed_loop = {band_of(ttft[1], bands.coverage), band_of(generation[1], bands.coverage)};
    bands.open_loop = {band_of(ttft[2], bands.coverage), band_of(generation[2], bands.coverage)};
    bands.step = band_of(step, bands.coverage);
    return bands;
}

namespace {

Json band_json(const ErrorBand& b) { return {{"low", b.low}, {"high", b.high}, {"cases", b.cases}}; }

ErrorBand band_from(const Json& doc, const char* family, const char* key) {
    ErrorBand b;
    if (!doc.contains(family)) return b;
    const Json& f = std::string_view(key).empty() ? doc[family] : doc[family].value(key, Json::object());
    b.low = f.value("low", 1.0);
    b.high = f.value("high", 1.0);
    b.cases = f.value("cases", 0);
    return b;
}

}  // namespace

Json error_bands_json(const InferenceErrorBands& b) {
    return {{"source", "envelope validate --bands presets/measured/cases.json (core/validation/error_band.cpp): "
                       "the 10th and 90th percentiles of measured / predicted time over the scored cases of each family"},
            {"coverage", b.coverage},
            {"static_batch", {{"ttft", band_json(b.static_batch.ttft)}, {"generation", band_json(b.static_batch.generation)}}},
            {"closed_loop", {{"ttft", band_json(b.closed_loop.ttft)}, {"generation", band_json(b.closed_loop.generation)}}},
            {"open_loop", {{"ttft", band_json(b.open_loop.ttft)}, {"generation", band_json(b.open_loop.generation)}}},
            {"step", band_json(b.step)},
            {"scored", {{"source", "the chips, engine profiles and framework profiles the scored cases ran on (preset names): "
                                   "a result on any other has no band, its regime being unvalidated"},
                        {"inference_chips", sorted(b.scored.inference_chips)},
                        {"engines", sorted(b.scored.engines)},
                        {"training_chips", sorted(b.scored.training_chips)},
                        {"frameworks", sorted(b.scored.frameworks)}}}};
}

InferenceErrorBands error_bands_from_json(const Json& doc) {
    InferenceErrorBands b;
    b.coverage = doc.value("coverage", b.coverage);
    b.static_batch = {band_from(doc, "static_batch", "ttft"), band_from(doc, "static_batch", "generation")};
    b.closed_loop = {band_from(doc, "closed_loop", "ttft"), band_from(doc, "closed_loop", "generation")};
    b.open_loop = {band_from(doc, "open_loop", "ttft"), band_from(doc, "open_loop", "generation")};
    b.step = band_from(doc, "step", "");
    if (doc.contains("scored") && doc["scored"].is_object()) {
        const Json& scored = doc["scored"];
        b.scored = {true, names_from(scored, "inference_chips"), names_from(scored, "engines"),
                    names_from(scored, "training_chips"), names_from(scored, "frameworks")};
    }
    return b;
}

const InferenceErrorBands& bundled_inference_error_bands() {
    static const InferenceErrorBands bands = [] {
        const Json& committed = measured_document("error-bands");
        return committed.is_object() ? error_bands_from_json(committed)
                                     : inference_error_bands(validate_cases(measured_document("cases")));
    }();
    return bands;
}

}  // namespace envelope
