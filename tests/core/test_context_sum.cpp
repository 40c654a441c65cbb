// The closed-form sum over decode contexts must equal a token-by-token loop.
#include <doctest/doctest.h>

#include <random>

#include "fixtures.hpp"
#include "inference/evaluate.hpp"
#include "ops/lower.hpp"
#include "parallel/placement.hpp"
#include "perf/context_sum.hpp"

using namespace envelope;

namespace {

TimeSum brute_force(const Roofs& r, int64_t first, int64_t last) {
    TimeSum t;
    for (int64_t L = first; L <= last; ++L) {
        const TimeSum one = time_at(r, static_cast<double>(L));
        t.total_s += one.total_s;
        for (int b = 0; b < kBoundCount; ++b) t.by_bound_s[b] += one.by_bound_s[b];
    }
    return t;
}

}  // namespace

TEST_CASE("sum of an affine quantity over a range") {
    CHECK(sum_affine({3, 2}, 1, 4) == 3 * 4 + 2 * (1 + 2 + 3 + 4));
    CHECK(sum_affine({3, 2}, 5, 4) == 0);  // empty range
    CHECK(sum_affine({0, 1}, 7, 7) == 7);
}

TEST_CASE("max-of-roofs sum equals the per-token loop, including regime changes") {
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> base(0.0, 1e-3), slope(-1e-6, 1e-6);
    for (int trial = 0; trial < 500; ++trial) {
        Roofs r{{base(rng), slope(rng)}, {base(rng), slope(rng)}, {base(rng), std::abs(slope(rng))}};
        const int64_t first = 1 + static_cast<int64_t>(base(rng) * 1e6);
        const int64_t last = first + static_cast<int64_t>(base(rng) * 3e6);
        const TimeSum closed = sum_over_context(r, first, last);
        const TimeSum loop = brute_force(r, first, last);
        REQUIRE(closed.total_s == doctest::Approx(loop.total_s).epsilon(1e-9));
        for (int b = 0; b < kBoundCount; ++b) {
            CHECK(closed.by_bound_s[b] == doctest::Approx(loop.by_bound_s[b]).epsilon(1e-9).scale(loop.total_s));
        }
    }
}

TEST_CASE("a roof crossing inside the range splits the time between bounds") {
    // compute = 10 + 0·L, memory = 0 + 1·L: memory binds from L = 11 on.
    const Roofs r{{10, 0}, {0, 1}, {0, 0}};
    const TimeSum t = sum_over_context(r, 1, 20);
    CHECK(t.by_bound_s[static_cast<int>(Bound::compute)] == 10 * 10);     // L = 1 … 10 (tie at 10)
    CHECK(t.by_bound_s[static_cast<int>(Bound::memory)] == 11 + 12 + 13 + 14 + 15 + 16 + 17 + 18 + 19 + 20);
}

TEST_CASE("decode time of a whole generation equals stepping through every token") {
    for (bool flash : {true, false}) {
        Scenario s = test::tiny_scenario(2, 8, 300, 700);
        s.workload.inference.flash_attention = flash;
        const Result r = evaluate_inference(s);

        const Stage stage = test::whole_model(s);
        const Pass pass = decode_pass(8, 1000);
        const std::vector<Op> ops = lower_forward(
            LowerInput{s.model, stage, s.parallelism, s.workload.inference.precision, pass, s.engine, flash});
        double loop = 0;
        for (int64_t L = 301; L <= 999; ++L) {
            for (const Op& op : ops) {
                const Spans spans = test::spans_of(s, op);
                const TimingContext ctx{s.system.chip, s.engine, TimingModel::expected};
                loop += op.count * time_at(roofs_of(op, &spans, ctx), static_cast<double>(L)).total_s;
            }
        }
        CHECK(r.phase("decode").steps == 699);
        CHECK(r.phase("decode").time_s == doctest::Approx(loop).epsilon(1e-10));
        CHECK(*r.summary.tpot_s == doctest::Approx(loop / 699).epsilon(1e-10));
    }
}
