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
//   search(request)    -> string   a configuration search, training or serving: {"search",
//                                  "scenario", "chips", "space", …} (core/io/search_json.hpp),
//                                  same contract
//   require(request)   -> string   the least of each chip resource that meets a target:
//                                  {"scenario", "slo"} (core/io/require_json.hpp), same contract
//   tradeoff(request)  -> string   hardware knobs against performance and cost: {"scenario",
//                                  "knobs"} (core/io/tradeoff_json.hpp), same contract
//   packageCost(pkg)   -> string   an accelerator package's cost by part, same contract
//   presets()          -> string   all presets as JSON text
//   validation(cases)  -> string   the model scored on measured cases (the text of presets/measured/cases.json)
//   version()          -> string
//   heapInUse()        -> number   bytes the module's allocator has handed out and not
//                                  freed (mallinfo().uordblks): leak checks and benchmarks
//
// Strings cross the boundary rather than numbers so that nothing is coerced silently
// (embind turns 'abc' into NaN for a double parameter); nlohmann parses and core
// validates every field. A text longer than the parser's limit (kScenarioLimits.max_bytes,
// 1 MiB) is refused from its JS length, before it is copied into the module: a 1.2 GB
// string made the copy throw std::bad_alloc after 10 s. Every function may be called with
// arguments missing (each is then undefined) or extra (ignored): envelope_post.js wraps them,
// since embind itself throws a BindingError for a call with the wrong number.
#include <emscripten/bind.h>
#include <malloc.h>
#include <emscripten/val.h>

#include <string>

#include "api.hpp"
#include "common/format.hpp"
#include "io/hf_config.hpp"
#include "io/json.hpp"
#include "io/json_parse.hpp"
#include "io/result_json.hpp"
#include "version.hpp"

namespace {

std::string type_of(const emscripten::val& v) { return v.isNull() ? "null" : v.typeOf().as<std::string>(); }

// The error for a text argument that is over the limit, or "" when it is within it. A JS
// string's length counts UTF-16 units, and each is at least one byte of UTF-8, so a string
// longer than the limit in units is longer in bytes too; one within it is measured again
// in bytes by the parser.
std::string too_long(const emscripten::val& text, const std::string& what) {
    const double units = text["length"].as<double>();
    const auto limit = static_cast<double>(envelope::kScenarioLimits.max_bytes);
    if (units <= limit) return "";
    return envelope::to_text(envelope::error_json(
        "", what + " is " + envelope::format_number(units, 15) + " characters long, larger than the limit of " +
                envelope::format_number(limit, 15) + " bytes (1 MiB)"));
}

// f(text) for a JSON text argument, else an error value: what() takes its `noun` as JSON text.
template <typename F>
std::string text_call(const emscripten::val& arg, const char* what, const char* noun, F f) {
    if (!arg.isString()) {
        return envelope::to_text(envelope::error_json("", std::string(what) + "() takes the " + noun +
                                                              " as JSON text (JSON.stringify it first), got " + type_of(arg)));
    }
    if (std::string error = too_long(arg, std::string(what) + "()'s " + noun); !error.empty()) return error;
    return f(arg.as<std::string>());
}

// Each takes a val rather than std::string so that a non-string argument becomes an error
// value instead of an embind exception. Objects are not stringified here: a JS exception (a
// cycle, a BigInt) would cross C++ frames uncaught; callers pass JSON.stringify(scenario).
std::string evaluate(emscripten::val scenario) {
    return text_call(scenario, "evaluate", "scenario", envelope::evaluate_json);
}

std::string collective(emscripten::val request) {
    return text_call(request, "collective", "request", envelope::collective_json);
}

std::string import_hf(emscripten::val config, emscripten::val name) {
    if (!config.isString()) {
        return envelope::to_text(envelope::error_json(
            "", "importHf() takes the config.json as text (its file's contents), got " + type_of(config)));
    }
    if (std::string error = too_long(config, "importHf()'s config.json"); !error.empty()) return error;
    std::string model_name;
    if (name.isString()) {
        if (std::string error = too_long(name, "importHf()'s name"); !error.empty()) return error;
        model_name = name.as<std::string>();
    } else if (!name.isUndefined() && !name.isNull()) {
        return envelope::to_text(envelope::error_json("", "importHf() takes the name as a string, got " + type_of(name)));
    }
    return envelope::import_hf_config_json(config.as<std::string>(), model_name);
}

// fit() and curve(): the scenario as JSON text, like evaluate().
std::string fit(emscripten::val scenario) { return text_call(scenario, "fit", "scenario", envelope::fit_json); }

std::string curve(emscripten::val scenario) { return text_call(scenario, "curve", "scenario", envelope::curve_json); }

// sweep(): the request {"scenario", "axis", "values" | "range"} as JSON text.
std::string sweep(emscripten::val request) { return text_call(request, "sweep", "request", envelope::sweep_json); }

// search() and require(): a configuration search (core/io/search_json.hpp) and a requirement
// analysis (core/io/require_json.hpp), the request as JSON text. A search runs to the end in
// one call (about a second for the largest bundled request natively): the page calls it from
// a Web Worker.
std::string search(emscripten::val request) { return text_call(request, "search", "request", envelope::search_json); }

std::string require(emscripten::val request) {
    return text_call(request, "require", "request", envelope::require_json);
}

// tradeoff() and packageCost(): the request or the package document as JSON text.
std::string tradeoff(emscripten::val request) {
    return text_call(request, "tradeoff", "request", envelope::tradeoff_json);
}

std::string package_cost(emscripten::val package) {
    return text_call(package, "packageCost", "scenario", envelope::package_cost_json);
}

std::string presets() { return envelope::presets_json(); }

std::string version() { return envelope::kVersion; }

// The page fetches presets/measured/cases.json (the module bundles no cases) and passes its text.
std::string validation(emscripten::val cases) {
    if (!cases.isString()) {
        return envelope::to_text(envelope::error_json(
            "", "validation() takes the text of presets/measured/cases.json (the module bundles no cases), got " + type_of(cases)));
    }
    const double units = cases["length"].as<double>();
    const auto limit = static_cast<double>(envelope::kCaseFileLimits.max_bytes);
    if (units > limit) {
        return envelope::to_text(envelope::error_json("", "validation()'s cases are " + envelope::format_number(units, 15) +
                                                              " characters long, larger than the limit of " +
                                                              envelope::format_number(limit, 15) + " bytes"));
    }
    return envelope::validation_json(cases.as<std::string>());
}

double heap_in_use() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace

EMSCRIPTEN_BINDINGS(envelope) {
    emscripten::function("evaluate", &evaluate);
    emscripten::function("collective", &collective);
    emscripten::function("fit", &fit);
    emscripten::function("curve", &curve);
    emscripten::function("sweep", &sweep);
    emscripten::function("search", &search);
    emscripten::function("require", &require);
    emscripten::function("tradeoff", &tradeoff);
    emscripten::function("packageCost", &package_cost);
    emscripten::function("importHf", &import_hf);
    emscripten::function("presets", &presets);
    emscripten::function("version", &version);
    emscripten::function("validation", &validation);
    emscripten::function("heapInUse", &heap_in_use);
}
