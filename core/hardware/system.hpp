#pragma once
// A machine: `count` identical chips joined by a network.
#include <cstdint>
#include <string>

#include "hardware/chip.hpp"
#include "network/network.hpp"

namespace envelope {

// The host side of one chip, where ZeRO-Offload and ZeRO-Infinity keep optimizer states and
// parameters: a node's host resources divided by its chips. 0: not described (offload is
// then refused).
struct HostResources {
    double link_gbps = 0;    // chip ↔ host (PCIe), one direction, achievable, GB/s
    double memory_gb = 0;    // host DRAM, GB
    double memory_gbps = 0;  // host DRAM bandwidth, GB/s
    double nvme_gbps = 0;    // NVMe bandwidth (reads and writes alike), GB/s
    std::string source;
};

// A system's cost and power besides its accelerators and scale-out fabric, per chip
// (presets' "economics"; zero: not known).
struct SystemEconomics {
    double usd_per_chip = 0;  // hosts, CPUs, memory, chassis, scale-up switches
    double w_per_chip = 0;    // their power at the system's maximum
    std::string source;
};

struct System {
    std::string name;
    std::string source;
    Chip chip;
    int64_t count = 1;
    Network network;
    HostResources host;
    SystemEconomics economics;
    // Set when the outermost switched fabric was grown to join `count` chips (fat trees
    // grow by scalable units): said in the result's warnings.
    std::string network_note;
};

}  // namespace envelope
