#include "validation/coverage.hpp"

#include <map>
#include <unordered_map>

namespace envelope {

namespace {

std::string text_or(const Json& object, const char* key, const std::string& fallback) {
    if (!object.is_object()) return fallback;
    const auto it = object.find(key);
    return it != object.end() && it->is_string() && !it->get<std::string>().empty() ? it->get<std::string>() : fallback;
}

const Json& member_or_null(const Json& object, const char* key) {
    static const Json null;
    if (!object.is_object()) return null;
    const auto it = object.find(key);
    return it == object.end() ? null : *it;
}

std::string architecture(const Json& model) {
    if (!model.is_object()) return "unknown";
    if (!member_or_null(model, "mla").is_null()) return "mla";
    if (!member_or_null(model, "moe").is_null()) return "moe";
    return "dense";
}

}  // namespace

std::vector<std::pair<std::string, std::string>> regimes_of(const Json& doc) {
    std::vector<std::pair<std::string, std::string>> out;
    if (!doc.is_object()) return out;
    const std::string kind = text_or(doc, "kind", "unknown");
    const Json& hw = member_or_null(doc, "hardware");
    out.emplace_back("kind", kind);
    out.emplace_back(kind + " chip", text_or(hw, "chip", "unknown"));
    if (kind == "inference") {
        const Json& inf = member_or_null(doc, "inference");
        const bool disaggregated = !member_or_null(doc, "disaggregated").is_null();
        out.emplace_back("inference mode", disaggregated ? "disaggregated" : text_or(inf, "mode", "static"));
        out.emplace_back("inference architecture", architecture(member_or_null(doc, "model")));
        out.emplace_back("inference engine", text_or(member_or_null(doc, "engine"), "name", "unknown"));
    } else if (kind == "training" || kind == "memory") {
        const Json& t = member_or_null(doc, "training");
        out.emplace_back(kind + " framework", text_or(t, "framework", "unknown"));
        out.emplace_back(kind + " architecture", architecture(member_or_null(doc, "model")));
        const Json& peft = member_or_null(t, "peft");
        out.emplace_back(kind + " fine-tuning", peft.is_null() ? "full" : text_or(peft, "method", "unknown"));
    } else if (kind == "collective") {
        const Json& count = member_or_null(hw, "count");
        const Json& per_node = member_or_null(hw, "per_node");
        const Json& nodes = member_or_null(hw, "nodes");
        const bool one_node = nodes.is_number() ? nodes.get<double>() <= 1
                                                : count.is_number() && per_node.is_number() && count.get<double>() <= per_node.get<double>();
        out.emplace_back("collective scope", one_node ? "one node" : "across nodes");
        if (!one_node) out.emplace_back("collective fabric", text_or(member_or_null(hw, "fabric"), "name", "unnamed"));
    }
    return out;
}

std::vector<CoverageRow> coverage_of(const Json& cases, const std::vector<ScoredCase>& scored) {
    std::unordered_map<std::string, double> error_of;
    for (const ScoredCase& c : scored) error_of[c.id] = c.error;
    std::map<std::pair<std::string, std::string>, std::pair<int, std::vector<double>>> rows;
    if (cases.is_array()) {
        for (const Json& doc : cases) {
            const auto found = doc.is_object() && doc.contains("id") && doc["id"].is_string()
                                   ? error_of.find(doc["id"].get<std::string>())
                                   : error_of.end();
            for (const auto& regime : regimes_of(doc)) {
                auto& row = rows[regime];
                ++row.first;
                if (found != error_of.end()) row.second.push_back(found->second);
            }
        }
    }
    std::vector<CoverageRow> out;
    for (const auto& [key, row] : rows) out.push_back({key.first, key.second, row.first, error_stats(row.second)});
    return out;
}

}  // namespace envelope
