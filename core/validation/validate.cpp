#include "validation/validate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "validation/coverage.hpp"
#include "validation/measured_case.hpp"
#include "validation/predict.hpp"

namespace envelope {

namespace {

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

Json stats_json(const ErrorStats& s) {
    return Json{{"scored", s.scored},           {"mape", s.mape},           {"median_ape", s.median_ape},
                {"within_10", s.within_10},     {"within_25", s.within_25}, {"bias", s.bias},
                {"worst", s.worst}};
}

std::string percent(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%+.1f%%", fraction * 100);
    return text;
}

std::string stats_line(const std::string& name, const ErrorStats& s) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "%-42s %4d   %6.1f%%   %6.1f%%   %5.0f%%   %5.0f%%   %7s   %6.0f%%\n", name.c_str(),
                  s.scored, s.mape * 100, s.median_ape * 100, s.within_10 * 100, s.within_25 * 100,
                  percent(s.bias).c_str(), s.worst * 100);
    return line;
}

}  // namespace

ErrorStats error_stats(const std::vector<double>& signed_errors) {
    ErrorStats s;
    s.scored = static_cast<int>(signed_errors.size());
    if (signed_errors.empty()) return s;
    std::vector<double> abs_errors;
    for (double e : signed_errors) {
        const double a = std::abs(e);
        abs_errors.push_back(a);
        s.mape += a;
        s.within_10 += a <= 0.10;
        s.within_25 += a <= 0.25;
        s.worst = std::max(s.worst, a);
    }
    const double n = static_cast<double>(signed_errors.size());
    s.mape /= n;
    s.within_10 /= n;
    s.within_25 /= n;
    s.median_ape = median(abs_errors);
    s.bias = median(signed_errors);
    return s;
}

ValidationReport validate_cases(const Json& cases) {
    ValidationReport r;
    if (!cases.is_array()) {
        r.skipped.push_back({"", "the file is not a JSON array of cases"});
        return r;
    }
    std::vector<double> all;
    std::map<std::string, std::vector<double>> by_kind, by_metric;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const Json& doc = cases[i];
        std::string id = "[" + std::to_string(i) + "]";
        if (doc.is_object() && doc.contains("id") && doc["id"].is_string()) id = doc["id"].get<std::string>();
        try {
            const MeasuredCase c = read_measured_case(doc);
            Json scenario;
            const double predicted = predict_case(c, &scenario);
            if (!std::isfinite(predicted) || predicted <= 0) {
                r.skipped.push_back({id, "the prediction is not a positive number"});
                continue;
            }
            const double error = predicted / c.measured - 1;
            if (!std::isfinite(error)) {  // measured values are ≥ 1e-9 (case_fields): a guard, not a path
                r.skipped.push_back({id, "predicted / measured is not finite"});
                continue;
            }
            const std::string engine = scenario.is_object() && scenario.contains("engine") && scenario["engine"].is_string()
                                           ? scenario["engine"].get<std::string>()
                                           : "";
            r.cases.push_back({c.id, c.kind, c.primary, c.source, c.chip, engine, c.measured, predicted, error, scenario});
            all.push_back(error);
            by_kind[c.kind].push_back(error);
            by_metric[c.kind + "/" + c.primary].push_back(error);
        } catch (const SkipCase& e) {
            r.skipped.push_back({id, e.what()});
        } catch (const std::exception& e) {
            r.skipped.push_back({id, std::string("internal error: ") + e.what()});
        }
    }
    r.all = error_stats(all);
    for (const auto& [k, v] : by_kind) r.by_kind[k] = error_stats(v);
    for (const auto& [k, v] : by_metric) r.by_metric[k] = error_stats(v);
    r.coverage = coverage_of(cases, r.cases);
    return r;
}

Json to_json(const ValidationReport& r) {
    Json cases = Json::array();
    for (const ScoredCase& c : r.cases) {
        cases.push_back({{"id", c.id},
                         {"kind", c.kind},
                         {"primary", c.primary},
                         {"measured", c.measured},
                         {"predicted", c.predicted},
                         {"error", c.error},
                         {"source", c.source},
                         {"chip", c.chip}});
        if (!c.engine.empty()) cases.back()["engine"] = c.engine;
        if (!c.scenario.is_null()) cases.back()["scenario"] = c.scenario;
    }
    Json skipped = Json::array();
    for (const SkippedCase& s : r.skipped) skipped.push_back({{"id", s.id}, {"reason", s.reason}});
    Json summary = stats_json(r.all);
    summary["skipped"] = r.skipped.size();
    Json by_kind = Json::object(), by_metric = Json::object();
    for (const auto& [k, s] : r.by_kind) by_kind[k] = stats_json(s);
    for (const auto& [k, s] : r.by_metric) by_metric[k] = stats_json(s);
    summary["by_kind"] = by_kind;
    summary["by_metric"] = by_metric;
    Json coverage = Json::array();
    for (const CoverageRow& row : r.coverage) {
        Json j = {{"regime", row.regime}, {"value", row.value}, {"cases", row.cases}};
        const Json stats = stats_json(row.stats);
        for (auto it = stats.begin(); it != stats.end(); ++it) j[it.key()] = it.value();
        j["validated"] = row.stats.scored > 0;
        coverage.push_back(j);
    }
    return Json{{"cases", cases}, {"skipped", skipped}, {"summary", summary}, {"coverage", coverage}};
}

std::string to_text(const ValidationReport& r) {
    std::string out;
    char line[512];
    std::snprintf(line, sizeof line, "%-52s %-10s %-28s %12s %12s %8s\n", "id", "kind", "metric", "measured",
                  "predicted", "error");
    out += line;
    for (const ScoredCase& c : r.cases) {
        std::snprintf(line, sizeof line, "%-52s %-10s %-28s %12.4g %12.4g %8s\n", c.id.c_str(), c.kind.c_str(),
                      c.primary.c_str(), c.measured, c.predicted, percent(c.error).c_str());
        out += line;
    }
    out += "\nskipped:\n";
    for (const SkippedCase& s : r.skipped) out += "  " + s.id + ": " + s.reason + "\n";
    std::snprintf(line, sizeof line, "\n%-42s %4s   %7s   %7s   %6s   %6s   %7s   %7s\n", "summary", "n", "MAPE",
                  "median", "≤10%", "≤25%", "bias", "worst");
    out += line;
    out += stats_line("all", r.all);
    for (const auto& [k, s] : r.by_kind) out += stats_line(k, s);
    for (const auto& [k, s] : r.by_metric) out += stats_line("  " + k, s);
    // Coverage: every regime the cases are in; one with no scored case is unvalidated.
    std::snprintf(line, sizeof line, "\n%-42s %5s %5s   %7s   %7s   %7s   %7s\n", "coverage", "cases", "n", "MAPE",
                  "median", "bias", "worst");
    out += line;
    for (const CoverageRow& row : r.coverage) {
        const std::string name = row.regime + ": " + row.value;
        if (row.stats.scored == 0) {
            std::snprintf(line, sizeof line, "%-42s %5d %5d   unvalidated\n", name.substr(0, 42).c_str(), row.cases, 0);
        } else {
            std::snprintf(line, sizeof line, "%-42s %5d %5d   %6.1f%%   %6.1f%%   %7s   %6.0f%%\n", name.substr(0, 42).c_str(),
                          row.cases, row.stats.scored, row.stats.mape * 100, row.stats.median_ape * 100,
                          percent(row.stats.bias).c_str(), row.stats.worst * 100);
        }
        out += line;
    }
    std::snprintf(line, sizeof line, "%zu scored, %zu skipped\n", r.cases.size(), r.skipped.size());
    return out + line;
}

}  // namespace envelope
