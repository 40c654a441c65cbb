#include <doctest/doctest.h>

#include "network/collective.hpp"

using namespace envelope;

TEST_CASE("ring all-reduce and all-gather follow the α–β formulas") {
    NetworkLevel l;
    l.bandwidth_gbps = 450;
    l.latency_us = 2;
    l.efficiency = 0.8;
    const double B = 450e9 * 0.8;

    // All-reduce over 8 chips of a 16 MiB buffer: 2·7·2 µs + 2·(7/8)·n/B.
    const double n = 16.0 * 1024 * 1024;
    const AlphaBeta ar = collective_cost(CollectiveKind::all_reduce, 8, l);
    CHECK(ar.time(n) == doctest::Approx(28e-6 + 2 * 7.0 / 8 * n / B).epsilon(1e-12));

    // All-gather moves half the bytes and takes half the steps.
    const AlphaBeta ag = collective_cost(CollectiveKind::all_gather, 8, l);
    CHECK(ag.time(n) == doctest::Approx(14e-6 + 7.0 / 8 * n / B).epsilon(1e-12));

    // One chip: nothing to do.
    CHECK(collective_cost(CollectiveKind::all_reduce, 1, l).time(n) == 0);
}
