#pragma once
// A network as a list of levels, innermost first (ASTRA-sim style): e.g. NVLink inside
// a node, then InfiniBand between nodes. Each level groups `size` units of the level
// below it. Today a collective group must fit inside the innermost level
// (parallel/placement.hpp); decomposing collectives over several levels comes next.
#include <string>
#include <vector>

namespace envelope {

enum class Topology {
    ring,             // chips joined in a ring of point-to-point links
    switch_,          // every chip reaches a switch (NVSwitch, Ethernet/IB switch) with full
                      // bisection: any group gets each chip's whole bandwidth
    fully_connected,  // a direct link from every chip to every other (AMD xGMI, Gaudi's
                      // on-board RoCE): the bandwidth is split over size − 1 links, so a
                      // group of p chips reaches only p − 1 of them
};

struct NetworkLevel {
    std::string name;            // "nvlink", "infiniband"
    int64_t size = 1;            // units of the level below joined at this level
    Topology topology = Topology::switch_;
    double bandwidth_gbps = 0;   // per chip, one direction, decimal GB/s
    double latency_us = 0;       // per algorithm step (α, one hop), µs
    double efficiency = 1;       // achievable fraction of bandwidth_gbps for large messages
    // Fixed cost of one call of the collective library on this level (kernel launch,
    // set-up, the final synchronisation), µs: measured small-message time minus its steps.
    double call_latency_us = 0;
    // In-network reduction (NVLink SHARP, "NVLS", on NVSwitch gen 3+): all-reduce data is
    // summed in the switch, so each chip sends and receives the buffer once. Achievable
    // fraction of bandwidth_gbps when the switch reduces (0: the switch does not), and the
    // time of its smallest all-reduce.
    double in_network_reduction_efficiency = 0;
    double in_network_reduction_latency_us = 0;
    int64_t in_network_reduction_min_chips = 2;  // the smallest group the library uses it for
};

struct Network {
    std::vector<NetworkLevel> levels;
};

}  // namespace envelope
