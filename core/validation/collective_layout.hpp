#pragma once
// Where a measured collective case's ranks sit (presets/measured/FORMAT.md, `hardware.nodes`,
// `hardware.fabric`; METHODOLOGY.md §20.2): `count` ranks spread evenly over `nodes`
// scale-up domains of `per_node` chips, and the scale-out bandwidth each rank gets from the
// NICs of its node when the case names its fabric.
#include <cstdint>
#include <string>

#include "io/json.hpp"

namespace envelope {

struct CollectiveLayout {
    int64_t nodes = 1;           // scale-up domains the ranks span
    int64_t ranks_per_node = 1;  // count / nodes
    int64_t node_chips = 1;      // chips of one domain on the network's first level
    int64_t stride = 1;          // node_chips / ranks_per_node: the group's members that far apart
    int64_t system_chips = 1;    // the chips the case's system must join
    double scale_out_gbps = 0;   // GB/s per rank, one direction, from the fabric; 0: not stated
    std::string fabric;          // the fabric preset hardware.fabric.name names (io/fabric_json.hpp); "": none
};

// Scale-out GB/s (one direction) a rank gets from its node's NICs. The node carries
// nic_gbps_per_gpu · per_node Gb/s of NICs; its ranks share them, and one rank reaches at most
// the NICs of its own rail: per_node / min(nics_per_node, per_node) GPUs share one rail
// (a NIC serving several GPUs, or several NICs one GPU). So
//   per rank = nic_gbps_per_gpu · per_node / max(ranks_per_node, min(nics_per_node, per_node)) / 8.
double fabric_gbps_per_rank(double nic_gbps_per_gpu, int64_t nics_per_node, int64_t per_node,
                            int64_t ranks_per_node);

// The layout of `ranks` ranks on the case's hardware; skips (SkipCase) a count that `nodes`
// does not divide or more ranks per node than `per_node` chips.
CollectiveLayout collective_layout(const Json& hardware, int64_t ranks);

// The case's scale-out level (system.network[1]) takes its transport's latency, call latency
// and efficiency from the fabric preset `fabric` (METHODOLOGY.md §12.9) instead of the chip's
// reference system; nothing changes for "" or a system without a second level.
void use_fabric(Json& system, const std::string& fabric);

}  // namespace envelope
