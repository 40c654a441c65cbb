#include "api.hpp"

#include <exception>

#include "common/error.hpp"
#include "evaluate.hpp"
#include "io/collective_json.hpp"
#include "io/result_json.hpp"
#include "io/scenario_json.hpp"
#include "presets/registry.hpp"
#include "validation/error_band.hpp"
#include "validation/validate.hpp"
#include "version.hpp"

namespace envelope {

Json evaluate_document(const Json& doc) {
    const Scenario s = parse_scenario(doc);
    check_scenario(s);
    Result r = evaluate(s);
    const InferenceErrorBands& bands = bundled_inference_error_bands();
    r.error_bands.coverage = bands.coverage;
    r.error_bands.ttft = {bands.ttft.low, bands.ttft.high, bands.ttft.cases};
    r.error_bands.generation = {bands.generation.low, bands.generation.high, bands.generation.cases};
    r.error_bands.step = {bands.step.low, bands.step.high, bands.step.cases};
    return to_json(r, s);
}

namespace {

// Runs a JSON-in, JSON-out entry point; never throws.
template <typename Body>
std::string guarded(std::string_view text, Body&& body) {
    try {
        return to_text(body(parse_json_text(text)));
    } catch (const InputError& e) {
        return to_text(error_json(e.path(), e.what()));
    } catch (const std::exception& e) {
        return to_text(error_json("", std::string("internal error: ") + e.what()));
    } catch (...) {
        return to_text(error_json("", "internal error"));
    }
}

}  // namespace

std::string evaluate_json(std::string_view text) { return guarded(text, evaluate_document); }

std::string collective_json(std::string_view text) { return guarded(text, collective_document); }

std::string validation_json() {
    try {
        static const std::string text = [] {
            Json out = {{"ok", true}, {"version", kVersion}};
            const Json report = to_json(validate_cases(measured_document("cases")));
            for (auto it = report.begin(); it != report.end(); ++it) out[it.key()] = it.value();
            return to_text(out);
        }();
        return text;
    } catch (const std::exception& e) {
        return to_text(error_json("", std::string("internal error: ") + e.what()));
    }
}

std::string presets_json() {
    try {
        Json out = {{"ok", true}, {"version", kVersion}};
        for (const auto& [kind, entries] : all_presets().items()) out[kind] = entries;
        return to_text(out);
    } catch (const std::exception& e) {
        return to_text(error_json("", std::string("internal error: ") + e.what()));
    }
}

}  // namespace envelope
