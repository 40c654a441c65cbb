#pragma once
// What every answer of evaluate_json must satisfy, whatever the input: used by the hostile
// sweep (tests/core) and the fuzzer (tests/fuzz). tests/support/invariants.mjs checks the
// same for the Node tests. The other entry points' answers: answer_invariants.hpp.
#include <set>
#include <string>
#include <string_view>

#include "io/json.hpp"

namespace envelope::test {

// Empty when `answer` (the text evaluate_json returned) is fine:
//   - it is JSON with a boolean "ok";
//   - an error has a string path and a non-empty message;
//   - a result has every number finite and non-negative (in warnings' text too), a summary with no null (but
//     tpot_s with one output token), TTFT > 0, E2E ≥ TTFT, memory parts that sum to the
//     total, and output − 1 decode steps.
// Otherwise a sentence saying what is wrong.
std::string check_answer(std::string_view answer);

// The first number under `v` that is not finite, or negative unless its key is one of
// `signed_keys` (a signed error, a bias), as "where.path = value"; empty if none. `key`:
// the key `v` sits under.
std::string bad_number(const Json& v, const std::string& where, const std::set<std::string>& signed_keys = {},
                       const std::string& key = "");

// Empty when `r` has a boolean "ok" and, when false, an error {"path": string, "message":
// non-empty string}; otherwise what is wrong.
std::string error_problem(const Json& r);

}  // namespace envelope::test
