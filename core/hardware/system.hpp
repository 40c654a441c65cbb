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
    // Set when the outermost switched fabric was grown to join `count` chips (fat trees
    // grow by scalable units): said in the result's warnings.
    std::string network_note;
};

}  // namespace envelope
