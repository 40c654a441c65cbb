#pragma once
// envelope fit-sustained CASES.json: each chip's sustained rate fitted on its end-to-end
// training cases, with the leave-one-source-out cross-validation (validation/sustained_fit.hpp).
#include <string>

namespace envelope::cli {

// Returns the process exit code (0, 1 internal, 2 bad input).
int fit_sustained_command(const std::string& cases_path);

}  // namespace envelope::cli
