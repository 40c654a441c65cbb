#pragma once
// Which network level a parallel group's collectives run on.
//
// Groups are packed innermost-first: a TP group of 8 on 8-chip NVLink nodes stays
// inside one node. Today every group must fit in the innermost level (a collective
// spanning two levels is decomposed hierarchically; that arrives with multi-node
// parallelism). check_inference rejects groups that do not fit.
#include <cstdint>

#include "network/network.hpp"

namespace envelope {

// The level whose collectives a group of `group` chips uses, or nullptr when the
// group does not fit inside the innermost level.
const NetworkLevel* level_for_group(const Network& net, int64_t group);

}  // namespace envelope
