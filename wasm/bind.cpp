// The WebAssembly facade: a thin embind layer over core/api.hpp.
//
//   evaluate(scenario) -> string   scenario: a JSON string or a plain JS object;
//                                  returns the result JSON text, or
//                                  {"ok":false,"error":{"path","message"}} — never throws
//   presets()          -> string   all presets as JSON text
//   version()          -> string
//
// Strings cross the boundary rather than numbers so that nothing is coerced silently
// (embind turns 'abc' into NaN for a double parameter); nlohmann parses and core
// validates every field.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "api.hpp"
#include "io/json.hpp"
#include "io/result_json.hpp"
#include "version.hpp"

namespace {

std::string evaluate(emscripten::val scenario) {
    try {
        if (scenario.isString()) return envelope::evaluate_json(scenario.as<std::string>());
        if (scenario.typeOf().as<std::string>() == "object" && !scenario.isNull()) {
            const auto text = emscripten::val::global("JSON").call<emscripten::val>("stringify", scenario);
            if (text.isString()) return envelope::evaluate_json(text.as<std::string>());
        }
        return envelope::to_text(envelope::error_json(
            "", "evaluate() takes a scenario as a JSON string or an object, got " +
                    scenario.typeOf().as<std::string>()));
    } catch (...) {
        // JSON.stringify throws on cycles and BigInt; report it as a value like any bad input.
        return envelope::to_text(envelope::error_json("", "evaluate(): the scenario object cannot be serialized to JSON"));
    }
}

std::string presets() { return envelope::presets_json(); }

std::string version() { return envelope::kVersion; }

}  // namespace

EMSCRIPTEN_BINDINGS(envelope) {
    emscripten::function("evaluate", &evaluate);
    emscripten::function("presets", &presets);
    emscripten::function("version", &version);
}
