// Multi-level networks: where groups land (placement), what bandwidth a span reaches, and
// collectives across levels, each number worked out by hand in the comment beside it.
#include <doctest/doctest.h>

#include "network/collective.hpp"
#include "network/nccl_tests.hpp"
#include "parallel/placement.hpp"

using namespace envelope;

namespace {

NetworkLevel level(const char* name, int64_t size, Topology t, int64_t links, double link_gbps, double alpha_us,
                   double call_us) {
    NetworkLevel l;
    l.name = name;
    l.size = size;
    l.topology = t;
    l.links_per_chip = links;
    l.link_gbps = link_gbps;
    l.latency_us = alpha_us;
    l.call_latency_us = call_us;
    l.efficiency = 1;
    return l;
}

// 8-chip nodes on a 100 GB/s switch (α 1 µs, call 10 µs), nodes on a 10 GB/s fat tree
// (one NIC per chip, α 5 µs, call 20 µs).
Network two_levels(int64_t nodes) {
    Network n;
    n.levels.push_back(level("switch", 8, Topology::switch_, 1, 100, 1, 10));
    n.levels.push_back(level("fabric", nodes, Topology::fat_tree, 1, 10, 5, 20));
    return n;
}

}  // namespace

TEST_CASE("placement: each dimension's groups by size and stride, split over the levels") {
    const Network net = two_levels(128);
    // TP 8 on consecutive chips stays in the node.
    Spans s = place_group(net, 8, 1);
    REQUIRE(s.size() == 1);
    CHECK(s[0].level_index == 0);
    CHECK(s[0].size == 8);
    // A DP group of 2 with stride 8 (under TP 8) skips NVLink: one member per node.
    s = place_group(net, 2, 8);
    REQUIRE(s.size() == 1);
    CHECK(s[0].level_index == 1);
    CHECK(s[0].size == 2);
    // 16 consecutive chips: 8 in each of 2 nodes.
    s = place_group(net, 16, 1);
    REQUIRE(s.size() == 2);
    CHECK(s[0].size == 8);
    CHECK(s[1].size == 2);
    // TP 2 × DP 4 on one node, order tp, dp: the DP group (stride 2) has 4 members in the node.
    Parallelism p;
    p.tp = 2;
    p.dp = 4;
    const Placement pl = place(p, net);
    CHECK(pl.of(ParallelDim::dp).stride == 2);
    REQUIRE(pl.of(ParallelDim::dp).spans.size() == 1);
    CHECK(pl.of(ParallelDim::dp).spans[0].size == 4);
    // The order reversed (dp innermost): TP's stride becomes 4, still inside the node.
    p.order = {ParallelDim::dp, ParallelDim::tp, ParallelDim::cp, ParallelDim::ep, ParallelDim::pp};
    CHECK(place(p, net).of(ParallelDim::tp).stride == 4);

    // A 4 × 4 torus: 8 consecutive chips fill dimension 0 (4, a closed ring) and 2 of dimension 1.
    Network torus;
    torus.levels.push_back(level("ici", 16, Topology::torus, 4, 50, 1, 5));
    torus.levels[0].dims = {4, 4};
    s = place_group(torus, 8, 1);
    REQUIRE(s.size() == 2);
    CHECK(s[0].dim == 0);
    CHECK(s[0].size == 4);
    CHECK(s[1].dim == 1);
    CHECK(s[1].size == 2);
}

TEST_CASE("span bandwidth: a fully connected board, a chain, a torus dimension, an oversubscribed tree") {
    // MI300X-like: 7 links of 64 GB/s, one to each peer; a group of 4 reaches 3 of them.
    NetworkLevel fc = level("xgmi", 8, Topology::fully_connected, 7, 64, 1, 0);
    CHECK(span_bandwidth(Span{&fc, 0, -1, 4}) == doctest::Approx(3 * 64e9));
    CHECK(span_bandwidth(Span{&fc, 0, -1, 8}) == doctest::Approx(7 * 64e9));
    // A ring of 8 with two links of 50 GB/s per chip: the whole ring 100 GB/s, a chain of
    // 4 of them (no wraparound) half.
    NetworkLevel ring = level("ring", 8, Topology::ring, 2, 50, 1, 0);
    CHECK(span_bandwidth(Span{&ring, 0, -1, 8}) == doctest::Approx(100e9));
    CHECK(span_bandwidth(Span{&ring, 0, -1, 4}) == doctest::Approx(50e9));
    // A torus dimension: its two links (+ and −).
    NetworkLevel torus = level("ici", 16, Topology::torus, 4, 50, 1, 0);
    torus.dims = {4, 4};
    CHECK(span_bandwidth(Span{&torus, 0, 1, 4}) == doctest::Approx(100e9));
    // A 1:4 oversubscribed fat tree leaves a quarter.
    NetworkLevel tree = level("tree", 64, Topology::fat_tree, 1, 50, 1, 0);
    tree.oversubscription = 4;
    CHECK(span_bandwidth(Span{&tree, 0, -1, 16}) == doctest::Approx(12.5e9));
}

TEST_CASE("one flat ring over two levels: each level's hops at its α, the slowest level's bandwidth") {
    const Network net = two_levels(2);
    const Spans s = place_group(net, 16, 1);
    CollectiveOptions ring;
    ring.force = CollectiveOptions::Force::ring;
    // All-reduce on 16 chips: 30 steps, 28 inside the nodes (2·7·2) at 1 µs and 2 between
    // them (2·1) at 5 µs. Per-chip bandwidth: min(100, 8 NICs × 10) = 80 GB/s.
    //   Simple: call 20 + 4.8 + 30 · 2.93 + 28 + 10 = 150.7 µs + 2·(15/16)·n / 80 GB/s
    //   LL:     call 20 + 28 + 10 = 58 µs + 1.875·n / 40 GB/s
    const double n = 1e9;
    const CollectiveChoice big = group_collective(CollectiveKind::all_reduce, s, n, ring);
    CHECK(big.algorithm == Algorithm::ring_simple);
    CHECK(big.cost.latency_s == doctest::Approx(150.7e-6));
    CHECK(big.cost.time(n) == doctest::Approx(150.7e-6 + 1.875 * n / 80e9));
    const CollectiveChoice small = group_collective(CollectiveKind::all_reduce, s, 1e3, ring);
    CHECK(small.algorithm == Algorithm::ring_ll);
    CHECK(small.cost.time(1e3) == doctest::Approx(58e-6 + 1.875e3 / 40e9));
    // They cross where 92.7 µs = 1.875·n·(1/40 − 1/80) GB/s⁻¹: n = 3.955 MB.
    CHECK(group_collective(CollectiveKind::all_reduce, s, 3.9e6, ring).algorithm == Algorithm::ring_ll);
    CHECK(group_collective(CollectiveKind::all_reduce, s, 4.0e6, ring).algorithm == Algorithm::ring_simple);
}

TEST_CASE("hierarchical collectives: slower than one ring on 2 nodes, faster on 128 for 1 MB") {
    const double n = 1e6;
    // 128 nodes: one ring of 1024 chips has 2·7·128 = 1792 hops inside nodes and 254 between
    // them; with Simple (3.93 and 7.93 µs a hop) that is milliseconds, LL 1792 + 1270 µs.
    // Reduce-scatter in the node (Simple: 10 + 4.8 + 7·3.93 = 42.31 µs + (7/8)·n / 100 GB/s),
    // all-reduce of n/8 over 128 nodes (the tree: 20 + 4.8 + 14·7.93 = 135.82 µs +
    // 2·(n/8) / 10 GB/s), all-gather in the node: 220.44 µs + 17.5 µs + 25 µs = 262.94 µs.
    const Network wide = two_levels(128);
    const CollectiveChoice c = group_collective(CollectiveKind::all_reduce, place_group(wide, 1024, 1), n, {});
    CHECK(c.algorithm == Algorithm::hierarchical);
    CHECK(c.cost.time(n) == doctest::Approx(262.94e-6).epsilon(1e-6));
    // 2 nodes: the ring's 58 µs (LL) + 1.875 MB / 40 GB/s = 104.9 µs beats the hierarchy.
    const Network two = two_levels(2);
    const CollectiveChoice d = group_collective(CollectiveKind::all_reduce, place_group(two, 16, 1), n, {});
    CHECK(d.algorithm == Algorithm::ring_ll);
    CHECK(d.cost.time(n) == doctest::Approx(58e-6 + 1.875e6 / 40e9));
}

TEST_CASE("a torus all-reduce is one ring per dimension, the buffer shrinking between them") {
    Network net;
    net.levels.push_back(level("ici", 16, Topology::torus, 4, 50, 1, 5));
    net.levels[0].dims = {4, 4};
    const Spans s = place_group(net, 16, 1);
    // Reduce-scatter along dimension 0 (closed ring of 4, 100 GB/s): 5 + 3 µs + (3/4)·n/100 GB/s;
    // all-reduce along dimension 1 on n/4: 5 + 6 µs + 1.5·(n/4)/100 GB/s; all-gather back as
    // the reduce-scatter: 27 µs + 1.875·n / 100 GB/s. One flat ring would cost 5 + 30 µs.
    const double n = 64e6;
    const CollectiveChoice c = group_collective(CollectiveKind::all_reduce, s, n, {});
    CHECK(c.algorithm == Algorithm::hierarchical);
    CHECK(c.cost.time(n) == doctest::Approx(27e-6 + 1.875 * n / 100e9));
}

TEST_CASE("all-to-all: direct on a switch, bisection-bound on a ring, each level its share") {
    const double n = 8e6;
    NetworkLevel sw = level("switch", 8, Topology::switch_, 1, 100, 1, 10);
    // Direct: 10 + 7 µs + (7/8)·n / 100 GB/s.
    CHECK(level_collective(CollectiveKind::all_to_all, Span{&sw, 0, -1, 8}, n, {}).cost.time(n) ==
          doctest::Approx(17e-6 + 0.875 * n / 100e9));
    // A closed ring of 8 (100 GB/s per chip both ways): p·n/4 over the cut of 2·50 GB/s each
    // way = 8·n/4 / 100 GB/s, four times the direct bytes.
    NetworkLevel ring = level("ring", 8, Topology::ring, 2, 50, 1, 10);
    CHECK(level_collective(CollectiveKind::all_to_all, Span{&ring, 0, -1, 8}, n, {}).cost.time(n) ==
          doctest::Approx(17e-6 + 2 * n / 100e9));
    // Two levels, 16 chips: the fabric carries the half of each buffer bound for the other
    // node, (16 − 8)/16 · n at 10 GB/s; the switch 7/16 of it at 100 GB/s; the fabric binds.
    const Network net = two_levels(2);
    const CollectiveChoice c = group_collective(CollectiveKind::all_to_all, place_group(net, 16, 1), n, {});
    CHECK(c.cost.seconds_per_byte == doctest::Approx(0.5 / 10e9));
    CHECK(c.cost.latency_s == doctest::Approx(20e-6 + 7e-6 + 5e-6));  // the largest call, each level's hops
}

TEST_CASE("send/recv between pipeline stages crosses the outermost level the group spans") {
    const Network net = two_levels(4);
    // PP 4 with stride 8: one stage per node; a hop is one NIC: LL 20 + 5 µs + n / 5 GB/s
    // (Simple would take 20 + 4.8 + 7.93 µs + n / 10 GB/s: 33.73 µs at 10 kB).
    const Spans s = place_group(net, 4, 8);
    const double n = 1e4;
    CHECK(group_collective(CollectiveKind::send_recv, s, n, {}).cost.time(n) == doctest::Approx(25e-6 + n / 5e9));
}

TEST_CASE("nccl-tests bus bandwidth: algbw times the share each rank moves") {
    CHECK(bus_bandwidth_factor(CollectiveKind::all_reduce, 8) == doctest::Approx(1.75));
    CHECK(bus_bandwidth_factor(CollectiveKind::all_gather, 16) == doctest::Approx(15.0 / 16));
    CHECK(bus_bandwidth_factor(CollectiveKind::send_recv, 2) == 1);
    const Network net = two_levels(2);
    const CollectivePoint p = collective_point(CollectiveKind::all_reduce, place_group(net, 8, 1), 1e9, {});
    CHECK(p.algbw_gbps == doctest::Approx(1e9 / p.time_s / 1e9));
    CHECK(p.busbw_gbps == doctest::Approx(p.algbw_gbps * 1.75));
    CHECK(p.bound_time_s <= p.time_s);
}
