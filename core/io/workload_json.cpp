#include "io/scenario_json.hpp"

#include <string>

#include "common/error.hpp"
#include "io/json_reader.hpp"
#include "io/names.hpp"
#include "io/preset_ref.hpp"
#include "io/schema_limits.hpp"

namespace envelope {

using namespace limits;

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
        w.precision.residual = default_residual(w.precision.activations);
    } else {
        JsonReader pr(prec, r.path_of("precision"));
        w.precision.weights = read_precision(pr.value("weights"), pr.path_of("weights"));
        w.precision.kv_cache = read_precision(pr.value("kv_cache"), pr.path_of("kv_cache"));
        w.precision.activations = read_precision(pr.value("activations"), pr.path_of("activations"));
        w.precision.residual = pr.has("residual") ? read_precision(pr.value("residual"), pr.path_of("residual"))
                                                  : default_residual(w.precision.activations);
        pr.finish();
    }
    w.flash_attention = r.boolean_or("flash_attention", true);
    r.finish();
    return w;
}

// ---- writing ----

Json to_json(const InferenceWorkload& w) {
    return Json{{"kind", "inference"},
                {"batch", w.batch},
                {"input_tokens", w.input_tokens},
                {"output_tokens", w.output_tokens},
                {"parallelism", {{"tp", w.parallelism.tp}}},
                {"precision",
                 {{"weights", std::string(to_string(w.precision.weights))},
                  {"kv_cache", std::string(to_string(w.precision.kv_cache))},
                  {"activations", std::string(to_string(w.precision.activations))},
                  {"residual", std::string(to_string(w.precision.residual))}}},
                {"flash_attention", w.flash_attention}};
}

}  // namespace envelope
