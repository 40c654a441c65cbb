// What Envelope infers about public measured cases their sources do not state
// (presets/measured/annotations.json, EXTENSIONS.md there): kept apart from cases.json, which
// is a verbatim copy of the shared public file.
#pragma once

#include <string_view>

#include "io/json.hpp"

namespace envelope {

// The case's `block` ("training" or "inference") with the fields an annotation supplies for
// this case's id added where the case leaves them out; the case's own fields always win.
Json annotated_block(const Json& doc, std::string_view block);

}  // namespace envelope
