#pragma once
// Helpers for tests of measured cases (validation/measured_case.hpp).
#include <string>

#include "io/json.hpp"
#include "validation/measured_case.hpp"

namespace envelope::test {

// Why read_measured_case skips `doc`, or "" when it reads it.
inline std::string skip_reason(const Json& doc) {
    try {
        read_measured_case(doc);
    } catch (const SkipCase& e) {
        return e.what();
    }
    return "";
}

}  // namespace envelope::test
