#include "io/require_json.hpp"

#include <string>

#include "common/error.hpp"
#include "evaluate.hpp"
#include "explore/requirement.hpp"
#include "io/json_reader.hpp"
#include "io/names.hpp"
#include "io/scenario_json.hpp"
#include "version.hpp"

namespace envelope {

namespace {

constexpr const char* kUnits[] = {"TFLOP/s", "TB/s", "GB", "GB/s", "GB/s"};

Json optional_number(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

}  // namespace

Json require_document(const Json& request) {
    JsonReader r(request, "");
    Scenario s;
    try {
        s = parse_scenario(r.value("scenario"));
        check_scenario(s);
    } catch (const InputError& e) {
        throw InputError(e.path().empty() ? "scenario" : "scenario." + e.path(), e.what());
    }
    const bool training = s.workload.kind == WorkloadKind::training;
    Target t;
    if (const Json* v = r.optional_value("slo")) {
        JsonReader q(*v, "slo");
        if (training) {
            t.step_time_s = q.optional_number("step_time_s", 1e-9, 1e12);
            t.tokens_per_s = q.optional_number("tokens_per_s", 1e-9, 1e15);
        } else {
            if (auto x = q.optional_number("ttft_ms", 1e-6, 1e9)) t.slo.ttft_s = *x / 1e3;
            if (auto x = q.optional_number("tpot_ms", 1e-6, 1e9)) t.slo.tpot_s = *x / 1e3;
            t.slo.tokens_per_s_per_user = q.optional_number("tokens_per_s_per_user", 1e-9, 1e9);
            t.output_tokens_per_s_per_chip = q.optional_number("output_tokens_per_s_per_chip", 1e-9, 1e12);
        }
        q.finish();
    }
    r.finish();
    const RequirementAnalysis a = analyze_requirements(s, t);
    Json list = Json::array();
    for (const Requirement& q : a.resources) {
        const auto i = static_cast<std::size_t>(q.resource);
        list.push_back({{"resource", spelling_of(kResourceNames, q.resource)},
                        {"unit", kUnits[i]},
                        {"status", spelling_of(kRequirementStatusNames, q.status)},
                        {"current", q.current},
                        {"required", optional_number(q.required)},
                        {"ratio", optional_number(q.ratio)}});
    }
    return {{"ok", true},
            {"version", kVersion},
            {"workload", to_string(training ? WorkloadKind::training : WorkloadKind::inference)},
            {"met", a.met},
            {"binds", a.binds ? Json(spelling_of(kResourceNames, *a.binds)) : Json(nullptr)},
            {"resources", std::move(list)}};
}

}  // namespace envelope
