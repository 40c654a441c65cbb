#include "network/network.hpp"

namespace envelope {

double Network::chips_per_unit(std::size_t level) const {
    double n = 1;
    for (std::size_t i = 0; i <= level && i < levels.size(); ++i) n *= static_cast<double>(levels[i].size);
    return n;
}

}  // namespace envelope
