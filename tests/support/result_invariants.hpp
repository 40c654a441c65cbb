#pragma once
// What every answer of evaluate_json must satisfy, whatever the input: used by the hostile
// sweep (tests/core) and the fuzzer (tests/fuzz). tests/support/invariants.mjs checks the
// same for the Node tests.
#include <string>
#include <string_view>

namespace envelope::test {

// Empty when `answer` (the text evaluate_json returned) is fine:
//   - it is JSON with a boolean "ok";
//   - an error has a string path and a non-empty message;
//   - a result has every number finite and non-negative (in warnings' text too), a summary with no null (but
//     tpot_s with one output token), TTFT > 0, E2E ≥ TTFT, memory parts that sum to the
//     total, and output − 1 decode steps.
// Otherwise a sentence saying what is wrong.
std::string check_answer(std::string_view answer);

}  // namespace envelope::test
