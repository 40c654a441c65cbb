#include "parallel/placement.hpp"

namespace envelope {

const NetworkLevel* level_for_group(const Network& net, int64_t group) {
    if (net.levels.empty()) return nullptr;
    const NetworkLevel& inner = net.levels.front();
    return group <= inner.size ? &inner : nullptr;
}

}  // namespace envelope
