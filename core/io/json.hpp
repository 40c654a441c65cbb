#pragma once
// The JSON type used at the core's edges. ordered_json keeps keys in the order they
// were written, so results read top-down the way they are documented.
#include <string>

#include <nlohmann/json.hpp>

namespace envelope {

using Json = nlohmann::ordered_json;

// Compact text. Invalid UTF-8 (say, echoed from a user's string) is replaced rather
// than thrown, so writing an error message can never fail.
inline std::string to_text(const Json& j, int indent = -1) {
    return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace envelope
