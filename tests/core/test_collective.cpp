// The roofline bound of a collective: the ring's bytes (or NVLS's) at the link bandwidth,
// no latency, worked out by hand.
#include <doctest/doctest.h>

#include "network/collective.hpp"

using namespace envelope;

TEST_CASE("the collective bound moves the ring's bytes at the sustained bandwidth, without latency") {
    NetworkLevel l;
    l.size = 8;
    l.links_per_chip = 18;
    l.link_gbps = 25;
    l.latency_us = 2;
    l.efficiency = 0.8;
    const double B = 450e9 * 0.8;
    const double n = 16.0 * 1024 * 1024;
    const auto bound = [&](CollectiveKind k, int64_t p) { return level_bound(k, Span{&l, 0, -1, p}); };

    // All-reduce over 8 chips of a 16 MiB buffer: 2·(7/8)·n/B, no latency term.
    const AlphaBeta ar = bound(CollectiveKind::all_reduce, 8);
    CHECK(ar.latency_s == 0);
    CHECK(ar.time(n) == doctest::Approx(2 * 7.0 / 8 * n / B).epsilon(1e-12));
    // All-gather and reduce-scatter move half of that; send/recv the buffer once.
    CHECK(bound(CollectiveKind::all_gather, 8).time(n) == doctest::Approx(7.0 / 8 * n / B).epsilon(1e-12));
    CHECK(bound(CollectiveKind::reduce_scatter, 8).time(n) == doctest::Approx(7.0 / 8 * n / B).epsilon(1e-12));
    CHECK(bound(CollectiveKind::send_recv, 2).time(n) == doctest::Approx(n / B).epsilon(1e-12));
    // With in-network reduction at 0.61 of the link the all-reduce sends the buffer once:
    // n / (450 GB/s · 0.61) beats the ring's 1.75·n / 360 GB/s.
    l.in_network_reduction.efficiency = 0.61;
    CHECK(bound(CollectiveKind::all_reduce, 8).time(n) == doctest::Approx(n / (450e9 * 0.61)).epsilon(1e-12));
    // One chip: nothing to do.
    CHECK(bound(CollectiveKind::all_reduce, 1).time(n) == 0);
}
