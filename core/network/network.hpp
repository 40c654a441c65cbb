#pragma once
// A network as a list of levels, innermost first (ASTRA-sim style): NVLink inside a node,
// then InfiniBand between nodes, say. Each level joins `size` units of the level below it
// (chips, for the innermost), so a system of count chips needs Π size ≥ count.
#include <cstdint>
#include <string>
#include <vector>

namespace envelope {

enum class Topology {
    switch_,          // every chip reaches a switch (NVSwitch) with full bisection
    fully_connected,  // a direct link from every chip to every other (AMD xGMI, Gaudi's
                      // on-board RoCE): the links are split over size − 1 peers, so a
                      // group of p chips reaches only p − 1 of them
    ring,             // each unit linked to two neighbours
    torus,            // a 2D or 3D torus (TPU ICI): `dims` gives its shape
    fat_tree,         // leaf-spine switches (InfiniBand, RoCE), with an oversubscription
    dragonfly,        // groups of switches joined by global links (Slingshot)
};

// In-network reduction (NVLink SHARP "NVLS" on NVSwitch gen 3+, InfiniBand SHARP): an
// all-reduce is summed in the switches, so each chip sends and receives the buffer once.
struct InNetworkReduction {
    double efficiency = 0;     // achievable fraction of the link bandwidth; 0: none
    double latency_us = 0;     // the smallest such all-reduce
    int64_t min_chips = 2;     // the smallest group the library uses it for
};

struct NetworkLevel {
    std::string name;              // "NVLink4 + NVSwitch", "InfiniBand NDR rails"
    std::string source;            // where its numbers come from
    int64_t size = 1;              // units of the level below joined at this level
    Topology topology = Topology::switch_;
    std::vector<int64_t> dims;     // torus: the shape, Π dims = size
    int64_t links_per_chip = 1;    // links from each chip into this level
    double link_gbps = 0;          // per link, one direction, decimal GB/s
    double latency_us = 0;         // per hop of an algorithm (α), µs
    double call_latency_us = 0;    // fixed cost of one collective call (launch, set-up, sync), µs
    double efficiency = 1;         // achievable fraction of the bandwidth for large messages
    // The most bus bandwidth the collective library's low-latency protocol reaches once a
    // group crosses this level, GB/s (NCCL's llMaxBws: 8-byte stores with a flag each go
    // through the NIC's proxy); 0: no cap beyond half the bandwidth.
    double ll_bandwidth_gbps = 0;
    // fat_tree, dragonfly: the share of a chip's bandwidth left when traffic leaves its leaf
    // (or group) is 1 / oversubscription
    double oversubscription = 1;
    InNetworkReduction in_network_reduction;
    // The fabric's cost and power per chip (NIC port, optics, its switch ports): presets'
    // "economics"; zero: not known.
    double usd_per_chip = 0;
    double w_per_chip = 0;
    std::string economics_source;

    // Bandwidth of all the chip's links into this level, one direction, decimal GB/s.
    double bandwidth_gbps() const { return static_cast<double>(links_per_chip) * link_gbps; }
    // What large messages reach over those links, bytes/s.
    double achievable_bytes_per_s() const { return bandwidth_gbps() * 1e9 * efficiency; }
};

// A switched fabric (fat tree, dragonfly): its leaves (or groups) share uplinks, so it has an
// oversubscription, and it grows by adding more of the same units.
inline bool switched(Topology t) { return t == Topology::fat_tree || t == Topology::dragonfly; }

struct Network {
    std::vector<NetworkLevel> levels;

    // Chips in one unit of level i (the product of the sizes of levels 0..i).
    double chips_per_unit(std::size_t level) const;
    // Chips the whole network joins (1 with no levels).
    double chips() const { return levels.empty() ? 1.0 : chips_per_unit(levels.size() - 1); }
};

// A system of `count` chips on a network that joins fewer: a switched outermost level grows
// by more of the same units to join them (a fabric preset of 128 nodes serves 1,024); a torus
// or a switch does not. Returns what was changed, naming the level ("" if nothing).
std::string grow_fabric(Network& net, int64_t count);

}  // namespace envelope
