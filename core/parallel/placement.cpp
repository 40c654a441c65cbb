#include "parallel/placement.hpp"

#include <algorithm>

#include "parallel/expert_layout.hpp"

namespace envelope {

Spans place_group(const Network& net, int64_t size, int64_t stride) {
    Spans spans;
    if (size <= 1) return spans;
    int64_t unit = 1;     // chips in one unit of the current level
    int64_t members = 1;  // the group's members inside one such unit
    const auto visit = [&](const NetworkLevel& level, std::size_t index, int dim, int64_t level_size) {
        if (members >= size) return;
        unit *= level_size;
        const int64_t inside = std::clamp<int64_t>(unit / stride, 1, size);
        if (inside > members) {
            spans.push_back(Span{&level, index, dim, (inside + members - 1) / members});
            members = inside;
        }
    };
    for (std::size_t i = 0; i < net.levels.size(); ++i) {
        const NetworkLevel& level = net.levels[i];
        if (level.topology == Topology::torus && !level.dims.empty()) {
            for (std::size_t d = 0; d < level.dims.size(); ++d) visit(level, i, static_cast<int>(d), level.dims[d]);
        } else {
            visit(level, i, -1, level.size);
        }
    }
    return spans;
}

Placement place(const Parallelism& p, const Network& net) {
    Placement out;
    int64_t stride = 1;
    int64_t dp_stride = 1;
    for (ParallelDim d : p.order) {
        if (d == ParallelDim::ep) continue;  // inside dp: placed below
        DimensionPlacement& dim = out.dims[static_cast<std::size_t>(d)];
        dim.dim = d;
        dim.size = p.degree(d);
        dim.stride = stride;
        dim.spans = place_group(net, dim.size, stride);
        if (d == ParallelDim::dp) dp_stride = stride;
        stride *= dim.size;
    }
    DimensionPlacement& ep = out.dims[static_cast<std::size_t>(ParallelDim::ep)];
    ep.dim = ParallelDim::ep;
    ep.size = p.ep;
    // Carved out of DP: dp's stride; folded over tp-cp-dp: right after the ETP group.
    const ExpertLayout e = expert_layout(p);
    ep.stride = e.folded ? e.etp : dp_stride;
    ep.spans = place_group(net, p.ep, ep.stride);
    // The expert TP group gets collectives of its own only when it spans several attention
    // groups (moe_tp > tp): innermost, stride 1.
    DimensionPlacement& etp = out.dims[static_cast<std::size_t>(ParallelDim::etp)];
    etp.dim = ParallelDim::etp;
    etp.size = e.folded && e.etp > p.tp ? e.etp : 1;
    etp.stride = 1;
    etp.spans = place_group(net, etp.size, 1);
    return out;
}

namespace {

bool nested(int64_t a, int64_t b) { return a % b == 0 || b % a == 0; }

// The chips in one unit of every level, innermost first (torus dimensions count as levels).
std::vector<int64_t> unit_chips(const Network& net) {
    std::vector<int64_t> out;
    int64_t unit = 1;
    for (const NetworkLevel& l : net.levels) {
        if (l.topology == Topology::torus && !l.dims.empty()) {
            for (int64_t d : l.dims) out.push_back(unit *= d);
        } else {
            out.push_back(unit *= l.size);
        }
    }
    return out;
}

}  // namespace

std::vector<std::string> placement_warnings(const Placement& placement, const Network& net) {
    std::vector<std::string> out;
    const std::vector<int64_t> units = unit_chips(net);
    for (const DimensionPlacement& d : placement.dims) {
        if (d.size <= 1) continue;
        const int64_t extent = d.stride * d.size;
        bool aligned = true;
        for (int64_t c : units) {
            if (c >= extent * 2 && c % extent == 0) break;  // whole groups inside: the rest is fine
            aligned = aligned && nested(c, d.stride) && nested(c, extent);
        }
        if (aligned) continue;
        out.push_back(std::string(to_string(d.dim)) + " groups of " + std::to_string(d.size) + " chips (stride " +
                      std::to_string(d.stride) + ") do not line up with the network's units; their collectives' "
                      "times are approximate");
    }
    return out;
}

}  // namespace envelope
