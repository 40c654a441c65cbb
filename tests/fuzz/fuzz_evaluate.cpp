// libFuzzer harness over the public entry point: JSON text → evaluate_json → answer.
// Built with ASan + UBSan (./dev.sh fuzz); any crash, sanitizer report, hang or answer
// that breaks an invariant (tests/support/result_invariants.hpp) is a finding.
//
// Seeds: presets/scenarios/*.json and the hostile shapes of issue 5; the dictionary
// (envelope.dict) holds the schema's field names so mutations reach deep fields.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "api.hpp"
#include "result_invariants.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::string answer = envelope::evaluate_json(text);
    const std::string problem = envelope::test::check_answer(answer);
    if (!problem.empty()) {
        std::fprintf(stderr, "invariant broken: %s\nanswer: %.2000s\n", problem.c_str(), answer.c_str());
        std::abort();
    }
    return 0;
}
