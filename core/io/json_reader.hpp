#pragma once
// Strict, path-aware reading of one JSON object.
//
// Every accessor names the field it reads, checks its type and range, and on failure
// throws InputError with the full path ("system.network[0].latency_us") and the
// allowed range. finish() rejects keys nobody read, so a typo never passes silently.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/spelling.hpp"
#include "io/json.hpp"

namespace envelope {

class JsonReader {
public:
    // `value` must outlive the reader. Throws when it is not an object.
    JsonReader(const Json& value, std::string path);

    const std::string& path() const { return path_; }
    std::string path_of(const std::string& key) const;
    bool has(const char* key);  // present and not null (and a known field from now on)

    // Required fields.
    int64_t integer(const char* key, int64_t min, int64_t max);
    double number(const char* key, double min, double max);
    bool boolean(const char* key);
    std::string string(const char* key);
    // One of `allowed`; returns its index.
    int choice(const char* key, std::initializer_list<const char*> allowed);
    // One of the names in an enum's spelling table (or of its entries whose values are in
    // `only`); returns that value.
    template <class E, std::size_t N>
    E choice(const char* key, const Spelling<E> (&table)[N], std::initializer_list<E> only = {});
    const Json& value(const char* key);  // any type, for nested readers

    // Optional fields: absent or null gives the documented default.
    int64_t integer_or(const char* key, int64_t min, int64_t max, int64_t fallback);
    std::optional<double> optional_number(const char* key, double min, double max);
    double number_or(const char* key, double min, double max, double fallback);
    bool boolean_or(const char* key, bool fallback);
    std::string string_or(const char* key, const std::string& fallback);
    int choice_or(const char* key, std::initializer_list<const char*> allowed, int fallback);
    template <class E, std::size_t N>
    E choice_or(const char* key, const Spelling<E> (&table)[N], E fallback, std::initializer_list<E> only = {});
    const Json* optional_value(const char* key);

    // Throws for any key not read above.
    void finish() const;

private:
    const Json& required(const char* key);

    const Json& obj_;
    std::string path_;
    std::set<std::string> seen_;
};

// Stand-alone checks for values that are not object members (array items, roots).
int64_t read_integer(const Json& v, const std::string& path, int64_t min, int64_t max);
double read_number(const Json& v, const std::string& path, double min, double max);
// Index of the string `v` in `allowed`.
int read_choice(const Json& v, const std::string& path, const std::vector<std::string>& allowed);
// The value of the name `v` in an enum's spelling table.
template <class E, std::size_t N>
E read_spelling(const Json& v, const std::string& path, const Spelling<E> (&table)[N]) {
    const auto accepted = accepted_spellings(table);
    return accepted[static_cast<std::size_t>(read_choice(v, path, spelling_names(accepted)))].value;
}

template <class E, std::size_t N>
E JsonReader::choice(const char* key, const Spelling<E> (&table)[N], std::initializer_list<E> only) {
    const auto accepted = accepted_spellings(table, only);
    return accepted[static_cast<std::size_t>(read_choice(required(key), path_of(key), spelling_names(accepted)))].value;
}

template <class E, std::size_t N>
E JsonReader::choice_or(const char* key, const Spelling<E> (&table)[N], E fallback, std::initializer_list<E> only) {
    if (!has(key)) {
        seen_.insert(key);
        return fallback;
    }
    return choice(key, table, only);
}

// JSON type name for messages ("string", "number", ...).
const char* json_type_name(const Json& v);

}  // namespace envelope
