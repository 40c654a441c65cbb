#include "api.hpp"

#include <algorithm>
#include <exception>

#include "common/error.hpp"
#include "evaluate.hpp"
#include "explore/fit.hpp"
#include "io/hf_config.hpp"
#include "model/params.hpp"
#include "io/collective_json.hpp"
#include "io/result_json.hpp"
#include "io/scenario_json.hpp"
#include "io/require_json.hpp"
#include "io/search_json.hpp"
#include "io/sweep_json.hpp"
#include "io/tradeoff_json.hpp"
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
    // The band of the result's own serving regime; one without cases gets none.
    const ServingMode mode = s.workload.inference.mode;
    const ServingErrorBands& serving = mode == ServingMode::concurrency ? bands.closed_loop
                                       : mode == ServingMode::server    ? bands.open_loop
                                                                        : bands.static_batch;
    r.error_bands.ttft = {serving.ttft.low, serving.ttft.high, serving.ttft.cases};
    r.error_bands.generation = {serving.generation.low, serving.generation.high, serving.generation.cases};
    r.error_bands.step = {bands.step.low, bands.step.high, bands.step.cases};
    // A regime no scored case checks (its chip, its engine or framework profile) gets no band
    // rather than one borrowed from other regimes, and the result names it.
    const bool training = s.workload.kind == WorkloadKind::training;
    const std::vector<std::string> unvalidated = unvalidated_regimes(
        bands.scored, training, s.system.chip.name, training ? s.framework.name : s.engine.name);
    if (!unvalidated.empty()) r.error_bands.ttft = r.error_bands.generation = r.error_bands.step = {1, 1, 0};
    Json out = to_json(r, s);
    if (!unvalidated.empty()) out["summary"]["error_band"]["unvalidated"] = unvalidated;
    return out;
}

namespace {

// Runs an entry point that returns a document; never throws: errors become values.
template <typename Body>
std::string guarded_call(Body&& body) {
    try {
        return to_text(body());
    } catch (const InputError& e) {
        return to_text(error_json(e.path(), e.what()));
    } catch (const std::exception& e) {
        return to_text(error_json("", std::string("internal error: ") + e.what()));
    } catch (...) {
        return to_text(error_json("", "internal error"));
    }
}

// A JSON-in, JSON-out entry point.
template <typename Body>
std::string guarded(std::string_view text, Body&& body) {
    return guarded_call([&] { return body(parse_json_text(text)); });
}

}  // namespace

std::string evaluate_json(std::string_view text) { return guarded(text, evaluate_document); }

std::string tradeoff_json(std::string_view text) { return guarded(text, tradeoff_document); }

std::string package_cost_json(std::string_view text) { return guarded(text, package_cost_document); }

std::string import_hf_config_json(std::string_view text, std::string_view name) {
    return guarded_call([&] {
        const HfImport r = import_hf_config(text, std::string(name));
        Json out = {{"ok", true}, {"version", kVersion}, {"model", r.document}, {"notes", r.notes}};
        out["params"] = count_params(r.model).total();
        out["active_params"] = active_params(r.model);
        return out;
    });
}

namespace {

Scenario inference_scenario(const Json& doc, const char* what) {
    const Scenario s = parse_scenario(doc);
    check_scenario(s);
    if (s.workload.kind != WorkloadKind::inference) {
        throw InputError("workload.kind", std::string(what) + " is for inference; a training result carries "
                                                              "memory.fit_advice instead");
    }
    return s;
}

Json fit_document(const Json& doc) {
    const Scenario s = inference_scenario(doc, "fit");
    const InferenceFit f = inference_fit(s);
    Json out = {{"ok", true},
                {"fits", f.fits},
                {"largest_batch", f.largest_batch},
                {"longest_context", f.longest_context},
                {"fewest_chips", nullptr}};
    if (f.fewest_chips) {
        out["fewest_chips"] = {{"tp", f.fewest_chips->tp}, {"pp", f.fewest_chips->pp}, {"chips", f.fewest_chips->chips()}};
    }
    out["lower_precision"] = Json::array();
    for (const LowerPrecisionFit& l : f.lower_precision) {
        out["lower_precision"].push_back({{"weights", to_string(l.weights)},
                                          {"kv_cache", to_string(l.kv_cache)},
                                          {"fits", l.fits},
                                          {"largest_batch", l.largest_batch}});
    }
    return out;
}

Json curve_document(const Json& doc) {
    const Scenario s = inference_scenario(doc, "the throughput–latency curve");
    Json points = Json::array();
    for (const CurvePoint& p : throughput_latency_curve(s)) {
        points.push_back({{"batch", p.batch},
                          {"output_tokens_per_s_per_chip", p.output_tokens_per_s_per_chip},
                          {"output_tokens_per_s_per_user", p.output_tokens_per_s_per_user},
                          {"ttft_s", p.ttft_s},
                          {"tpot_s", p.tpot_s},
                          {"fits", p.fits}});
    }
    return {{"ok", true}, {"batch", s.workload.inference.batch}, {"points", std::move(points)}};
}

// The scenario's errors name their field under "scenario." (the request's own path).
Json sweep_document(const Json& doc) {
    const SweepRequest q = parse_sweep_request(doc);
    Scenario s;
    try {
        s = inference_scenario(*q.scenario, "a sweep");
    } catch (const InputError& e) {
        throw InputError(e.path().empty() ? "scenario" : "scenario." + e.path(), e.what());
    }
    std::vector<int64_t> values = q.values;
    const int64_t own = axis_value(s, q.axis);
    if (q.range && own >= q.from && own <= q.to) {
        values.insert(std::upper_bound(values.begin(), values.end(), own), own);
        values.erase(std::unique(values.begin(), values.end()), values.end());
    }
    return sweep_answer_json(q.axis, own, sweep(s, q.axis, values));
}

}  // namespace

std::string fit_json(std::string_view text) { return guarded(text, fit_document); }

std::string curve_json(std::string_view text) { return guarded(text, curve_document); }

std::string sweep_json(std::string_view text) { return guarded(text, sweep_document); }

std::string search_json(std::string_view text) { return guarded(text, search_document); }

std::string require_json(std::string_view text) { return guarded(text, require_document); }

std::string collective_json(std::string_view text) { return guarded(text, collective_document); }

namespace {

Json report_document(const Json& cases) {
    Json out = {{"ok", true}, {"version", kVersion}};
    const Json report = to_json(validate_cases(cases));
    for (auto it = report.begin(); it != report.end(); ++it) out[it.key()] = it.value();
    return out;
}

}  // namespace

std::string validation_json(std::string_view cases_text) {
    if (!cases_text.empty()) {
        return guarded_call([&] { return report_document(parse_json_text(cases_text, kCaseFileLimits)); });
    }
    try {
        if (!measured_document("cases").is_array() || measured_document("cases").empty()) {
            return to_text(error_json("cases", "this build bundles no measured cases: pass the text of "
                                               "presets/measured/cases.json"));
        }
        static const std::string text = to_text(report_document(measured_document("cases")));
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
