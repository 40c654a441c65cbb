#include "result_invariants.hpp"

#include <cmath>
#include <regex>
#include <set>

#include "io/json.hpp"

namespace envelope::test {

namespace {

// The expected numbers, and the roofline bound beside them: no null but TPOT with one
// output token; E2E ≥ TTFT > 0; the bound never slower than the expected value; memory
// parts that add up.
std::string inference_problem(const Json& r) {
    const double output = r["scenario"]["workload"]["output_tokens"].get<double>();
    const auto summary_problem = [&](const Json& sum, const std::string& where) -> std::string {
        for (auto it = sum.begin(); it != sum.end(); ++it) {
            if (it.key() == "roofline" || it.key() == "error_band") continue;
            const bool may_be_null = it.key() == "tpot_s" && output == 1;
            if (it.value().is_null() != may_be_null) return where + "." + it.key() + " is " + it.value().dump();
        }
        const double ttft = sum["ttft_s"].get<double>();
        if (!(ttft > 0)) return where + ".ttft_s is not positive";
        if (sum["e2e_latency_s"].get<double>() < ttft) return where + ".e2e_latency_s < ttft_s";
        return "";
    };
    const Json& sum = r["summary"];
    if (auto p = summary_problem(sum, "summary"); !p.empty()) return p;
    if (auto p = summary_problem(sum["roofline"], "summary.roofline"); !p.empty()) return p;
    for (const char* key : {"ttft_s", "e2e_latency_s"}) {
        if (sum["roofline"][key].get<double>() > sum[key].get<double>() * (1 + 1e-9)) {
            return std::string("the roofline ") + key + " exceeds the expected one";
        }
    }

    const Json& m = r["memory"];
    const double parts = m["weights_bytes"].get<double>() + m["kv_cache_bytes"].get<double>() +
                         m["activation_bytes"].get<double>();
    const double total = m["total_bytes"].get<double>();
    if (std::abs(parts - total) > 1e-9 * total) return "memory parts do not sum to the total";
    // The phases are the longest request's (a mean length: METHODOLOGY §15.6): ⌈max⌉ − 1 steps.
    const Json& w = r["scenario"]["workload"];
    const double ratio = w.contains("length_distribution") ? w["length_distribution"]["range_ratio"].get<double>() : 1.0;
    const double longest = output == std::floor(output) && ratio == 1 ? output : std::ceil(2 * output / (1 + ratio) - 1e-9);
    if (r["phases"]["decode"]["steps"].get<double>() != longest - 1) return "decode steps != the longest output - 1";

    return "";
}

// A positive step whose breakdown adds up to it; memory parts that add up on every stage.
std::string training_problem(const Json& r) {
    const Json& sum = r["summary"];
    for (auto it = sum.begin(); it != sum.end(); ++it) {
        const bool may_be_null = it.key() == "train_time_s" || it.key() == "chip_hours";
        if (it.value().is_null() && !may_be_null) return "summary." + it.key() + " is null";
    }
    const double step = sum["step_time_s"].get<double>();
    if (!(step > 0)) return "summary.step_time_s is not positive";
    double parts = 0;
    for (const auto& [key, value] : sum["breakdown"].items()) parts += value.get<double>();
    if (std::abs(parts - step) > 1e-6 * step) return "the step-time breakdown does not add up to the step";
    for (const Json& m : r["memory"]["stages"]) {
        const double total = m["total_bytes"].get<double>();
        const double sum_parts = m["weights_bytes"].get<double>() + m["gradient_bytes"].get<double>() +
                                 m["optimizer_bytes"].get<double>() + m["activation_bytes"].get<double>();
        if (std::abs(sum_parts - total) > 1e-9 * total) return "training memory parts do not sum to the total";
    }
    return "";
}

// A band only where scored cases check the regime (METHODOLOGY.md §20.5): `unvalidated`,
// when there, names at least one regime, and then no family has a band.
std::string band_problem(const Json& band) {
    if (!band.is_object() || !band.contains("unvalidated")) return "";
    const Json& names = band["unvalidated"];
    if (!names.is_array() || names.empty()) return "error_band.unvalidated names no regime";
    for (const Json& n : names) {
        if (!n.is_string() || n.get<std::string>().empty()) return "error_band.unvalidated holds " + n.dump();
    }
    for (auto it = band.begin(); it != band.end(); ++it) {
        if (it.value().is_object() && it.value().value("cases", -1) != 0) {
            return "error_band." + it.key() + " has cases in an unvalidated regime";
        }
    }
    return "";
}

}  // namespace

std::string bad_number(const Json& v, const std::string& where, const std::set<std::string>& signed_keys,
                       const std::string& key) {
    if (v.is_number()) {
        const double x = v.get<double>();
        if (!std::isfinite(x) || (x < 0 && signed_keys.count(key) == 0)) return where + " = " + v.dump();
        return "";
    }
    if (v.is_array()) {
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (auto bad = bad_number(v[i], where + "[" + std::to_string(i) + "]", signed_keys, key); !bad.empty()) return bad;
        }
    } else if (v.is_object()) {
        for (auto it = v.begin(); it != v.end(); ++it) {
            if (auto bad = bad_number(it.value(), where + "." + it.key(), signed_keys, it.key()); !bad.empty()) return bad;
        }
    }
    return "";
}

std::string error_problem(const Json& r) {
    if (!r.is_object() || !r.contains("ok") || !r["ok"].is_boolean()) return "no boolean \"ok\"";
    if (r["ok"].get<bool>()) return "";
    const Json e = r.value("error", Json());
    if (!e.is_object() || !e.value("path", Json()).is_string() || !e.value("message", Json()).is_string()) {
        return "malformed error";
    }
    if (e["message"].get<std::string>().empty()) return "empty error message";
    return "";
}

std::string check_answer(std::string_view answer) {
    Json r;
    try {
        r = Json::parse(answer);
    } catch (const std::exception& e) {
        return std::string("the answer is not JSON: ") + e.what();
    }
    if (auto p = error_problem(r); !p.empty() || !r["ok"].get<bool>()) return p;
    if (auto bad = bad_number(r, "result"); !bad.empty()) return "non-finite or negative: " + bad;
    for (const Json& w : r["warnings"]) {
        const std::string text = w.get<std::string>();
        if (std::regex_search(text, std::regex(R"((^|[ (=])-[0-9]|\b(nan|inf)\b)", std::regex::icase))) {
            return "a negative or non-finite number in a warning: " + text;
        }
    }

    const std::string kind = r["workload"].get<std::string>();
    if (auto p = kind == "training" ? training_problem(r) : inference_problem(r); !p.empty()) return p;
    if (auto p = band_problem(r["summary"]["error_band"]); !p.empty()) return p;

    // The mapping: every chip used counted once, every layer in one stage, every group's
    // spans multiplying to its size.
    const Json& par = r["scenario"]["parallelism"];
    const double used = par["tp"].get<double>() * par["cp"].get<double>() * par["dp"].get<double>() *
                        par["pp"].get<double>();
    if (r["summary"]["chips"].get<double>() != used) return "summary.chips is not tp · cp · dp · pp";
    if (used > r["scenario"]["system"]["count"].get<double>()) return "more chips used than the system has";
    double layers = 0;
    for (const Json& n : r["pipeline"]["stage_layers"]) layers += n.get<double>();
    if (r["pipeline"]["stages"] != par["pp"]) return "pipeline.stages is not pp";
    const Json& model = r["scenario"]["model"];
    double model_layers = 0;
    if (model.contains("layers")) {
        model_layers = model["layers"].get<double>();
    } else {
        for (const Json& g : model["layer_groups"]) model_layers += g["count"].get<double>();
    }
    if (layers != model_layers) return "the stages do not hold every layer once";
    for (const Json& d : r["network"]) {
        double product = 1;
        for (const Json& l : d["levels"]) product *= l["size"].get<double>();
        if (product < d["size"].get<double>()) return "the spans of " + d["dimension"].get<std::string>() + " are smaller than the group";
    }
    return "";
}

}  // namespace envelope::test
