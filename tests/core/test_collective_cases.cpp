// Measured collective cases across nodes (presets/measured/FORMAT.md `hardware.nodes`,
// `hardware.fabric`; METHODOLOGY.md §20.2): the ranks spread over the nodes the case names, and
// the scale-out bandwidth a rank gets from its node's NICs.
#include <doctest/doctest.h>

#include <string>

#include "validation/collective_layout.hpp"
#include "measured_fixtures.hpp"
#include "validation/measured_case.hpp"
#include "validation/predict.hpp"

using namespace envelope;
using envelope::test::skip_reason;

namespace {

// nccl-tests all_reduce_perf of 1 GiB on two H100 hosts, one rank on each (mpirun -npernode 1),
// every host an 8-GPU HGX board with one 400 Gb/s NIC per GPU.
Json two_hosts_one_rank_each() {
    return Json::parse(R"({
      "id": "x", "source": "test", "kind": "collective",
      "hardware": {"chip": "H100-SXM", "count": 2, "per_node": 8, "scale_up_gbps": 450, "scale_out_gbps": null,
                   "nodes": 2, "fabric": {"name": "InfiniBand NDR", "nic_gbps_per_gpu": 400, "nics_per_node": 8}},
      "collective": {"op": "all_reduce", "bytes": 1073741824, "dtype": "float", "algorithm": null},
      "measured": {"busbw_gbps": 45}, "primary": "busbw_gbps"
    })");
}

}  // namespace

TEST_CASE("a fabric's NICs per node, shared by the node's ranks, give each rank its scale-out bandwidth") {
    // AWS p5: 32 EFA NICs of 100 Gb/s = 3200 Gb/s a node, 400 Gb/s per GPU; 8 ranks share it:
    // 3200 / 8 / 8 = 50 GB/s a rank (the case's own scale_out_gbps).
    CHECK(fabric_gbps_per_rank(400, 32, 8, 8) == doctest::Approx(50));
    // AWS p4de: 4 × 100 Gb/s = 400 Gb/s a node (50 per GPU) over 8 ranks: 6.25 GB/s.
    CHECK(fabric_gbps_per_rank(50, 4, 8, 8) == doctest::Approx(6.25));
    // One 400 Gb/s NIC shared by 4 GPUs (100 Gb/s each), 4 ranks: 12.5 GB/s.
    CHECK(fabric_gbps_per_rank(100, 1, 4, 4) == doctest::Approx(12.5));
    // One rank on an 8-rail node (8 × 400 Gb/s): it drives its own rail only, 400 / 8 = 50 GB/s,
    // not the node's 3200 Gb/s.
    CHECK(fabric_gbps_per_rank(400, 8, 8, 1) == doctest::Approx(50));
    // One rank on a node whose 8 GPUs share one 400 Gb/s NIC (50 Gb/s each): the whole NIC, 50 GB/s.
    CHECK(fabric_gbps_per_rank(50, 1, 8, 1) == doctest::Approx(50));
    // Two ranks of that node share it: 25 GB/s each.
    CHECK(fabric_gbps_per_rank(50, 1, 8, 2) == doctest::Approx(25));
}

TEST_CASE("ranks spread over hardware.nodes: count / nodes per node, stride apart") {
    const Json hw = two_hosts_one_rank_each()["hardware"];
    const CollectiveLayout one = collective_layout(hw, 2);
    CHECK(one.nodes == 2);
    CHECK(one.ranks_per_node == 1);
    CHECK(one.node_chips == 8);
    CHECK(one.stride == 8);  // chips 0 and 8: one on each host
    CHECK(one.system_chips == 16);
    CHECK(one.scale_out_gbps == doctest::Approx(50));

    Json four = hw;
    four["nodes"] = 4;
    const CollectiveLayout l = collective_layout(four, 16);  // 4 of the 8 GPUs of each of 4 hosts
    CHECK(l.ranks_per_node == 4);
    CHECK(l.stride == 2);
    CHECK(l.system_chips == 32);
    CHECK(l.scale_out_gbps == doctest::Approx(50));  // 3200 Gb/s over 8 rails; a rank has its own

    Json odd = hw;
    odd["nodes"] = 2;
    const CollectiveLayout o = collective_layout(odd, 6);  // 3 a node: 3 does not divide 8
    CHECK(o.node_chips == 3);
    CHECK(o.stride == 1);

    Json no_nodes = hw;  // without `nodes`: consecutive ranks filling per_node chips a node
    no_nodes.erase("nodes");
    const CollectiveLayout c = collective_layout(no_nodes, 16);
    CHECK(c.nodes == 2);
    CHECK(c.stride == 1);
    CHECK(c.system_chips == 16);

    Json bad = two_hosts_one_rank_each();
    bad["hardware"]["count"] = 3;
    CHECK(skip_reason(bad) == "hardware.count 3 is not a multiple of hardware.nodes 2");
    bad["hardware"]["count"] = 32;
    CHECK(skip_reason(bad) == "hardware.count / nodes = 16 ranks per node exceeds hardware.per_node 8");
}

TEST_CASE("a 2-rank all-reduce over 2 nodes crosses the NIC: 1 GiB at 46.95 GB/s bus bandwidth, not NVLink") {
    // Hand-derived: the group is chips 0 and 8 (stride 8), one span of p = 2 on the scale-out
    // level of the H100's reference system (dgx-h100: InfiniBand NDR, α 2.7 µs, c 6.6 µs, η 0.94,
    // LL cap 45 GB/s), whose link is the fabric's 400 Gb/s a rank = 50 GB/s, so B = 50 · 0.94 = 47
    // GB/s. Ring all-reduce, p = 2: s = 2(p−1) = 2 steps, r = 2(p−1)/p = 1 byte per byte.
    //   Simple: 6.6 + 4.8 + 2·(2.7 + 2.93) = 22.66 µs + 2^30 B / 47 GB/s = 22.845571 ms → 22.868231 ms
    //   LL:     at B/2 = 23.5 GB/s: 45.7 ms;  tree: 2n / B = 45.7 ms.   Simple wins.
    // busbw = algbw · 2(p−1)/p = 2^30 / 22.868231 ms = 46.953 GB/s (the ring's bound, B = 47).
    Json doc = two_hosts_one_rank_each();
    const MeasuredCase c = read_measured_case(doc);
    CHECK(c.stride == 8);
    Json request;
    CHECK(predict_case(c, &request) == doctest::Approx(46.953).epsilon(1e-4));
    CHECK(request["stride"] == 8);
    CHECK(request["system"]["network"][0]["size"] == 8);

    // Read as it was before `nodes` (2 ranks ≤ 8 per node: one node), NVLink's 450 GB/s made it
    // several times faster than the NIC allows.
    Json one_node = doc;
    one_node["hardware"].erase("nodes");
    CHECK(predict_case(read_measured_case(one_node)) > 5 * 46.953);

    // Without a fabric, the case's scale_out_gbps; without that, the preset's 50 GB/s NIC.
    doc["hardware"].erase("fabric");
    CHECK(predict_case(read_measured_case(doc)) == doctest::Approx(46.953).epsilon(1e-4));
    doc["hardware"]["scale_out_gbps"] = 25;  // a 200 Gb/s NIC: B = 23.5, Simple 22.66 µs + 45.69 ms
    CHECK(predict_case(read_measured_case(doc)) == doctest::Approx(23.488).epsilon(1e-3));
}
