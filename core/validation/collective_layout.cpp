#include "validation/collective_layout.hpp"

#include <algorithm>
#include <string>

#include "io/fabric_json.hpp"
#include "validation/case_fields.hpp"

namespace envelope {

using namespace case_fields;

double fabric_gbps_per_rank(double nic_gbps_per_gpu, int64_t nics_per_node, int64_t per_node,
                            int64_t ranks_per_node) {
    const double node_gbit = nic_gbps_per_gpu * static_cast<double>(per_node);
    const int64_t sharing = std::max(ranks_per_node, std::min(nics_per_node, per_node));
    return node_gbit / static_cast<double>(sharing) / 8;  // Gb/s → GB/s
}

CollectiveLayout collective_layout(const Json& hw, int64_t ranks) {
    CollectiveLayout l;
    const int64_t per_node = optional_member(hw, "per_node") ? count(hw, "per_node", "hardware") : ranks;
    l.system_chips = ranks;
    l.node_chips = per_node;
    if (optional_member(hw, "nodes")) {
        // FORMAT.md: ranks per domain = count / nodes, whatever the domain could hold.
        l.nodes = count(hw, "nodes", "hardware");
        if (ranks % l.nodes != 0) {
            skip("hardware.count " + std::to_string(ranks) + " is not a multiple of hardware.nodes " +
                 std::to_string(l.nodes));
        }
        l.ranks_per_node = ranks / l.nodes;
        if (l.ranks_per_node > per_node) {
            skip("hardware.count / nodes = " + std::to_string(l.ranks_per_node) + " ranks per node exceeds hardware.per_node " +
                 std::to_string(per_node));
        }
        // Members stride apart fill ranks_per_node chips of each domain (stride 8: one per
        // 8-GPU node); when ranks_per_node does not divide the domain, the domain's first
        // level holds just the ranks (the same spans).
        if (l.nodes > 1) {
            if (per_node % l.ranks_per_node != 0) l.node_chips = l.ranks_per_node;
            l.stride = l.node_chips / l.ranks_per_node;
            l.system_chips = l.nodes * l.node_chips;
        }
    } else {
        l.nodes = (ranks + per_node - 1) / per_node;
        l.ranks_per_node = std::min(ranks, per_node);
    }
    const Json* fabric = optional_member(hw, "fabric");
    if (l.nodes > 1 && fabric && fabric->is_object()) {
        if (const Json* name = optional_member(*fabric, "name"); name && name->is_string()) {
            l.fabric = fabric_named(name->get<std::string>());
        }
    }
    if (l.nodes > 1 && fabric && fabric->is_object() && optional_member(*fabric, "nic_gbps_per_gpu") &&
        optional_member(*fabric, "nics_per_node")) {
        l.scale_out_gbps = fabric_gbps_per_rank(number_in(*fabric, "nic_gbps_per_gpu", "hardware.fabric", 1e-9, 1e8),
                                                count(*fabric, "nics_per_node", "hardware.fabric"), per_node,
                                                l.ranks_per_node);
    }
    return l;
}

void use_fabric(Json& system, const std::string& fabric) {
    if (fabric.empty() || !system.contains("network") || system["network"].size() < 2) return;
    Json& level = system["network"][1];
    level["fabric"] = fabric;
    for (const char* key : {"latency_us", "call_latency_us", "efficiency"}) level.erase(key);
    level["name"] = (*find_fabric(fabric))["name"];
}

}  // namespace envelope
