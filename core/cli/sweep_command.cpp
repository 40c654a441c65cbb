// envelope sweep SCENARIO.json --axis AXIS (--values V,V,… | --range FROM TO POINTS) [--json]
// envelope sweep REQUEST.json [--json]
//
// An inference scenario evaluated at each value of one axis (batch, input_tokens,
// output_tokens, tp) in one call (api.hpp sweep_json; the request format in SCHEMA.md). With
// --axis, FILE is a scenario and the request is built from the flags; without, FILE is a
// whole request document. Prints a table, or with --json the answer as the wasm module
// returns it. A value the checks refuse is a row with its error, not a failure. Errors as
// `envelope eval` prints them: `envelope: FILE: PATH: MESSAGE`, exit 2, nothing on stdout.
#include "cli/sweep_command.hpp"

#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include "api.hpp"
#include "cli/read_input.hpp"
#include "common/format.hpp"
#include "io/json_parse.hpp"

namespace envelope::cli {

namespace {

constexpr const char* kUsage =
    "usage: envelope sweep SCENARIO.json --axis batch|input_tokens|output_tokens|tp\n"
    "                      (--values V,V,... | --range FROM TO POINTS) [--json]\n"
    "       envelope sweep REQUEST.json [--json]     (- reads stdin)\n";

// "1,2,4" as JSON numbers; a piece that is not a whole number stays a string, so that the
// core names it (values[i]) with the allowed range.
Json value_list(const std::string& text) {
    Json out = Json::array();
    std::stringstream in(text);
    std::string piece;
    while (std::getline(in, piece, ',')) {
        try {
            std::size_t used = 0;
            const long long v = std::stoll(piece, &used);
            if (used == piece.size()) {
                out.push_back(v);
                continue;
            }
        } catch (const std::exception&) {
        }
        out.push_back(piece);
    }
    return out;
}

Json number_or_text(const std::string& text) {
    Json v = value_list(text);
    return v.size() == 1 ? v[0] : Json(text);
}

std::string ms(const Json& seconds) { return seconds.is_number() ? format_number(seconds.get<double>() * 1e3, 4) : "-"; }

void print_table(const Json& out) {
    std::printf("%14s %6s %5s %14s %14s %14s %11s %11s %11s %10s\n", out["axis"].get<std::string>().c_str(), "fits",
                "chips", "tokens/s", "tok/s/chip", "tok/s/user", "TTFT ms", "TPOT ms", "E2E ms", "mem GB");
    for (const Json& p : out["points"]) {
        const long long v = p["value"].get<long long>();
        const char* mark = v == out["current"].get<long long>() ? "*" : " ";
        if (!p["ok"].get<bool>()) {
            const std::string path = p["error"]["path"].get<std::string>();
            std::printf("%13lld%s  error: %s%s\n", v, mark, path.empty() ? "" : (path + ": ").c_str(),
                        p["error"]["message"].get<std::string>().c_str());
            continue;
        }
        std::printf("%13lld%s %6s %5lld %14s %14s %14s %11s %11s %11s %10s\n", v, mark, p["fits"].get<bool>() ? "yes" : "no",
                    p["chips"].get<long long>(), format_number(p["output_tokens_per_s"].get<double>(), 5).c_str(),
                    format_number(p["output_tokens_per_s_per_chip"].get<double>(), 5).c_str(),
                    format_number(p["output_tokens_per_s_per_user"].get<double>(), 5).c_str(), ms(p["ttft_s"]).c_str(),
                    ms(p["tpot_s"]).c_str(), ms(p["e2e_latency_s"]).c_str(),
                    format_number(p["memory_bytes"].get<double>() / 1e9, 4).c_str());
    }
    std::printf("(* the scenario's own value, %lld)\n", out["current"].get<long long>());
}

int usage(const std::string& why) {
    std::cerr << "envelope sweep: " << why << "\n" << kUsage;
    return 2;
}

}  // namespace

int sweep_command(int argc, char** argv) {
    std::string file, axis, values;
    std::string range[3];
    bool have_file = false, as_json = false, have_range = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--json") {
            as_json = true;
        } else if (a == "--axis" && i + 1 < argc) {
            axis = argv[++i];
        } else if (a == "--values" && i + 1 < argc) {
            values = argv[++i];
        } else if (a == "--range" && i + 3 < argc) {
            for (std::string& r : range) r = argv[++i];
            have_range = true;
        } else if (!have_file && (a == "-" || a.rfind("--", 0) != 0)) {
            file = a;
            have_file = true;
        } else {
            return usage("unexpected argument " + a);
        }
    }
    if (!have_file) return usage("no file given");
    if (axis.empty() && (have_range || !values.empty())) return usage("--values and --range need --axis");
    if (!axis.empty() && have_range == !values.empty()) return usage("give --values or --range, one of the two");

    std::string text;
    if (!read_input(file, kScenarioLimits.max_bytes, text)) {
        std::cerr << "envelope: cannot read " << file << "\n";
        return 2;
    }
    std::string request = text;
    if (!axis.empty()) {
        Json doc;
        try {
            doc = {{"scenario", parse_json_text(text)}, {"axis", axis}};
        } catch (const std::exception& e) {
            std::cerr << "envelope: " << file << ": " << e.what() << "\n";
            return 2;
        }
        if (have_range) {
            doc["range"] = {{"from", number_or_text(range[0])}, {"to", number_or_text(range[1])},
                            {"points", number_or_text(range[2])}};
        } else {
            doc["values"] = value_list(values);
        }
        request = to_text(doc);
    }
    const Json out = parse_json_text(sweep_json(request));
    if (!out.value("ok", false)) {
        const Json& e = out["error"];
        const std::string path = e.value("path", "");
        std::cerr << "envelope: " << file << ": " << (path.empty() ? "" : path + ": ") << e.value("message", "") << "\n";
        return 2;
    }
    if (as_json) std::cout << to_text(out, 2) << "\n";
    else print_table(out);
    return 0;
}

}  // namespace envelope::cli
