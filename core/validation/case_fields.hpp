#pragma once
// Reading the fields of a measured case (presets/measured/FORMAT.md). A case file is input
// like any other: every field is range-checked, and a field out of its range skips the case
// (SkipCase) with a reason that names the field, its value and the range allowed.
#include <cstdint>
#include <initializer_list>
#include <string>

#include "io/json.hpp"
#include "validation/measured_case.hpp"

namespace envelope::case_fields {

// The most chips a case may describe, and the bound of every count in it.
constexpr double kMaxCount = 1e9;

[[noreturn]] void skip(const std::string& reason);

// obj[key], skipping the case when obj is not an object or lacks it.
const Json& member(const Json& obj, const char* key, const std::string& where);
// obj[key], or nullptr when absent or null ("not stated").
const Json* optional_member(const Json& obj, const char* key);

std::string text(const Json& obj, const char* key, const std::string& where);
// A finite number in [lo, hi].
double number_in(const Json& obj, const char* key, const std::string& where, double lo, double hi);
// An integer in [lo, hi] (a count: [1, kMaxCount]).
int64_t integer_in(const Json& obj, const char* key, const std::string& where, double lo, double hi);
inline int64_t count(const Json& obj, const char* key, const std::string& where) {
    return integer_in(obj, key, where, 1, kMaxCount);
}

// The product of parallel degrees (each a count), skipping when it exceeds kMaxCount chips:
// `what` names the product ("training.tp × pp × cp × dp").
int64_t chips_of(std::initializer_list<int64_t> degrees, const std::string& what);

}  // namespace envelope::case_fields
