#include <string>

#include "common/error.hpp"
#include "io/json_reader.hpp"
#include "io/names.hpp"
#include "io/preset_ref.hpp"
#include "io/scenario_json.hpp"

namespace envelope {

Framework parse_framework(const Json& value, const std::string& path) {
    const Json doc = resolve_preset(PresetKind::framework, value, path);
    JsonReader r(doc, path);
    Framework f;
    f.name = r.string("name");
    f.source = r.string_or("source", "");
    r.string_or("notes", "");
    if (const Json* m = r.optional_value("matches")) {
        // Which frameworks named by measured cases this profile describes (validation/).
        JsonReader mr(*m, r.path_of("matches"));
        const Json& names = mr.value("names");
        if (!names.is_array() || names.empty()) throw InputError(mr.path_of("names"), "must be a non-empty array of names");
        if (const Json* v = mr.optional_value("versions")) {
            if (!v->is_array() || v->size() != 2 || !(*v)[0].is_string() || !(*v)[1].is_string()) {
                throw InputError(mr.path_of("versions"), "must be [\"from\", \"to\"], two version strings");
            }
        }
        mr.finish();
    }
    f.kind = r.choice("kind", kFrameworkKindNames);
    JsonReader sr(r.value("sharded"), r.path_of("sharded"));
    f.sharded_gradient_reduce =
        sr.choice("gradient_reduce", kCollectiveKindNames, {CollectiveKind::reduce_scatter, CollectiveKind::all_reduce});
    f.sharded_gather_overlaps = sr.boolean("gather_overlaps");
    f.sharded_reduce_overlaps = sr.boolean("reduce_overlaps");
    sr.finish();
    f.gradient_reduce_bytes = r.number("gradient_reduce_bytes", 2, 4);
    if (f.gradient_reduce_bytes != 2 && f.gradient_reduce_bytes != 4) {
        throw InputError(r.path_of("gradient_reduce_bytes"), "must be 2 (16-bit) or 4 (fp32)");
    }
    JsonReader br(r.value("bucket"), r.path_of("bucket"));
    f.bucket_params = br.number("params", 1, 1e13);
    f.bucket_params_per_dp = br.number_or("params_per_dp", 0, 1e13, 0);
    br.finish();
    f.launch_overhead_us = r.number("launch_overhead_us", 0, 1e6);
    r.finish();
    return f;
}

Json to_json(const Framework& f) {
    return Json{{"name", f.name},
                {"source", f.source},
                {"kind", spelling_of(kFrameworkKindNames, f.kind)},
                {"sharded",
                 {{"gradient_reduce", to_string(f.sharded_gradient_reduce)},
                  {"gather_overlaps", f.sharded_gather_overlaps},
                  {"reduce_overlaps", f.sharded_reduce_overlaps}}},
                {"gradient_reduce_bytes", f.gradient_reduce_bytes},
                {"bucket", {{"params", f.bucket_params}, {"params_per_dp", f.bucket_params_per_dp}}},
                {"launch_overhead_us", f.launch_overhead_us}};
}

}  // namespace envelope
