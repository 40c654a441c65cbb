#include "validation/case_fields.hpp"

#include <cmath>

#include "common/format.hpp"

namespace envelope::case_fields {

namespace {

std::string range_text(double lo, double hi) { return "[" + format_number(lo, 6) + ", " + format_number(hi, 6) + "]"; }

}  // namespace

void skip(const std::string& reason) { throw SkipCase(reason); }

const Json& member(const Json& obj, const char* key, const std::string& where) {
    if (!obj.is_object()) skip(where + " is not an object");
    const auto it = obj.find(key);
    if (it == obj.end()) skip(where + "." + key + " is missing");
    return *it;
}

const Json* optional_member(const Json& obj, const char* key) {
    if (!obj.is_object()) return nullptr;
    const auto it = obj.find(key);
    return it == obj.end() || it->is_null() ? nullptr : &*it;
}

std::string text(const Json& obj, const char* key, const std::string& where) {
    const Json& v = member(obj, key, where);
    if (v.is_null()) skip(where + "." + key + " is not stated (null)");
    if (!v.is_string()) skip(where + "." + key + " is not a string");
    return v.get<std::string>();
}

double number_in(const Json& obj, const char* key, const std::string& where, double lo, double hi) {
    const Json& v = member(obj, key, where);
    const std::string name = where + "." + key;
    if (!v.is_number() || !std::isfinite(v.get<double>())) {
        skip(name + (v.is_null() ? " is null" : " is not a number") + "; allowed: " + range_text(lo, hi));
    }
    const double x = v.get<double>();
    if (!(x >= lo && x <= hi)) skip(name + " is " + format_number(x, 6) + "; allowed: " + range_text(lo, hi));
    return x;
}

int64_t integer_in(const Json& obj, const char* key, const std::string& where, double lo, double hi) {
    const Json& v = member(obj, key, where);
    const std::string name = where + "." + key;
    const std::string allowed = "; allowed: an integer in " + range_text(lo, hi);
    if (!v.is_number() || !std::isfinite(v.get<double>())) skip(name + (v.is_null() ? " is null" : " is not a number") + allowed);
    const double x = v.get<double>();
    // Checked in floating point before the conversion: a double ≥ 2^63 has no int64_t.
    if (!(x >= lo && x <= hi) || x != std::floor(x)) skip(name + " is " + format_number(x, 6) + allowed);
    return static_cast<int64_t>(x);
}

int64_t chips_of(std::initializer_list<int64_t> degrees, const std::string& what) {
    double chips = 1;  // each degree ≤ 1e9: the product is exact in a double until it passes 2^53
    for (const int64_t d : degrees) chips *= static_cast<double>(d);
    if (chips > kMaxCount) skip(what + " is " + format_number(chips, 6) + " chips; allowed: at most " + format_number(kMaxCount, 6));
    return static_cast<int64_t>(chips);
}

}  // namespace envelope::case_fields
