#include "answer_invariants.hpp"

#include <cmath>
#include <algorithm>
#include <exception>
#include <initializer_list>

#include "common/error.hpp"
#include "io/json_parse.hpp"
#include "io/result_json.hpp"
#include "result_invariants.hpp"
#include "validation/validate.hpp"

namespace envelope::test {

namespace {

// o[key], or null when `o` is not an object or lacks it (a const Json's operator[] would
// be undefined behaviour there).
const Json& at(const Json& o, const std::string& key) {
    static const Json none;
    if (!o.is_object()) return none;
    const auto it = o.find(key);
    return it == o.end() ? none : *it;
}

double number(const Json& v) { return v.is_number() ? v.get<double>() : std::nan(""); }
bool is_count(const Json& v, double min) {
    return v.is_number() && std::floor(v.get<double>()) == v.get<double>() && v.get<double>() >= min;
}
bool near(double a, double b, double rel) { return std::abs(a - b) <= rel * std::max({1.0, std::abs(a), std::abs(b)}); }

// The keys of `o` that must be numbers (not null, not missing); the first missing one.
std::string missing_number(const Json& o, std::initializer_list<const char*> keys, const std::string& where) {
    for (const char* k : keys) {
        if (!at(o, k).is_number()) return where + "." + k + " is " + at(o, k).dump();
    }
    return "";
}

// An error as a value inside a result (a sweep's or a trade-off's point).
std::string point_error_problem(const Json& p, const std::string& where) {
    const Json& e = at(p, "error");
    if (!at(e, "path").is_string() || !at(e, "message").is_string() || at(e, "message").get<std::string>().empty()) {
        return where + " failed without a path and a message";
    }
    return "";
}

std::string fit_problem(const Json& r) {
    if (!at(r, "fits").is_boolean()) return "fits is not a boolean";
    if (!is_count(at(r, "largest_batch"), 0)) return "largest_batch is not a count";
    if (!is_count(at(r, "longest_context"), 0)) return "longest_context is not a count";
    const Json& f = at(r, "fewest_chips");
    if (f.is_null()) return "";
    if (!is_count(at(f, "tp"), 1) || !is_count(at(f, "pp"), 1)) return "fewest_chips has no tp and pp";
    if (number(at(f, "chips")) != number(at(f, "tp")) * number(at(f, "pp"))) return "fewest_chips.chips is not tp · pp";
    return "";
}

// Batches ascending, the scenario's own among them; TTFT positive.
std::string curve_problem(const Json& r) {
    const Json& points = at(r, "points");
    if (!points.is_array() || points.empty()) return "no points";
    bool own = false;
    double last = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const Json& p = points[i];
        const std::string where = "points[" + std::to_string(i) + "]";
        if (auto m = missing_number(p, {"batch", "output_tokens_per_s_per_chip", "output_tokens_per_s_per_user", "ttft_s",
                                        "tpot_s"}, where);
            !m.empty()) {
            return m;
        }
        if (!at(p, "fits").is_boolean()) return where + ".fits is not a boolean";
        const double batch = number(at(p, "batch"));
        if (!is_count(at(p, "batch"), 1) || batch <= last) return where + ".batch is not above the one before";
        last = batch;
        own = own || batch == number(at(r, "batch"));
        if (!(number(at(p, "ttft_s")) > 0)) return where + ".ttft_s is not positive";
    }
    if (!own) return "the scenario's own batch is not among the points";
    return "";
}

// Every point ok with its numbers (memory parts adding up, E2E ≥ TTFT > 0) or an error.
std::string sweep_problem(const Json& r) {
    if (!at(r, "axis").is_string() || !at(r, "current").is_number()) return "no axis or current value";
    const Json& points = at(r, "points");
    if (!points.is_array() || points.empty()) return "no points";
    for (std::size_t i = 0; i < points.size(); ++i) {
        const Json& p = points[i];
        const std::string where = "points[" + std::to_string(i) + "]";
        if (!at(p, "value").is_number() || !at(p, "ok").is_boolean()) return where + " has no value or ok";
        if (!at(p, "ok").get<bool>()) {
            if (auto e = point_error_problem(p, where); !e.empty()) return e;
            continue;
        }
        if (auto m = missing_number(p, {"chips", "output_tokens_per_s", "output_tokens_per_s_per_chip",
                                        "output_tokens_per_s_per_user", "ttft_s", "e2e_latency_s", "memory_bytes",
                                        "capacity_bytes", "weights_bytes", "kv_cache_bytes", "activation_bytes"},
                                     where);
            !m.empty()) {
            return m;
        }
        if (!at(p, "fits").is_boolean()) return where + ".fits is not a boolean";
        if (!at(p, "tpot_s").is_number() && !at(p, "tpot_s").is_null()) return where + ".tpot_s is neither a number nor null";
        const double ttft = number(at(p, "ttft_s"));
        if (!(ttft > 0)) return where + ".ttft_s is not positive";
        if (number(at(p, "e2e_latency_s")) < ttft) return where + ".e2e_latency_s < ttft_s";
        const double parts = number(at(p, "weights_bytes")) + number(at(p, "kv_cache_bytes")) +
                             number(at(p, "activation_bytes"));
        if (!near(parts, number(at(p, "memory_bytes")), 1e-9)) return where + ": memory parts do not sum to memory_bytes";
    }
    return "";
}

// Each point's setting names every knob; an ok point has the workload's numbers.
std::string tradeoff_problem(const Json& r) {
    const Json& workload = at(r, "workload");
    if (workload != "inference" && workload != "training") return "workload is " + workload.dump();
    const Json& knobs = at(r, "knobs");
    if (!knobs.is_array() || knobs.empty() || knobs.size() > 2) return "knobs is not one or two names";
    if (!at(r, "base_package_usd").is_number() && !at(r, "base_package_usd").is_null()) return "base_package_usd";
    const Json& points = at(r, "points");
    if (!points.is_array() || points.empty()) return "no points";
    const bool training = workload == "training";
    for (std::size_t i = 0; i < points.size(); ++i) {
        const Json& p = points[i];
        const std::string where = "points[" + std::to_string(i) + "]";
        for (const Json& k : knobs) {
            if (!k.is_string() || at(at(p, "setting"), k.get<std::string>()).is_null()) return where + ".setting lacks a knob";
        }
        if (!at(p, "ok").is_boolean()) return where + ".ok is not a boolean";
        if (!at(p, "ok").get<bool>()) {
            if (auto e = point_error_problem(p, where); !e.empty()) return e;
            continue;
        }
        if (!at(p, "fits").is_boolean() || !at(p, "pareto").is_boolean()) return where + " has no fits or pareto";
        const std::string m = training ? missing_number(p, {"step_time_s"}, where)
                                       : missing_number(p, {"output_tokens_per_s", "output_tokens_per_s_per_chip", "ttft_s"}, where);
        if (!m.empty()) return m;
        const double time = number(at(p, training ? "step_time_s" : "ttft_s"));
        if (!(time > 0)) return where + (training ? ".step_time_s" : ".ttft_s") + " is not positive";
    }
    return "";
}

// The parts add up to the total; yields are fractions; a known-good die costs at least a raw one.
std::string package_problem(const Json& r) {
    const char* parts[] = {"raw_dies_usd", "die_defects_usd", "raw_package_usd", "package_defects_usd",
                           "wasted_dies_usd", "hbm_usd", "test_usd", "nre_usd", "total_usd"};
    double sum = 0;
    for (const char* k : parts) {
        if (!at(r, k).is_number()) return std::string(k) + " is not a number";
        if (std::string(k) != "total_usd") sum += number(at(r, k));
    }
    const double total = number(at(r, "total_usd"));
    if (!(total > 0)) return "total_usd is not positive";
    if (!near(sum, total, 1e-9)) return "the parts do not add up to total_usd";
    const double package_yield = number(at(r, "package_yield"));
    if (!(package_yield > 0 && package_yield <= 1)) return "package_yield is not in (0, 1]";
    const Json& dies = at(r, "dies");
    if (!dies.is_array() || dies.empty()) return "no dies";
    for (std::size_t i = 0; i < dies.size(); ++i) {
        const Json& d = dies[i];
        const std::string where = "dies[" + std::to_string(i) + "]";
        const double y = number(at(d, "yield"));
        if (!(y > 0 && y <= 1)) return where + ".yield = " + at(d, "yield").dump() + " is not in (0, 1]";
        if (!is_count(at(d, "count"), 1) || !(number(at(d, "dies_per_wafer")) >= 1)) return where + " has no count or dies per wafer";
        if (number(at(d, "known_good_usd")) < number(at(d, "raw_usd")) * (1 - 1e-9)) {
            return where + ".known_good_usd < raw_usd";
        }
    }
    return "";
}

// nccl-tests' algorithm bandwidth is bytes over time; the bound is never slower.
std::string collective_problem(const Json& r) {
    if (!at(r, "system").is_string() || !at(r, "op").is_string()) return "no system or op";
    if (!is_count(at(r, "chips"), 2)) return "chips is not a count of at least 2";
    const Json& levels = at(r, "levels");
    if (!levels.is_array() || levels.empty()) return "no levels";
    for (const Json& l : levels) {
        if (!is_count(at(l, "size"), 1)) return "a level has no size";
    }
    const Json& points = at(r, "points");
    if (!points.is_array() || points.empty()) return "no points";
    for (std::size_t i = 0; i < points.size(); ++i) {
        const Json& p = points[i];
        const std::string where = "points[" + std::to_string(i) + "]";
        if (auto m = missing_number(p, {"bytes", "time_s", "algbw_gbps", "busbw_gbps", "bound_time_s"}, where); !m.empty()) {
            return m;
        }
        if (!at(p, "algorithm").is_string()) return where + ".algorithm is not a string";
        const double time = number(at(p, "time_s"));
        if (!(time > 0)) return where + ".time_s is not positive";
        if (number(at(p, "bound_time_s")) > time * (1 + 1e-9)) return where + ".bound_time_s > time_s";
        if (!near(number(at(p, "algbw_gbps")), number(at(p, "bytes")) / time / 1e9, 1e-6)) {
            return where + ".algbw_gbps is not bytes / time_s";
        }
    }
    return "";
}

std::string import_hf_problem(const Json& r, std::string_view name, bool named) {
    if (!at(r, "model").is_object()) return "model is not an object";
    const Json& notes = at(r, "notes");
    if (!notes.is_array()) return "notes is not an array";
    for (const Json& n : notes) {
        if (!n.is_string()) return "a note is not a string";
    }
    const double params = number(at(r, "params")), active = number(at(r, "active_params"));
    if (!(params > 0) || !(active > 0)) return "params or active_params is not positive";
    if (active > params * (1 + 1e-12)) return "active_params > params";
    const Json& model_name = at(at(r, "model"), "name");
    if (!model_name.is_string() || model_name.get<std::string>().empty()) return "model.name is not a non-empty string";
    // The answer's text replaces invalid UTF-8 in the name (to_text), so compare it written the same way.
    if (named && !name.empty() && to_text(model_name) != to_text(Json(std::string(name)))) {
        return "model.name is not the name given";
    }
    return "";
}

// Scored + skipped = the cases given; errors are predicted / measured − 1; the summary
// counts and orders its statistics.
std::string stats_problem(const Json& s, const std::string& where) {
    if (auto m = missing_number(s, {"scored", "mape", "median_ape", "within_10", "within_25", "bias", "worst"}, where);
        !m.empty()) {
        return m;
    }
    const double w10 = number(at(s, "within_10")), w25 = number(at(s, "within_25")), worst = number(at(s, "worst"));
    if (!(w10 <= w25 && w25 <= 1)) return where + ": within_10 ≤ within_25 ≤ 1 fails";
    if (number(at(s, "median_ape")) > worst * (1 + 1e-12) || number(at(s, "mape")) > worst * (1 + 1e-12)) {
        return where + ": an average error exceeds the worst";
    }
    if (std::abs(number(at(s, "bias"))) > worst * (1 + 1e-12)) return where + ": |bias| exceeds the worst error";
    return "";
}

std::string validate_problem(const Json& r, std::string_view input) {
    const Json& cases = at(r, "cases");
    const Json& skipped = at(r, "skipped");
    const Json& summary = at(r, "summary");
    if (!cases.is_array() || !skipped.is_array() || !summary.is_object()) return "no cases, skipped or summary";
    const Json doc = parse_json_text(input, kCaseFileLimits);
    const std::size_t given = doc.is_array() ? doc.size() : 1;
    if (cases.size() + skipped.size() != given) return "scored + skipped is not the number of cases given";
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const Json& c = cases[i];
        const std::string where = "cases[" + std::to_string(i) + "]";
        for (const char* k : {"id", "kind", "primary"}) {
            if (!at(c, k).is_string()) return where + "." + k + " is not a string";
        }
        const double measured = number(at(c, "measured")), predicted = number(at(c, "predicted"));
        if (!(measured > 0) || !(predicted > 0)) return where + ": measured or predicted is not positive";
        if (!near(number(at(c, "error")), predicted / measured - 1, 1e-9)) return where + ".error is not predicted / measured − 1";
    }
    for (std::size_t i = 0; i < skipped.size(); ++i) {
        const Json& reason = at(skipped[i], "reason");
        if (!at(skipped[i], "id").is_string() || !reason.is_string() || reason.get<std::string>().empty()) {
            return "skipped[" + std::to_string(i) + "] has no id or reason";
        }
    }
    if (auto p = stats_problem(summary, "summary"); !p.empty()) return p;
    if (number(at(summary, "scored")) != static_cast<double>(cases.size())) return "summary.scored is not the cases scored";
    if (number(at(summary, "skipped")) != static_cast<double>(skipped.size())) return "summary.skipped is not the cases skipped";
    for (const char* group : {"by_kind", "by_metric"}) {
        double scored = 0;
        for (const auto& [key, s] : at(summary, group).items()) {
            if (auto p = stats_problem(s, std::string("summary.") + group + "." + key); !p.empty()) return p;
            scored += number(at(s, "scored"));
        }
        if (scored != static_cast<double>(cases.size())) return std::string("summary.") + group + " does not count every case";
    }
    return "";
}

}  // namespace

const char* entry_point_name(EntryPoint e) {
    static const char* const names[] = {"eval",  "validate", "collective",   "fit",       "curve",
                                        "sweep", "tradeoff", "package-cost", "import-hf", "import-hf-named"};
    return names[static_cast<int>(e)];
}

std::string validate_answer(std::string_view text) {
    Json doc;
    try {
        doc = parse_json_text(text, kCaseFileLimits);
    } catch (const InputError& e) {
        return to_text(error_json(e.path(), e.what()));
    }
    Json out = {{"ok", true}};
    const Json report = to_json(validate_cases(doc));
    for (auto it = report.begin(); it != report.end(); ++it) out[it.key()] = it.value();
    return to_text(out);
}

std::string check_entry_answer(EntryPoint e, std::string_view input, std::string_view name, std::string_view answer) {
    if (e == EntryPoint::eval) return check_answer(answer);
    Json r;
    try {
        r = Json::parse(answer);
    } catch (const std::exception& ex) {
        return std::string("the answer is not JSON: ") + ex.what();
    }
    if (auto p = error_problem(r); !p.empty() || !r["ok"].get<bool>()) return p;
    // A validation error and its median (bias) are signed; every other number is a size,
    // a time, a rate, a price or a count.
    if (auto bad = bad_number(r, "result", {"error", "bias"}); !bad.empty()) return "non-finite or negative: " + bad;
    switch (e) {
        case EntryPoint::validate: return validate_problem(r, input);
        case EntryPoint::collective: return collective_problem(r);
        case EntryPoint::fit: return fit_problem(r);
        case EntryPoint::curve: return curve_problem(r);
        case EntryPoint::sweep: return sweep_problem(r);
        case EntryPoint::tradeoff: return tradeoff_problem(r);
        case EntryPoint::package_cost: return package_problem(r);
        case EntryPoint::import_hf: return import_hf_problem(r, name, false);
        case EntryPoint::import_hf_named: return import_hf_problem(r, name, true);
        case EntryPoint::eval: break;
    }
    return "";
}

}  // namespace envelope::test
