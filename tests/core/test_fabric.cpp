// Scale-out fabrics (METHODOLOGY.md §12.2 "Tree across nodes", §12.9): the transport presets, a
// level that names one, and all-reduces across nodes over NIC rails, each number worked by hand.
#include <doctest/doctest.h>

#include "common/error.hpp"
#include "io/fabric_json.hpp"
#include "io/scenario_json.hpp"
#include "network/nccl_tests.hpp"
#include "parallel/placement.hpp"

using namespace envelope;

namespace {

NetworkLevel level(int64_t size, Topology t, int64_t links, double link_gbps, double alpha_us, double call_us,
                   double efficiency) {
    NetworkLevel l;
    l.size = size;
    l.topology = t;
    l.links_per_chip = links;
    l.link_gbps = link_gbps;
    l.latency_us = alpha_us;
    l.call_latency_us = call_us;
    l.efficiency = efficiency;
    return l;
}

// 8 GPUs on a 450 GB/s switch at 0.81 (364.5 GB/s), nodes joined by one 400 Gb/s rail per GPU
// (50 GB/s) at 0.94 (47 GB/s): DGX H100 without NVLS.
Network dgx_like(int64_t nodes) {
    Network n;
    n.levels.push_back(level(8, Topology::switch_, 18, 25, 0.47, 10.8, 0.81));
    n.levels.push_back(level(nodes, Topology::fat_tree, 1, 50, 2.7, 6.6, 0.94));
    return n;
}

}  // namespace

TEST_CASE("fabric presets: every one names a transport and its three numbers, with a source") {
    const auto keys = fabric_keys();
    CHECK(keys.size() >= 8);
    for (const std::string& k : keys) {
        CAPTURE(k);
        const Json& f = *find_fabric(k);
        CHECK(f["latency_us"].get<double>() >= 0);
        CHECK(f["call_latency_us"].get<double>() >= 0);
        CHECK(f["efficiency"].get<double>() > 0);
        CHECK(f["efficiency"].get<double>() <= 1);
        CHECK(!f["source"].get<std::string>().empty());
        CHECK(f["names"].is_array());
    }
}

TEST_CASE("fabric names: the longest preset name found in a case's fabric name wins") {
    CHECK(fabric_named("AWS EFA v2 (p5: 32x 100 Gb/s EFA per instance)") == "efa-v2");
    CHECK(fabric_named("AWS EFA (p4de: 4x 100 Gb/s EFA per instance)") == "efa-v1");
    CHECK(fabric_named("Lambda 1-Click Cluster InfiniBand (NCCL_IB_HCA=^mlx5_0)") == "infiniband-ndr");
    CHECK(fabric_named("RoCE v2, one 400 Gb/s NIC shared by 4 GPUs") == "roce-v2");
    CHECK(fabric_named("GPUDirect-TCPXO") == "gcp-tcpxo");
    CHECK(fabric_named("something else") == "");
}

TEST_CASE("a network level that names a fabric takes its latency and efficiency; an unknown one is an error") {
    const System p5 = parse_system(Json("aws-p5"), "system");
    REQUIRE(p5.network.levels.size() == 2);
    const NetworkLevel& efa = p5.network.levels[1];
    CHECK(efa.latency_us == doctest::Approx(22.6));   // presets/fabrics/efa-v2.json
    CHECK(efa.call_latency_us == doctest::Approx(6.6));
    CHECK(efa.efficiency == doctest::Approx(0.94));
    CHECK(efa.bandwidth_gbps() == doctest::Approx(50));  // 3200 Gb/s / 8 GPUs = 400 Gb/s = 50 GB/s

    Json bad = Json::array({Json{{"size", 8}, {"topology", "switch"}, {"links_per_chip", 1}, {"link_gbps", 100},
                                 {"latency_us", 1}, {"efficiency", 1}},
                            Json{{"size", 2}, {"topology", "fat_tree"}, {"links_per_chip", 1}, {"link_gbps", 50},
                                 {"fabric", "carrier-pigeon"}}});
    const Json sys = {{"chip", "h100-sxm"}, {"count", 16}, {"network", bad}};
    CHECK_THROWS_WITH_AS(parse_system(sys, "system"), doctest::Contains("not a fabric preset"), InputError);
}

TEST_CASE("ring all-reduce over 2 nodes x 8 GPUs with 8 x 400 Gb/s rails: the bus bandwidth bound by hand") {
    // Flat ring through 16 GPUs: each chip's NVLink gives 364.5 GB/s, the node's 8 rails give
    // each chip of the node one rail, 47 GB/s, driven by 8 ring channels → 8 x 47 = 376 GB/s
    // per node; the ring runs at min(364.5, 376) = 364.5 GB/s, so its bus bandwidth bound is
    // 364.5 GB/s (busbw = algbw · 2(p−1)/p and the ring moves 2(p−1)/p · n per chip).
    const Network net = dgx_like(2);
    const Spans spans = place_group(net, 16, 1);
    CollectiveOptions ring;
    ring.force = CollectiveOptions::Force::ring;
    const double n = 16.0 * 1024 * 1024 * 1024;
    const CollectivePoint p = collective_point(CollectiveKind::all_reduce, spans, n, ring);
    // t = 122.06 µs (METHODOLOGY §12.3: 10.8 + 4.8 + 28·0.47 + 2·2.7 + 30·2.93) + 1.875·n/364.5 GB/s
    const double t = 122.06e-6 + 1.875 * n / 364.5e9;
    CHECK(p.time_s == doctest::Approx(t).epsilon(1e-4));
    CHECK(p.busbw_gbps == doctest::Approx(1.875 * n / t / 1e9).epsilon(1e-4));
    CHECK(p.busbw_gbps < 364.5);
}

TEST_CASE("tree across two nodes: the rails carry n per node, twice the ring's bound when NVLink is not the limit") {
    // Same nodes, but the rails at 12.5 GB/s (100 Gb/s per GPU) so they bind. Ring: per node
    // 8 x 12.5 x 0.94 = 94 GB/s → bus bandwidth ≤ 94. Tree over 2 nodes: each GPU's shard n/8
    // crosses its rail once each way: spb = (1/8) / (12.5 · 0.94 GB/s) = 1/94 GB/s per byte of n,
    // and NVLink's ring all-reduce part 1.75/364.5 GB/s = 1/208.3 GB/s is faster → spb = 1/94 GB/s,
    // bus bandwidth bound 1.875 × 94 = 176.25 GB/s.
    Network net = dgx_like(2);
    net.levels[1].link_gbps = 12.5;
    const Spans spans = place_group(net, 16, 1);
    const double n = 64.0 * 1024 * 1024 * 1024;
    const CollectivePoint p = collective_point(CollectiveKind::all_reduce, spans, n, CollectiveOptions{});
    CHECK(p.algorithm == Algorithm::double_binary_tree);
    // latency: NVLink ring Simple part 10.8 + 4.8 + 14·(0.47 + 2.93) = 63.2 µs, tree part
    // 6.6 + 4.8 + 2·1·(2.7 + 2.93) = 22.66 µs, pipeline fill 64 MiB / 94 GB/s = 713.9 µs.
    const double spb = 1 / 94e9;
    const double latency = 63.2e-6 + 22.66e-6 + 67108864 * spb;
    CHECK(p.time_s == doctest::Approx(latency + spb * n).epsilon(1e-4));
    CHECK(p.bound_time_s == doctest::Approx(spb * n).epsilon(1e-4));
    // Four nodes: each node moves 2n in the double binary tree, no better than the flat ring.
    Network four = net;
    four.levels[1].size = 4;
    const CollectivePoint q =
        collective_point(CollectiveKind::all_reduce, place_group(four, 32, 1), n, CollectiveOptions{});
    CHECK(q.algorithm != Algorithm::double_binary_tree);
}
