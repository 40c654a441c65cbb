// The WebAssembly facade: a thin embind layer over core/api.hpp.
//
//   evaluate(scenario) -> string   scenario: JSON text; returns the result JSON text, or
//                                  {"ok":false,"error":{"path","message"}} — for any
//                                  argument whatsoever; it never throws
//   collective(request) -> string  one collective on a system, nccl-tests style
//                                  (core/io/collective_json.hpp), same contract
//   importHf(config, name) -> string   a Hugging Face config.json (text) as a model
//                                  document (core/io/hf_config.hpp): {"ok", "model",
//                                  "notes", "params", "active_params"}; name: a string, or
//                                  undefined/null for the config's own; same contract
//   sweep(request)     -> string   an inference scenario along one axis: {"scenario", "axis",
//                                  "values" | "range"} (core/io/sweep_json.hpp), same contract
//   tradeoff(request)  -> string   hardware knobs against performance and cost: {"scenario",
//                                  "knobs"} (core/io/tradeoff_json.hpp), same contract
//   packageCost(pkg)   -> string   an accelerator package's cost by part, same contract
//   presets()          -> string   all presets as JSON text
//   validation()       -> string   the model scored on the bundled measured cases
//   version()          -> string
//   heapInUse()        -> number   bytes the module's allocator has handed out and not
//                                  freed (mallinfo().uordblks): leak checks and benchmarks
//
// Strings cross the boundary rather than numbers so that nothing is coerced silently
// (embind turns 'abc' into NaN for a double parameter); nlohmann parses and core
// validates every field.
#include <emscripten/bind.h>
#include <malloc.h>
#include <emscripten/val.h>

#include <string>

#include "api.hpp"
#include "io/hf_config.hpp"
#include "io/json.hpp"
#include "io/result_json.hpp"
#include "version.hpp"

namespace {

// Takes a val rather than std::string so that a non-string argument becomes an error
// value instead of an embind exception. Objects are not stringified here: a JS
// exception (a cycle, a BigInt) would cross C++ frames uncaught; callers pass
// JSON.stringify(scenario) themselves.
std::string evaluate(emscripten::val scenario) {
    if (scenario.isString()) return envelope::evaluate_json(scenario.as<std::string>());
    const std::string type = scenario.isNull() ? "null" : scenario.typeOf().as<std::string>();
    return envelope::to_text(envelope::error_json(
        "", "evaluate() takes the scenario as JSON text (JSON.stringify it first), got " + type));
}

std::string collective(emscripten::val request) {
    if (request.isString()) return envelope::collective_json(request.as<std::string>());
    const std::string type = request.isNull() ? "null" : request.typeOf().as<std::string>();
    return envelope::to_text(envelope::error_json(
        "", "collective() takes the request as JSON text (JSON.stringify it first), got " + type));
}

std::string import_hf(emscripten::val config, emscripten::val name) {
    const auto type_of = [](const emscripten::val& v) {
        return v.isNull() ? std::string("null") : v.typeOf().as<std::string>();
    };
    if (!config.isString()) {
        return envelope::to_text(envelope::error_json(
            "", "importHf() takes the config.json as text (its file's contents), got " + type_of(config)));
    }
    std::string model_name;
    if (name.isString()) {
        model_name = name.as<std::string>();
    } else if (!name.isUndefined() && !name.isNull()) {
        return envelope::to_text(envelope::error_json("", "importHf() takes the name as a string, got " + type_of(name)));
    }
    return envelope::import_hf_config_json(config.as<std::string>(), model_name);
}

// fit() and curve(): the scenario as JSON text, like evaluate().
std::string scenario_call(emscripten::val scenario, const char* what, std::string (*call)(std::string_view)) {
    if (scenario.isString()) return call(scenario.as<std::string>());
    const std::string type = scenario.isNull() ? "null" : scenario.typeOf().as<std::string>();
    return envelope::to_text(envelope::error_json(
        "", std::string(what) + "() takes the scenario as JSON text (JSON.stringify it first), got " + type));
}

std::string fit(emscripten::val scenario) { return scenario_call(scenario, "fit", envelope::fit_json); }

std::string curve(emscripten::val scenario) { return scenario_call(scenario, "curve", envelope::curve_json); }

// sweep(): the request {"scenario", "axis", "values" | "range"} as JSON text.
std::string sweep(emscripten::val request) {
    if (request.isString()) return envelope::sweep_json(request.as<std::string>());
    const std::string type = request.isNull() ? "null" : request.typeOf().as<std::string>();
    return envelope::to_text(envelope::error_json(
        "", "sweep() takes the request as JSON text (JSON.stringify it first), got " + type));
}

// tradeoff() and packageCost(): the request or the package document as JSON text.
std::string tradeoff(emscripten::val request) { return scenario_call(request, "tradeoff", envelope::tradeoff_json); }

std::string package_cost(emscripten::val package) {
    return scenario_call(package, "packageCost", envelope::package_cost_json);
}

std::string presets() { return envelope::presets_json(); }

std::string version() { return envelope::kVersion; }

std::string validation() { return envelope::validation_json(); }

double heap_in_use() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace

EMSCRIPTEN_BINDINGS(envelope) {
    emscripten::function("evaluate", &evaluate);
    emscripten::function("collective", &collective);
    emscripten::function("fit", &fit);
    emscripten::function("curve", &curve);
    emscripten::function("sweep", &sweep);
    emscripten::function("tradeoff", &tradeoff);
    emscripten::function("packageCost", &package_cost);
    emscripten::function("importHf", &import_hf);
    emscripten::function("presets", &presets);
    emscripten::function("version", &version);
    emscripten::function("validation", &validation);
    emscripten::function("heapInUse", &heap_in_use);
}
