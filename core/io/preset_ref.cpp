#include "io/preset_ref.hpp"

#include <vector>

#include "common/error.hpp"
#include "io/json_reader.hpp"

namespace envelope {

namespace {

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

}  // namespace

Json resolve_preset(PresetKind kind, const Json& value, const std::string& path) {
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

}  // namespace envelope
