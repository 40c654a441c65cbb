#include "io/fabric_json.hpp"

#include <algorithm>
#include <cctype>

#include "common/error.hpp"
#include "presets/embedded.hpp"
#include "presets/registry.hpp"

namespace envelope {

namespace {

const Json& all_fabrics() {
    static const Json fabrics = [] {
        Json all = Json::object();
        for (std::size_t i = 0; i < embedded_presets::kCount; ++i) {
            const auto& e = embedded_presets::kEntries[i];
            if (std::string_view(e.folder) == "fabrics") all[e.key] = Json::parse(e.text);
        }
        return all;
    }();
    return fabrics;
}

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

constexpr const char* kFromFabric[] = {"latency_us", "call_latency_us", "efficiency"};

}  // namespace

const Json* find_fabric(std::string_view key) {
    const Json& all = all_fabrics();
    const auto it = all.find(std::string(key));
    return it == all.end() ? nullptr : &*it;
}

std::vector<std::string> fabric_keys() {
    std::vector<std::string> keys;
    for (const auto& [key, value] : all_fabrics().items()) keys.push_back(key);
    return keys;
}

std::string fabric_named(std::string_view text) {
    const std::string t = lower(text);
    std::string best;
    std::size_t best_length = 0;
    for (const auto& [key, doc] : all_fabrics().items()) {
        const auto it = doc.find("names");
        if (it == doc.end() || !it->is_array()) continue;
        for (const Json& name : *it) {
            if (!name.is_string()) continue;
            const std::string n = lower(name.get<std::string>());
            if (n.size() > best_length && t.find(n) != std::string::npos) {
                best = key;
                best_length = n.size();
            }
        }
    }
    return best;
}

Json with_fabric(const Json& level, const std::string& path) {
    if (!level.is_object() || !level.contains("fabric")) return level;
    const Json& key = level["fabric"];
    if (!key.is_string()) throw InputError(path + ".fabric", "must be the key of a fabric preset (presets/fabrics), a string");
    const Json* fabric = find_fabric(key.get<std::string>());
    if (!fabric) {
        std::string known;
        for (const std::string& k : fabric_keys()) known += (known.empty() ? "" : ", ") + k;
        throw InputError(path + ".fabric", "\"" + key.get<std::string>() + "\" is not a fabric preset; one of: " + known);
    }
    Json out = level;
    out.erase("fabric");
    for (const char* field : kFromFabric) {
        if (!out.contains(field)) out[field] = (*fabric)[field];
    }
    return out;
}

Json on_fabric(const Json& system, const std::string& fabric, const std::string& path) {
    Json out = system;
    if (system.is_string()) {
        const Json* preset = find_preset(PresetKind::system, system.get<std::string>());
        if (!preset) return system;  // parse_system names the unknown key
        out = *preset;
    }
    if (!out.is_object() || !out.contains("network") || !out["network"].is_array() || out["network"].size() < 2) {
        throw InputError(path, "needs a system whose network has a scale-out level (two levels or more)");
    }
    Json& level = out["network"][out["network"].size() - 1];
    level["fabric"] = fabric;
    for (const char* key : kFromFabric) level.erase(key);
    if (!find_fabric(fabric)) {
        try {
            with_fabric(level, path);
        } catch (const InputError& e) {
            throw InputError(path, e.what());  // the option's own path, not path.fabric
        }
    }
    level["name"] = (*find_fabric(fabric))["name"];
    return out;
}

}  // namespace envelope
