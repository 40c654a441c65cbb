#include "io/hf_fields.hpp"

#include "common/error.hpp"
#include "io/json_reader.hpp"

namespace envelope {

HfFields::HfFields(const Json& obj, std::string prefix) : obj_(obj), prefix_(std::move(prefix)) {
    if (!obj_.is_object()) {
        throw InputError(prefix_, std::string("must be an object, got ") + json_type_name(obj_));
    }
}

std::string HfFields::path(const std::string& key) const { return prefix_.empty() ? key : prefix_ + "." + key; }

const Json* HfFields::find(std::initializer_list<const char*> keys) {
    const Json* found = nullptr;
    for (const char* key : keys) {
        read_.insert(key);
        const auto it = obj_.find(key);
        if (!found && it != obj_.end() && !it->is_null()) found = &*it;
    }
    return found;
}

std::string HfFields::path_of(std::initializer_list<const char*> keys) const {
    if (keys.size() == 0) return prefix_;
    for (const char* key : keys) {
        const auto it = obj_.find(key);
        if (it != obj_.end() && !it->is_null()) return path(key);
    }
    return path(*keys.begin());
}

int64_t HfFields::count(std::initializer_list<const char*> keys, int64_t min, int64_t max) {
    const std::optional<int64_t> v = optional_count(keys, min, max);
    if (!v) throw InputError(path_of(keys), "is required");
    return *v;
}

std::optional<int64_t> HfFields::optional_count(std::initializer_list<const char*> keys, int64_t min, int64_t max) {
    const Json* v = find(keys);
    if (!v) return std::nullopt;
    return read_integer(*v, path_of(keys), min, max);
}

bool HfFields::flag(const char* key, bool fallback) {
    const Json* v = find({key});
    if (!v) return fallback;
    if (!v->is_boolean()) {
        throw InputError(path(key), std::string("must be true or false, got ") + json_type_name(*v));
    }
    return v->get<bool>();
}

std::string HfFields::text(const char* key) {
    const Json* v = find({key});
    if (!v) return "";
    if (!v->is_string()) throw InputError(path(key), std::string("must be a string, got ") + json_type_name(*v));
    return v->get<std::string>();
}

void HfFields::ignore(std::initializer_list<const char*> keys) {
    for (const char* key : keys) read_.insert(key);
}

std::vector<std::string> HfFields::unread() const {
    std::vector<std::string> out;
    for (auto it = obj_.begin(); it != obj_.end(); ++it) {
        if (!it->is_null() && read_.count(it.key()) == 0) out.push_back(it.key());
    }
    return out;
}

}  // namespace envelope
