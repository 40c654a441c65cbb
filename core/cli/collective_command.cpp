// envelope collective --system SYSTEM --op OP --chips N (--bytes B | --sweep [FROM TO [FACTOR]])
//                     [--stride S] [--algorithm auto|ring|in_network] [--fabric FABRIC] [--json]
// FABRIC is a fabric preset key (presets/fabrics: efa-v2, infiniband-ndr, roce-v2, ...): the
// system's outermost level takes that transport's latency and efficiency (io/fabric_json.hpp).
//
// SYSTEM is a system preset key (dgx-h100, h100-superpod, tpu-v5e-pod, ...). Without
// --bytes or --sweep the sweep runs 8 B … 8 GiB by factors of 2, like
// `all_reduce_perf -b 8 -e 8G -f 2`. Prints a table (or the JSON of
// io/collective_json.hpp with --json).
#include "cli/collective_command.hpp"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "common/error.hpp"
#include "io/collective_json.hpp"
#include "io/json.hpp"

namespace envelope::cli {

namespace {

constexpr const char* kUsage =
    "usage: envelope collective --system SYSTEM --op OP --chips N\n"
    "                           [--bytes B | --sweep [FROM TO [FACTOR]]] [--stride S]\n"
    "                           [--algorithm auto|ring|in_network] [--fabric FABRIC] [--json]\n"
    "  OP: all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, send_recv\n";

// A number on the command line: JSON's grammar (1e9, 8589934592), so that a malformed one
// is reported by the schema's own messages.
Json number_arg(const std::string& text, const std::string& flag) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0') throw InputError(flag, "must be a number, got \"" + text + "\"");
    return Json(v);
}

Json parse_args(int argc, char** argv, bool& as_json) {
    Json req = Json::object();
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto next = [&]() -> std::string {
            if (i + 1 >= argc) throw InputError(a, "needs a value");
            return argv[++i];
        };
        if (a == "--json") {
            as_json = true;
        } else if (a == "--system") {
            req["system"] = next();
        } else if (a == "--op") {
            req["op"] = next();
        } else if (a == "--chips") {
            req["chips"] = number_arg(next(), "--chips");
        } else if (a == "--stride") {
            req["stride"] = number_arg(next(), "--stride");
        } else if (a == "--bytes") {
            req["bytes"] = number_arg(next(), "--bytes");
        } else if (a == "--algorithm") {
            req["algorithm"] = next();
        } else if (a == "--fabric") {
            req["fabric"] = next();
        } else if (a == "--sweep") {
            Json sweep = {{"from", 8.0}, {"to", 8589934592.0}, {"factor", 2.0}};
            const char* keys[] = {"from", "to", "factor"};
            for (const char* key : keys) {
                if (i + 1 < argc && argv[i + 1][0] != '-') sweep[key] = number_arg(argv[++i], std::string("--sweep ") + key);
            }
            req["sweep"] = sweep;
        } else {
            throw InputError(a, "is not an option of envelope collective");
        }
    }
    if (!req.contains("bytes") && !req.contains("sweep")) {
        req["sweep"] = {{"from", 8.0}, {"to", 8589934592.0}, {"factor", 2.0}};
    }
    return req;
}

void print_table(const Json& r) {
    std::cout << r["op"].get<std::string>() << " on " << r["chips"].get<int64_t>() << " chips of "
              << r["system"].get<std::string>() << "; levels:";
    for (const Json& l : r["levels"]) std::cout << " " << l["name"].get<std::string>() << " ×" << l["size"].get<int64_t>();
    std::cout << "\n";
    std::printf("%14s %12s %12s %12s  %s\n", "bytes", "time_us", "algbw_GB/s", "busbw_GB/s", "algorithm");
    for (const Json& p : r["points"]) {
        std::printf("%14.0f %12.2f %12.2f %12.2f  %s\n", p["bytes"].get<double>(), p["time_s"].get<double>() * 1e6,
                    p["algbw_gbps"].get<double>(), p["busbw_gbps"].get<double>(),
                    p["algorithm"].get<std::string>().c_str());
    }
}

}  // namespace

int collective_command(int argc, char** argv) {
    bool as_json = false;
    try {
        const Json result = collective_document(parse_args(argc, argv, as_json));
        if (as_json) std::cout << to_text(result, 2) << "\n";
        else print_table(result);
        return 0;
    } catch (const InputError& e) {
        std::cerr << "envelope collective: " << (e.path().empty() ? std::string() : e.path() + ": ") << e.what()
                  << "\n"
                  << kUsage;
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "envelope: internal error: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace envelope::cli
