// Yields and package costs at the edges of their inputs: a tiny defect density keeps every
// yield in (0, 1] to its last digits, a yield too small to price is an error naming the field
// (never a $0 die nor an infinite total written as null), and every process-node preset loads
// through every entry point that accepts one. Expected values are worked by hand here.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "api.hpp"
#include "cost/die.hpp"
#include "cost/package.hpp"
#include "io/json_parse.hpp"
#include "presets/registry.hpp"

using namespace envelope;

namespace {

Json package(const std::string& text) { return parse_json_text(package_cost_json(text)); }

std::string error_path(const Json& r) { return r["ok"].get<bool>() ? "no error" : r["error"]["path"].get<std::string>(); }

}  // namespace

TEST_CASE("yield: a tiny defect density gives a yield just below 1 in every model, never above") {
    // x = D0·A/100 = 1e-4 · 1 / 100 = 1e-6 expected defects. By the series e^(−x) = 1 − x + x²/2 − …:
    // Poisson 1 − x + x²/2 = 0.9999990000005; negative binomial (α = 10) 1 − x + (α+1)/(2α)·x²
    // = 0.99999900000055; Murphy ((1 − e^(−x))/x)² = (1 − x/2 + x²/6)² = 1 − x + 7/12·x²
    // = 0.99999900000058333. Computed as 1 − e^(−x) the Murphy form kept 10 digits (and at
    // x = 1e-11 gave 1.00000017: a negative defect cost).
    Wafer w;
    w.usd = 9346;
    w.defect_density_per_cm2 = 1e-4;
    w.yield_model = YieldModel::poisson;
    CHECK(die_yield(1, w) == doctest::Approx(0.9999990000005).epsilon(1e-15));
    w.yield_model = YieldModel::negative_binomial;
    CHECK(die_yield(1, w) == doctest::Approx(0.99999900000055).epsilon(1e-15));
    w.yield_model = YieldModel::murphy;
    CHECK(die_yield(1, w) == doctest::Approx(0.99999900000058333).epsilon(1e-15));

    for (const YieldModel m : {YieldModel::poisson, YieldModel::negative_binomial, YieldModel::murphy}) {
        w.yield_model = m;
        for (double d0 = 1e-12; d0 <= 1e-3; d0 *= 3.7) {
            for (const double area : {1.0, 7.0, 100.0, 858.0, 5000.0}) {
                w.defect_density_per_cm2 = d0;
                const double y = die_yield(area, w);
                CHECK(y > 0);
                CHECK(y <= 1);
                CHECK(die_cost(area, w).defect_usd() >= 0);
            }
        }
    }
    // 1 mm² at 1e-9 /cm²: x = 1e-11, Y = 1 − 1e-11 to the digits a double holds near 1.
    w.defect_density_per_cm2 = 1e-9;
    CHECK(1 - die_yield(1, w) == doctest::Approx(1e-11).epsilon(1e-4));
}

TEST_CASE("a yield too small to price is an error naming the field, never a $0 die") {
    // Poisson at 100 defects/cm²: an 850 mm² die expects 850 defects, e^(−850) underflows to 0
    // (the package was priced at $37.88); 700 mm²: e^(−700) = 9.9e-305 and the totals overflowed
    // to infinity, written as null.
    for (const int area : {850, 700}) {
        const Json r = package(R"({"yield_model": "poisson", "dies": [{"area_mm2": )" + std::to_string(area) +
                               R"(, "node": {"wafer_usd": 9346, "defect_density_per_cm2": 100}}]})");
        REQUIRE_FALSE(r["ok"].get<bool>());
        CHECK(r["error"]["path"] == "dies[0].area_mm2");
        CHECK(r["error"]["message"].get<std::string>().find("below 1e-12") != std::string::npos);
    }
    // The floor, 1e-12, by hand at 4 defects/cm² (Poisson): 675 mm² → e^(−27) = 1.88e-12 is priced,
    // 700 mm² → e^(−28) = 6.9e-13 is not.
    const auto at = [](int area) {
        return package(R"({"yield_model": "poisson", "dies": [{"area_mm2": )" + std::to_string(area) +
                       R"(, "node": {"wafer_usd": 9346, "defect_density_per_cm2": 4}}]})");
    };
    const Json priced = at(675);
    REQUIRE(priced["ok"].get<bool>());
    CHECK(priced["dies"][0]["yield"].get<double>() == doctest::Approx(1.8795e-12).epsilon(1e-4));
    CHECK(std::isfinite(priced["total_usd"].get<double>()));
    CHECK(error_path(at(700)) == "dies[0].area_mm2");

    // 1,024 parts bonded at 1 % each: 0.01^1024 underflows; the package yield names its input.
    CHECK(error_path(package(R"({"substrate_bonding_yield": 0.01,
        "dies": [{"area_mm2": 1, "count": 1024, "node": "7nm-actuary-2022"}]})")) == "substrate_bonding_yield");
    // an interposer at 100 defects/cm² over 1,100 mm²: (1 + 1100/6)^(−6) = 2.5e-14 (α 6)
    CHECK(error_path(package(R"({"kind": "si_interposer", "interposer_defect_density_per_cm2": 100,
        "dies": [{"area_mm2": 500, "count": 2, "node": "7nm-actuary-2022"}]})")) == "interposer_defect_density_per_cm2");

    // The same checks in a scenario's cost block, with the path from the scenario's root.
    const Json e = parse_json_text(evaluate_json(R"({"model": "llama-3-8b", "system": {"chip": "h100-sxm", "count": 1},
        "workload": {"precision": "bf16", "batch": 1, "input_tokens": 128, "output_tokens": 16},
        "cost": {"package": {"yield_model": "poisson",
                             "dies": [{"area_mm2": 850, "node": {"wafer_usd": 9346, "defect_density_per_cm2": 100}}]}}})"));
    CHECK(error_path(e) == "cost.package.dies[0].area_mm2");
}

TEST_CASE("a die larger than one scanner field (26 × 33 mm = 858 mm²) is refused, split into dies it is priced (issue 22)") {
    // The largest die that one exposure prints: 26 mm × 33 mm = 858 mm². NVIDIA's GH100 (814 mm²)
    // is near it; a 1,600 mm² single die is not a design, two 800 mm² dies are (B200 is two).
    const auto die = [](const std::string& area, int count) {
        return package(R"({"dies": [{"area_mm2": )" + area + R"(, "count": )" + std::to_string(count) +
                       R"(, "node": "5nm-actuary-2022"}]})");
    };
    CHECK(die("858", 1)["ok"].get<bool>());
    const Json big = die("858.5", 1);
    REQUIRE_FALSE(big["ok"].get<bool>());
    CHECK(big["error"]["path"] == "dies[0].area_mm2");
    CHECK(big["error"]["message"].get<std::string>().find("reticle limit, 858 mm²") != std::string::npos);
    CHECK(error_path(die("1600", 1)) == "dies[0].area_mm2");
    CHECK(die("800", 2)["ok"].get<bool>());
    // In a trade-off the over-reticle design is a point with that error, not a ranked design.
    const Json t = parse_json_text(tradeoff_json(R"({"scenario": {"model": "llama-3.1-8b", "system": {"chip": "h100-sxm", "count": 1},
        "workload": {"precision": "bf16", "batch": 8, "input_tokens": 512, "output_tokens": 64},
        "cost": {"pricing": "owned", "package": {"kind": "si_interposer", "dies": [{"area_mm2": 800, "node": "5nm-actuary-2022"}],
                 "hbm": {"stacks": 4, "usd_per_stack": 300, "area_mm2": 110}}}},
        "knobs": [{"knob": "die_area_mm2", "values": [800, 1600]}, {"knob": "chiplets", "values": [1, 2]}]})"));
    REQUIRE(t["ok"].get<bool>());
    REQUIRE(t["points"].size() == 4);
    CHECK(t["points"][0]["ok"] == true);   // 800 mm², one die
    CHECK(t["points"][1]["ok"] == true);   // 800 mm² as two 400 mm² dies
    CHECK(t["points"][2]["ok"] == false);  // 1,600 mm² as one die
    CHECK(t["points"][2]["error"]["path"] == "cost.package.dies[0].area_mm2");
    CHECK(t["points"][3]["ok"] == true);   // 1,600 mm² as two 800 mm² dies
}

TEST_CASE("every process-node preset loads through every entry point that accepts one") {
    const Json& nodes = (*cost_document("process-nodes"))["nodes"];
    REQUIRE(nodes.size() >= 21);
    Json values = Json::array();
    for (const Json& n : nodes) {
        const std::string id = n["id"].get<std::string>();
        values.push_back(id);
        // package-cost (the CLI's and the page's), in every yield model
        for (const char* model : {"negative_binomial", "poisson", "murphy"}) {
            const Json r = package(R"({"yield_model": ")" + std::string(model) + R"(", "dies": [{"area_mm2": 600, "node": ")" + id + R"("}]})");
            CHECK_MESSAGE(r["ok"] == true, id, " ", model, ": ", r.dump());
            if (r["ok"] == true) CHECK(r["total_usd"].get<double>() > 0);
        }
        // a scenario's cost.package (eval)
        const Json e = parse_json_text(evaluate_json(R"({"model": "llama-3-8b", "system": {"chip": "h100-sxm", "count": 1},
            "workload": {"precision": "bf16", "batch": 1, "input_tokens": 128, "output_tokens": 16},
            "cost": {"pricing": "owned", "package": {"dies": [{"area_mm2": 600, "node": ")" + id + R"("}]}}})"));
        CHECK_MESSAGE(e["ok"] == true, id, ": ", e.dump().substr(0, 300));
    }
    // the trade-off's process_node knob, every preset a point
    const Json t = parse_json_text(tradeoff_json(R"({"scenario": {"model": "llama-3.1-8b",
        "system": {"chip": "h100-sxm", "count": 1},
        "workload": {"precision": "bf16", "batch": 8, "input_tokens": 512, "output_tokens": 512},
        "cost": {"pricing": "owned", "package": {"dies": [{"area_mm2": 600, "node": "5nm-actuary-2022"}]}}},
        "knobs": [{"knob": "process_node", "values": )" + values.dump() + "}]}"));
    REQUIRE_MESSAGE(t["ok"] == true, t.dump().substr(0, 300));
    REQUIRE(t["points"].size() == nodes.size());
    for (const Json& p : t["points"]) CHECK_MESSAGE(p["ok"] == true, p.dump().substr(0, 300));

    // By hand, the preset of the issue: 600 mm² at CSET's 5 nm ($16,988, D0 0.11 as Chiplet
    // Actuary's 5 nm): Y = (1 + 0.11·6/10)^(−10) = 1.066^(−10) = e^(−0.639133) = 0.527750.
    const Json r = package(R"({"dies": [{"area_mm2": 600, "node": "5nm-cset-2020"}]})");
    REQUIRE(r["ok"] == true);
    CHECK(r["dies"][0]["yield"].get<double>() == doctest::Approx(0.527750).epsilon(1e-5));
}
