#include "presets/registry.hpp"

#include <map>

#include "presets/embedded.hpp"

namespace envelope {

const char* preset_folder(PresetKind kind) {
    switch (kind) {
        case PresetKind::model: return "models";
        case PresetKind::chip: return "chips";
        case PresetKind::system: return "systems";
        case PresetKind::engine: return "engines";
        case PresetKind::framework: return "frameworks";
        case PresetKind::scenario: return "scenarios";
    }
    return "";
}

const Json& all_presets() {
    // Parsed once, on first use. The embedded texts are checked by the unit tests, so a
    // malformed preset fails the build's tests rather than a user's evaluation.
    static const Json presets = [] {
        Json all = Json::object();
        for (PresetKind k : {PresetKind::model, PresetKind::chip, PresetKind::system,
                             PresetKind::engine, PresetKind::framework, PresetKind::scenario}) {
            all[preset_folder(k)] = Json::object();
        }
        for (std::size_t i = 0; i < embedded_presets::kCount; ++i) {
            const auto& e = embedded_presets::kEntries[i];
            if (all.contains(e.folder)) all[e.folder][e.key] = Json::parse(e.text);
        }
        return all;
    }();
    return presets;
}

const Json& measured_document(std::string_view key) {
    // Each document is parsed on first use: the error bands every evaluation reads must not
    // wait for the 2.4 MB of measured cases only validation reads.
    static std::map<std::string, Json, std::less<>> parsed;
    static const Json none = Json::array();
    if (const auto it = parsed.find(key); it != parsed.end()) return it->second;
    for (std::size_t i = 0; i < embedded_presets::kCount; ++i) {
        const auto& e = embedded_presets::kEntries[i];
        if (std::string_view(e.folder) == "measured" && std::string_view(e.key) == key) {
            return parsed.emplace(std::string(key), Json::parse(e.text)).first->second;
        }
    }
    return none;
}

const Json* cost_document(std::string_view key) {
    static const Json costs = [] {
        Json all = Json::object();
        for (std::size_t i = 0; i < embedded_presets::kCount; ++i) {
            const auto& e = embedded_presets::kEntries[i];
            if (std::string_view(e.folder) == "costs") all[e.key] = Json::parse(e.text);
        }
        return all;
    }();
    const auto it = costs.find(std::string(key));
    return it == costs.end() ? nullptr : &*it;
}

const Json* find_preset(PresetKind kind, std::string_view key) {
    const Json& group = all_presets()[preset_folder(kind)];
    const auto it = group.find(std::string(key));
    return it == group.end() ? nullptr : &*it;
}

std::vector<std::string> preset_keys(PresetKind kind) {
    std::vector<std::string> keys;
    for (const auto& [key, value] : all_presets()[preset_folder(kind)].items()) keys.push_back(key);
    return keys;
}

}  // namespace envelope
