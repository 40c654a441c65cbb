#pragma once
// What every answer of every entry point (core/api.hpp, and `envelope validate`) must
// satisfy, whatever the input: used by the fuzzer (tests/fuzz). evaluate_json's own checks
// are check_answer (result_invariants.hpp); this file adds the other entry points'.
//
// Every answer is JSON with a boolean "ok"; an error has a string path and a non-empty
// message; a result has every number finite, and non-negative except where a sign means
// something (a validation error, its bias), plus the entry point's own sums and orders.
#include <string>
#include <string_view>

namespace envelope::test {

enum class EntryPoint {
    eval,             // evaluate_json
    validate,         // validate_cases on a file of measured cases, as `envelope validate --json`
    collective,       // collective_json
    fit,              // fit_json
    curve,            // curve_json
    sweep,            // sweep_json
    tradeoff,         // tradeoff_json
    package_cost,     // package_cost_json
    import_hf,        // import_hf_config_json without a name
    import_hf_named,  // import_hf_config_json with a name
};

inline constexpr int kEntryPoints = 10;

// "eval", "validate", … "import-hf", "import-hf-named".
const char* entry_point_name(EntryPoint e);

// The answer of `envelope validate --json` for the case-file text `text`, with "ok": an
// error for text that is not JSON within the case-file limits, else the report. Lets a
// report's own failures (an exception out of validate_cases) escape.
std::string validate_answer(std::string_view text);

// Empty when `answer`, what entry point `e` returned for `input` (and `name`, for
// import_hf_named), is fine; otherwise a sentence saying what is wrong.
std::string check_entry_answer(EntryPoint e, std::string_view input, std::string_view name,
                               std::string_view answer);

}  // namespace envelope::test
