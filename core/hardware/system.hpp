#pragma once
// A machine: `count` identical chips joined by a network.
#include <cstdint>
#include <string>

#include "hardware/chip.hpp"
#include "network/network.hpp"

namespace envelope {

struct System {
    std::string name;
    std::string source;
    Chip chip;
    int64_t count = 1;
    Network network;
};

}  // namespace envelope
