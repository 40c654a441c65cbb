#include "io/json_reader.hpp"

#include <cmath>

#include "common/error.hpp"
#include "common/format.hpp"

namespace envelope {

namespace {

std::string range_text(double min, double max, bool integer) {
    if (integer) {
        return "an integer in [" + std::to_string(static_cast<int64_t>(min)) + ", " +
               std::to_string(static_cast<int64_t>(max)) + "]";
    }
    return "a number in [" + format_number(min) + ", " + format_number(max) + "]";
}

}  // namespace

const char* json_type_name(const Json& v) {
    if (v.is_null()) return "null";
    if (v.is_boolean()) return "boolean";
    if (v.is_number()) return "number";
    if (v.is_string()) return "string";
    if (v.is_array()) return "array";
    return "object";
}

double read_number(const Json& v, const std::string& path, double min, double max) {
    if (!v.is_number()) {
        throw InputError(path, std::string("must be ") + range_text(min, max, false) + ", got " +
                                   json_type_name(v));
    }
    const double x = v.get<double>();
    if (!std::isfinite(x) || x < min || x > max) {
        throw InputError(path, "must be " + range_text(min, max, false) + ", got " + format_number(x));
    }
    return x;
}

int64_t read_integer(const Json& v, const std::string& path, int64_t min, int64_t max) {
    const double lo = static_cast<double>(min);
    const double hi = static_cast<double>(max);
    if (!v.is_number()) {
        throw InputError(path, "must be " + range_text(lo, hi, true) + ", got " + json_type_name(v));
    }
    if (v.is_number_integer()) {
        // Covers both signed and unsigned storage; compare in the wider domain.
        if (v.is_number_unsigned()) {
            const auto u = v.get<uint64_t>();
            if (u > static_cast<uint64_t>(max)) {
                throw InputError(path, "must be " + range_text(lo, hi, true) + ", got " +
                                           std::to_string(u));
            }
            const auto i = static_cast<int64_t>(u);
            if (i < min) {
                throw InputError(path, "must be " + range_text(lo, hi, true) + ", got " +
                                           std::to_string(i));
            }
            return i;
        }
        const auto i = v.get<int64_t>();
        if (i < min || i > max) {
            throw InputError(path, "must be " + range_text(lo, hi, true) + ", got " + std::to_string(i));
        }
        return i;
    }
    const double x = v.get<double>();
    if (!std::isfinite(x) || x != std::floor(x)) {
        throw InputError(path, "must be " + range_text(lo, hi, true) + ", got " + format_number(x));
    }
    if (x < lo || x > hi) {
        throw InputError(path, "must be " + range_text(lo, hi, true) + ", got " + format_number(x));
    }
    return static_cast<int64_t>(x);
}

JsonReader::JsonReader(const Json& value, std::string path) : obj_(value), path_(std::move(path)) {
    if (!obj_.is_object()) {
        throw InputError(path_, std::string("must be an object, got ") + json_type_name(obj_));
    }
}

std::string JsonReader::path_of(const std::string& key) const {
    return path_.empty() ? key : path_ + "." + key;
}

bool JsonReader::has(const char* key) {
    seen_.insert(key);  // a field asked about is a known field, present or not
    const auto it = obj_.find(key);
    return it != obj_.end() && !it->is_null();
}

const Json& JsonReader::required(const char* key) {
    seen_.insert(key);
    const auto it = obj_.find(key);
    if (it == obj_.end() || it->is_null()) throw InputError(path_of(key), "is required");
    return *it;
}

const Json* JsonReader::optional_value(const char* key) {
    seen_.insert(key);
    const auto it = obj_.find(key);
    return it == obj_.end() || it->is_null() ? nullptr : &*it;
}

const Json& JsonReader::value(const char* key) { return required(key); }

int64_t JsonReader::integer(const char* key, int64_t min, int64_t max) {
    return read_integer(required(key), path_of(key), min, max);
}

double JsonReader::number(const char* key, double min, double max) {
    return read_number(required(key), path_of(key), min, max);
}

bool JsonReader::boolean(const char* key) {
    const Json& v = required(key);
    if (!v.is_boolean()) {
        throw InputError(path_of(key), std::string("must be true or false, got ") + json_type_name(v));
    }
    return v.get<bool>();
}

std::string JsonReader::string(const char* key) {
    const Json& v = required(key);
    if (!v.is_string()) {
        throw InputError(path_of(key), std::string("must be a string, got ") + json_type_name(v));
    }
    return v.get<std::string>();
}

int read_choice(const Json& v, const std::string& path, const std::vector<std::string>& allowed) {
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "\"" : ", \"") + a + "\"";
    if (!v.is_string()) throw InputError(path, "must be one of " + list + ", got " + json_type_name(v));
    for (std::size_t i = 0; i < allowed.size(); ++i) {
        if (v.get<std::string>() == allowed[i]) return static_cast<int>(i);
    }
    throw InputError(path, "must be one of " + list + ", got \"" + v.get<std::string>() + "\"");
}

int JsonReader::choice(const char* key, std::initializer_list<const char*> allowed) {
    return read_choice(required(key), path_of(key), std::vector<std::string>(allowed.begin(), allowed.end()));
}

int64_t JsonReader::integer_or(const char* key, int64_t min, int64_t max, int64_t fallback) {
    const Json* v = optional_value(key);
    return v ? read_integer(*v, path_of(key), min, max) : fallback;
}

std::optional<double> JsonReader::optional_number(const char* key, double min, double max) {
    const Json* v = optional_value(key);
    if (!v) return std::nullopt;
    return read_number(*v, path_of(key), min, max);
}

double JsonReader::number_or(const char* key, double min, double max, double fallback) {
    return optional_number(key, min, max).value_or(fallback);
}

bool JsonReader::boolean_or(const char* key, bool fallback) {
    return has(key) ? boolean(key) : (seen_.insert(key), fallback);
}

std::string JsonReader::string_or(const char* key, const std::string& fallback) {
    return has(key) ? string(key) : (seen_.insert(key), fallback);
}

int JsonReader::choice_or(const char* key, std::initializer_list<const char*> allowed, int fallback) {
    return has(key) ? choice(key, allowed) : (seen_.insert(key), fallback);
}

void JsonReader::finish() const {
    for (auto it = obj_.begin(); it != obj_.end(); ++it) {
        if (seen_.count(it.key()) == 0) {
            std::string known;
            for (const auto& k : seen_) known += std::string(known.empty() ? "" : ", ") + k;
            throw InputError(path_of(it.key()), "unknown field (known fields here: " + known + ")");
        }
    }
}

}  // namespace envelope
