#pragma once
// JSON spellings of the core's enums.
#include "inference/result.hpp"
#include "model/model.hpp"
#include "network/network.hpp"

namespace envelope {

const char* to_string(NormKind k);
const char* to_string(Topology t);
const char* to_string(OpClass c);
const char* to_string(Bound b);

}  // namespace envelope
