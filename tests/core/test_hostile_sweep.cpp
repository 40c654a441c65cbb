// The hostile-input sweep of issue 5, natively (and under ASan + UBSan in CI): every field
// of every scenario preset deleted, retyped, negated, zeroed, made huge or beyond double
// range; unknown keys; the text truncated or wrapped in garbage. Each answer is an error
// value or a result passing every invariant, within a second.
#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "api.hpp"
#include "presets/registry.hpp"
#include "result_invariants.hpp"

using namespace envelope;

namespace {

using Path = std::vector<Json::json_pointer>;

// JSON pointers to every value in a document (not the root).
void collect(const Json& v, const Json::json_pointer& here, Path& out) {
    if (!here.empty()) out.push_back(here);
    if (v.is_object()) {
        for (auto it = v.begin(); it != v.end(); ++it) collect(it.value(), here / it.key(), out);
    } else if (v.is_array()) {
        for (std::size_t i = 0; i < v.size(); ++i) collect(v[i], here / i, out);
    }
}

std::vector<std::string> mutations(const Json& doc) {
    std::vector<std::string> out;
    Path paths;
    collect(doc, Json::json_pointer(), paths);
    const auto with = [&](const Json::json_pointer& p, const std::function<void(Json&)>& change) {
        Json copy = doc;
        change(copy[p]);
        return to_text(copy);
    };
    for (const auto& p : paths) {
        Json copy = doc;
        Json& parent = copy[p.parent_pointer()];
        if (parent.is_object()) parent.erase(p.back());
        else parent.erase(static_cast<std::size_t>(std::stoul(p.back())));
        out.push_back(to_text(copy));

        for (const Json& retyped : {Json("x"), Json(true), Json(nullptr), Json::array(), Json::object(),
                                    Json::array({1}), Json{{"preset", "h100-sxm"}}}) {
            out.push_back(with(p, [&](Json& v) { v = retyped; }));
        }
        const Json& value = doc[p];
        if (value.is_number()) {
            const double x = value.get<double>();
            for (double n : {-x, 0.0, 1e18, 1e300, -1e300, 9.3e18, 1.5, 1e-300}) {
                out.push_back(with(p, [&](Json& v) { v = n; }));
            }
            // Beyond double range: only expressible as text.
            for (const char* literal : {"1e999", "-1e999"}) {
                std::string text = with(p, [&](Json& v) { v = "BEYOND"; });
                text.replace(text.find("\"BEYOND\""), 8, literal);
                out.push_back(text);
            }
        }
        if (value.is_object()) out.push_back(with(p, [&](Json& v) { v["unknown_field"] = 1; }));
    }
    const std::string text = to_text(doc);
    for (std::size_t cut = 0; cut < text.size(); cut += text.size() / 40 + 1) out.push_back(text.substr(0, cut));
    out.push_back(text + "garbage");
    out.push_back("garbage" + text);
    out.push_back(text + std::string(1, '\0') + "x");
    out.push_back(text + text);
    return out;
}

}  // namespace

TEST_CASE("hostile sweep over every scenario preset: no crash, no hang, no bad number") {
    int calls = 0;
    int results = 0;
    double slowest_s = 0;
    for (const std::string& key : preset_keys(PresetKind::scenario)) {
        for (const std::string& text : mutations(*find_preset(PresetKind::scenario, key))) {
            const auto start = std::chrono::steady_clock::now();
            const std::string answer = evaluate_json(text);
            slowest_s = std::max(slowest_s,
                                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
            const std::string problem = test::check_answer(answer);
            INFO(key << ": " << text.substr(0, 200));
            REQUIRE(problem.empty());
            ++calls;
            results += answer.rfind("{\"ok\":true", 0) == 0;
        }
    }
    MESSAGE(calls << " hostile documents, " << results << " evaluated, slowest " << slowest_s * 1e3 << " ms");
    CHECK(calls > 800);
    CHECK(results > 50);
    CHECK(slowest_s < 1.0);
}
