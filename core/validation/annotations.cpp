#include "validation/annotations.hpp"

#include <algorithm>
#include <string>

#include "presets/registry.hpp"

namespace envelope {

Json annotated_block(const Json& doc, std::string_view block) {
    const std::string name(block);
    Json out = doc.contains(name) ? doc[name] : Json(nullptr);
    if (!out.is_object() || !doc.contains("id") || !doc["id"].is_string()) return out;
    const Json& file = measured_document("annotations");
    if (!file.is_object() || !file.contains("annotations")) return out;
    for (const Json& a : file["annotations"]) {
        const Json& ids = a["ids"];
        if (!a.contains(name) || std::find(ids.begin(), ids.end(), doc["id"]) == ids.end()) continue;
        for (const auto& [key, value] : a[name].items()) {
            if (!out.contains(key) || out[key].is_null()) out[key] = value;
        }
    }
    return out;
}

}  // namespace envelope
