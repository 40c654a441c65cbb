#pragma once
// JSON text → Json, with limits enforced while the tree is built.
//
// Hostile text must never crash, hang or mislead: the parser refuses documents that
// are too large, nest too deep or hold too many keys in one object before any of them
// costs more than linear time, and it rejects what nlohmann's own parser lets through
// (a NUL byte ending the document early, duplicate keys where the last one wins).
// Every problem is an InputError naming the field path where it was found.
#include <cstddef>
#include <string_view>

#include "io/json.hpp"

namespace envelope {

struct JsonLimits {
    std::size_t max_bytes;            // size of the whole text
    int max_depth;                    // nested objects and arrays, the root counting 1
    std::size_t max_keys_per_object;
};

// A scenario is a few kilobytes and five levels deep; these leave room for any real one.
inline constexpr JsonLimits kScenarioLimits{1u << 20, 64, 1000};
// Files of measured cases (envelope validate) hold hundreds of scenarios.
inline constexpr JsonLimits kCaseFileLimits{64u << 20, 64, 1000};

// Parse JSON text within `limits`. Throws InputError:
//   - with an empty path for a document that is not JSON, too large, or contains a NUL;
//   - with the path of the offending value for nesting too deep, too many keys,
//     a duplicate key.
// A number beyond the range of a double ("1e400") is kept as ±infinity so that the
// schema reader reports it against the field's own range.
Json parse_json_text(std::string_view text, const JsonLimits& limits = kScenarioLimits);

}  // namespace envelope
