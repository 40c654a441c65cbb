#include "network/network.hpp"

#include <cmath>

namespace envelope {

double Network::chips_per_unit(std::size_t level) const {
    double n = 1;
    for (std::size_t i = 0; i <= level && i < levels.size(); ++i) n *= static_cast<double>(levels[i].size);
    return n;
}

std::string grow_fabric(Network& net, int64_t count) {
    if (net.levels.empty() || net.chips() >= static_cast<double>(count)) return "";
    NetworkLevel& outer = net.levels.back();
    if (!switched(outer.topology)) return "";
    const double below = net.chips() / static_cast<double>(outer.size);
    const int64_t before = outer.size;
    outer.size = static_cast<int64_t>(std::ceil(static_cast<double>(count) / below));
    return "system.network[" + std::to_string(net.levels.size() - 1) + "] (" + outer.name + ") grown from " +
           std::to_string(before) + " to " + std::to_string(outer.size) + " units to join " + std::to_string(count) +
           " chips";
}

}  // namespace envelope
