#pragma once
// Reading one Hugging Face config object by its own field names (io/hf_config.hpp).
//
// Unlike JsonReader, a config may hold any number of fields Envelope has no use for, so
// nothing here rejects an unknown key; instead the reader remembers every key it looked
// at, and the importer lists the others in a note, so that a field that changes the
// model's shape is never dropped silently. Errors name the config's own field
// ("text_config.num_hidden_layers: is required").
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "io/json.hpp"

namespace envelope {

class HfFields {
public:
    // `obj` must be an object and outlive the reader; `prefix`: the path of `obj` ("" or
    // "text_config").
    HfFields(const Json& obj, std::string prefix);

    std::string path(const std::string& key) const;

    // The value of the first of `keys` present and not null (HF's attribute aliases:
    // n_layer for num_hidden_layers); nullptr when none is. Marks every one as read.
    const Json* find(std::initializer_list<const char*> keys);
    bool has(std::initializer_list<const char*> keys) { return find(keys) != nullptr; }

    // A size: an integer in [min, max]. Required: "is required" at the first key.
    int64_t count(std::initializer_list<const char*> keys, int64_t min, int64_t max);
    std::optional<int64_t> optional_count(std::initializer_list<const char*> keys, int64_t min, int64_t max);
    bool flag(const char* key, bool fallback);
    // A string field, or "" when absent; any other type is an error.
    std::string text(const char* key);
    // The path a value came from: the first of `keys` present, else the first key.
    std::string path_of(std::initializer_list<const char*> keys) const;

    // Marks keys as read without using them: settings that do not change cost.
    void ignore(std::initializer_list<const char*> keys);
    // Keys present (and not null) that nobody read, in the config's order.
    std::vector<std::string> unread() const;

private:
    const Json& obj_;
    std::string prefix_;
    std::set<std::string> read_;
};

}  // namespace envelope
