// Die salvage (cost/salvage.hpp): a die sold with some of its units switched off. Every
// expected value here is worked by hand from the yield models' closed forms, not from the
// quadrature the code uses: with k = n the whole die must be clean (the plain yield), and with
// two units of which one must work, 1 − (1 − e^(−X·u))² = 2e^(−X·u) − e^(−2X·u), so
//   Y = 2·L(c + u) − L(c + 2u),   L(s) = E[e^(−X·s)]
// where L is the yield model's own form at s expected defects: (1 + s/α)^(−α) (negative
// binomial), e^(−s) (Poisson), ((1 − e^(−s))/s)² (Murphy).
#include <doctest/doctest.h>

#include <cmath>

#include "api.hpp"
#include "cost/salvage.hpp"
#include "io/json_parse.hpp"

using namespace envelope;

namespace {

Wafer wafer(YieldModel model, double d0, double alpha = 10) {
    Wafer w;
    w.defect_density_per_cm2 = d0;
    w.critical_level = alpha;
    w.yield_model = model;
    return w;
}

}  // namespace

TEST_CASE("salvage: needing every unit is the plain yield, in every model") {
    for (const YieldModel m : {YieldModel::negative_binomial, YieldModel::poisson, YieldModel::murphy}) {
        for (const double alpha : {0.5, 3.0, 10.0, 200.0}) {
            const Wafer w = wafer(m, 0.11, alpha);
            const UnitRedundancy all{144, 144, 0.5};
            CHECK(salvage_yield(814, w, all) == doctest::Approx(die_yield(814, w)).epsilon(1e-9));
        }
    }
}

TEST_CASE("salvage: one of two units, by the closed forms") {
    // A = 200 mm² at D0 = 0.5 /cm²: 1 expected defect; half the area in two units:
    // c = 0.5 (the rest), u = 0.25 per unit.
    const UnitRedundancy one_of_two{2, 1, 0.5};
    const double nb = 2 * std::pow(1 + 0.75 / 2, -2) - std::pow(1 + 1.0 / 2, -2);  // α = 2
    CHECK(nb == doctest::Approx(0.6134).epsilon(1e-4));
    CHECK(salvage_yield(200, wafer(YieldModel::negative_binomial, 0.5, 2), one_of_two) == doctest::Approx(nb).epsilon(1e-9));
    const double poisson = 2 * std::exp(-0.75) - std::exp(-1.0);
    CHECK(salvage_yield(200, wafer(YieldModel::poisson, 0.5), one_of_two) == doctest::Approx(poisson).epsilon(1e-12));
    auto murphy = [](double s) { return std::pow(-std::expm1(-s) / s, 2); };
    CHECK(salvage_yield(200, wafer(YieldModel::murphy, 0.5), one_of_two) ==
          doctest::Approx(2 * murphy(0.75) - murphy(1.0)).epsilon(1e-9));
}

TEST_CASE("salvage: Poisson, three of four units, by the binomial") {
    // 1 expected defect: the rest e^(−0.5); each unit clean with y = e^(−0.125);
    // P(≥ 3 of 4) = y⁴ + 4y³(1 − y).
    const double y = std::exp(-0.125);
    const double expected = std::exp(-0.5) * (std::pow(y, 4) + 4 * std::pow(y, 3) * (1 - y));
    CHECK(expected == doctest::Approx(0.5638).epsilon(1e-3));
    CHECK(salvage_yield(200, wafer(YieldModel::poisson, 0.5), UnitRedundancy{4, 3, 0.5}) ==
          doctest::Approx(expected).epsilon(1e-12));
}

TEST_CASE("salvage: fewer units needed never yields less, and never beyond a clean rest of the die") {
    const Wafer w = wafer(YieldModel::negative_binomial, 0.11);
    double last = 0;
    for (int64_t k = 144; k >= 100; k -= 4) {
        const double y = salvage_yield(814, w, UnitRedundancy{144, k, 0.5});
        CHECK(y >= last);
        last = y;
    }
    // Bounded by the rest of the die alone: (1 + 0.11·4.07/10)^(−10) = 0.6453.
    CHECK(last <= std::pow(1 + 0.11 * 4.07 / 10, -10) + 1e-12);
    CHECK(last == doctest::Approx(0.6453).epsilon(1e-3));
}

TEST_CASE("package-cost: a die sold with units switched off costs less; its inputs are checked") {
    const auto cost = [](const std::string& die) {
        return parse_json_text(package_cost_json(R"({"dies":[{"area_mm2":814,"node":"5nm-actuary-2022")" + die + "}]}"));
    };
    const Json plain = cost("");
    const Json salvaged = cost(R"(,"units":144,"units_needed":132,"unit_area_share":0.5)");
    REQUIRE(salvaged["ok"].get<bool>());
    CHECK(salvaged["dies"][0]["defect_free_yield"].get<double>() == doctest::Approx(plain["dies"][0]["yield"].get<double>()));
    CHECK(salvaged["dies"][0]["yield"].get<double>() > plain["dies"][0]["yield"].get<double>());
    CHECK(salvaged["total_usd"].get<double>() < plain["total_usd"].get<double>());
    const Json missing = cost(R"(,"units":144,"units_needed":132)");
    CHECK(missing["error"]["path"] == "dies[0].unit_area_share");
    const Json too_many = cost(R"(,"units":144,"units_needed":150,"unit_area_share":0.5)");
    CHECK(too_many["error"]["path"] == "dies[0].units_needed");
    CHECK(too_many["error"]["message"].get<std::string>().find("144") != std::string::npos);
}

TEST_CASE("package-cost: the wafer's diameter, edge and scribe are inputs (the textbook die count)") {
    // Hennessy & Patterson, Computer Architecture 5th ed. §1.6: a 1.5 cm × 1.5 cm die on a
    // 30 cm wafer, no edge loss or scribe: π·15²/2.25 − π·30/√(2·2.25) = 314.16 − 44.43 = 269.73.
    // On a 200 mm wafer: π·100²/225 − π·200/√450 = 139.63 − 29.62 = 110.01.
    const auto dpw = [](const std::string& wafer) {
        const Json r = parse_json_text(package_cost_json(R"({)" + wafer + R"("dies":[{"area_mm2":225,"node":"7nm-actuary-2022"}]})"));
        return r["ok"].get<bool>() ? r["dies"][0]["dies_per_wafer"].get<double>() : -1.0;
    };
    CHECK(dpw(R"("edge_loss_mm":0,"scribe_lane_mm":0,)") == doctest::Approx(269.73).epsilon(1e-4));
    CHECK(dpw(R"("wafer_diameter_mm":200,"edge_loss_mm":0,"scribe_lane_mm":0,)") == doctest::Approx(110.01).epsilon(1e-4));
    CHECK(dpw("") < 269.73);  // the default 5 mm edge and 0.2 mm scribe cost dies
    const Json bad = parse_json_text(package_cost_json(R"({"wafer_diameter_mm":600,"dies":[{"area_mm2":225,"node":"7nm-actuary-2022"}]})"));
    CHECK(bad["error"]["path"] == "wafer_diameter_mm");
}

TEST_CASE("trade-off: split into chiplets, each carries its share of the units and of those needed") {
    // 144 units of which 132 needed on one 800 mm² die; as two chiplets each has 72 and needs
    // ⌈132/2⌉ = 66: the same package as two 400 mm² dies given 72/66 by hand.
    const std::string pkg = R"("kind": "si_interposer", "hbm": {"stacks": 4, "usd_per_stack": 300, "area_mm2": 110})";
    const Json t = parse_json_text(tradeoff_json(
        R"({"scenario": {"model": "llama-3.1-8b", "system": {"chip": "h100-sxm", "count": 1},
            "workload": {"precision": "bf16", "batch": 8, "input_tokens": 512, "output_tokens": 512},
            "cost": {"pricing": "owned", "package": {)" + pkg + R"(, "dies": [{"area_mm2": 800, "node": "5nm-actuary-2022",
                "units": 144, "units_needed": 132, "unit_area_share": 0.5}]}}},
            "knobs": [{"knob": "chiplets", "values": [2]}]})"));
    REQUIRE(t["ok"].get<bool>());
    const Json by_hand = parse_json_text(package_cost_json("{" + pkg + R"(, "dies": [{"area_mm2": 400, "count": 2,
        "node": "5nm-actuary-2022", "units": 72, "units_needed": 66, "unit_area_share": 0.5}]})"));
    REQUIRE(by_hand["ok"].get<bool>());
    CHECK(t["points"][0]["package_usd"].get<double>() == doctest::Approx(by_hand["total_usd"].get<double>()).epsilon(1e-12));
}
