#pragma once
// A network as a list of levels, innermost first (ASTRA-sim style): e.g. NVLink inside
// a node, then InfiniBand between nodes. Each level groups `size` units of the level
// below it. Today a collective group must fit inside the innermost level
// (parallel/placement.hpp); decomposing collectives over several levels comes next.
#include <string>
#include <vector>

namespace envelope {

enum class Topology {
    ring,    // chips joined in a ring of point-to-point links
    switch_  // every chip reaches a switch (NVSwitch, Ethernet/IB switch) with full bisection
};

struct NetworkLevel {
    std::string name;            // "nvlink", "infiniband"
    int64_t size = 1;            // units of the level below joined at this level
    Topology topology = Topology::switch_;
    double bandwidth_gbps = 0;   // per chip, one direction, decimal GB/s
    double latency_us = 0;       // per algorithm step (α), µs
    double efficiency = 1;       // achievable fraction of bandwidth_gbps for large messages
};

struct Network {
    std::vector<NetworkLevel> levels;
};

}  // namespace envelope
