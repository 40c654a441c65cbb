#include "presets/registry.hpp"

#include "presets/embedded.hpp"

namespace envelope {

const char* preset_folder(PresetKind kind) {
    switch (kind) {
        case PresetKind::model: return "models";
        case PresetKind::chip: return "chips";
        case PresetKind::system: return "systems";
        case PresetKind::engine: return "engines";
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
                             PresetKind::engine, PresetKind::scenario}) {
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
    static const Json measured = [] {
        Json all = Json::object();
        for (std::size_t i = 0; i < embedded_presets::kCount; ++i) {
            const auto& e = embedded_presets::kEntries[i];
            if (std::string_view(e.folder) == "measured") all[e.key] = Json::parse(e.text);
        }
        return all;
    }();
    static const Json none = Json::array();
    const auto it = measured.find(std::string(key));
    return it == measured.end() ? none : *it;
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
