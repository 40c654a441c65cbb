// libFuzzer harness over every entry point: the first byte of an input picks one, the rest
// is its JSON text, and the answer must keep that entry point's invariants
// (tests/support/answer_invariants.hpp). Built with ASan + UBSan (./dev.sh fuzz); any crash,
// sanitizer report, hang, escaped exception, "internal error" answer (an exception other than
// InputError reached the guard) or broken invariant is a finding.
//
//   e eval        evaluate_json                 f fit           fit_json
//   v validate    validate_cases (a case file)  u curve         curve_json
//   c collective  collective_json               s sweep         sweep_json
//   t tradeoff    tradeoff_json                 p package-cost  package_cost_json
//   h import-hf   import_hf_config_json(config)
//   n import-hf   import_hf_config_json(config, name): NAME, a newline, then the config
// Any other first byte picks entry point (byte mod 10) in that order, so a mutation of the
// selector moves an input to another entry point instead of wasting the run.
//
// One binary, so libFuzzer spreads a run's time over all of them by coverage. Seeds
// (tests/fuzz/seeds.mjs): every kind of preset and request, prefixed with its letter; the
// dictionary holds the schema's field names so mutations reach deep fields.
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include "answer_invariants.hpp"
#include "api.hpp"

namespace {

using envelope::test::EntryPoint;

EntryPoint pick(uint8_t byte) {
    switch (byte) {
        case 'e': return EntryPoint::eval;
        case 'v': return EntryPoint::validate;
        case 'c': return EntryPoint::collective;
        case 'f': return EntryPoint::fit;
        case 'u': return EntryPoint::curve;
        case 's': return EntryPoint::sweep;
        case 't': return EntryPoint::tradeoff;
        case 'p': return EntryPoint::package_cost;
        case 'h': return EntryPoint::import_hf;
        case 'n': return EntryPoint::import_hf_named;
        default: return static_cast<EntryPoint>(byte % envelope::test::kEntryPoints);
    }
}

std::string call(EntryPoint e, std::string_view text, std::string_view name) {
    switch (e) {
        case EntryPoint::eval: return envelope::evaluate_json(text);
        case EntryPoint::validate: return envelope::test::validate_answer(text);
        case EntryPoint::collective: return envelope::collective_json(text);
        case EntryPoint::fit: return envelope::fit_json(text);
        case EntryPoint::curve: return envelope::curve_json(text);
        case EntryPoint::sweep: return envelope::sweep_json(text);
        case EntryPoint::tradeoff: return envelope::tradeoff_json(text);
        case EntryPoint::package_cost: return envelope::package_cost_json(text);
        case EntryPoint::import_hf: return envelope::import_hf_config_json(text);
        case EntryPoint::import_hf_named: return envelope::import_hf_config_json(text, name);
    }
    return "";
}

// Per entry point: inputs run, answers that were results (ok: true), seconds spent; printed
// when the run ends, so a CI log shows that every entry point got its share and got past
// the parser.
struct Tally {
    std::array<long, envelope::test::kEntryPoints> runs{}, results{};
    std::array<double, envelope::test::kEntryPoints> seconds{};
    ~Tally() {
        for (int i = 0; i < envelope::test::kEntryPoints; ++i) {
            std::fprintf(stderr, "entry point %-16s %8ld runs %8ld results %7.1f s %8.0f runs/s\n",
                         envelope::test::entry_point_name(static_cast<EntryPoint>(i)), runs[i], results[i], seconds[i],
                         seconds[i] > 0 ? runs[i] / seconds[i] : 0.0);
        }
    }
};
Tally tally;

[[noreturn]] void finding(EntryPoint e, const std::string& what, const std::string& answer) {
    std::fprintf(stderr, "invariant broken (%s): %s\nanswer: %.2000s\n", envelope::test::entry_point_name(e),
                 what.c_str(), answer.c_str());
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const EntryPoint e = pick(data[0]);
    std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    std::string_view name;
    if (e == EntryPoint::import_hf_named) {
        const std::size_t newline = text.find('\n');
        name = text.substr(0, newline);
        text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    }
    std::string answer;
    const auto start = std::chrono::steady_clock::now();
    try {
        answer = call(e, text, name);
    } catch (const std::exception& ex) {
        // validate_cases promises to skip a bad case, never to throw; the api.hpp calls never throw.
        finding(e, std::string("an exception escaped: ") + ex.what(), "");
    }
    const int i = static_cast<int>(e);
    tally.seconds[i] += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    tally.runs[i]++;
    if (answer.compare(0, 11, "{\"ok\":false") != 0) tally.results[i]++;  // error_json puts "ok" first
    const std::string problem = envelope::test::check_entry_answer(e, text, name, answer);
    if (!problem.empty()) finding(e, problem, answer);
    // An exception other than InputError reached the entry point's guard: a defect, not bad input.
    // validate_cases records one as a case skipped with reason "internal error: …".
    if (answer.find("\"message\":\"internal error") != std::string::npos ||
        answer.find("\"reason\":\"internal error") != std::string::npos) {
        finding(e, "an internal error", answer);
    }
    return 0;
}
