// Cost and energy (core/cost/): dies per wafer, yield and package cost worked by hand from
// Chiplet Actuary's formulas and inputs (Feng & Ma, DAC 2022; github.com/Yinxiao-Feng/
// chiplet-actuary parameter.ini: 7 nm wafer $9,346, D0 0.09 /cm², α 10, 300 mm wafer,
// 5 mm edge loss, 0.2 mm scribe lane), and dollars and joules per token from a scenario's
// throughput, its price and its power.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "api.hpp"
#include "common/error.hpp"
#include "cost/die.hpp"
#include "cost/package.hpp"
#include "cost/power.hpp"
#include "evaluate.hpp"
#include "fixtures.hpp"
#include "io/cost_json.hpp"
#include "io/json_parse.hpp"
#include "io/tradeoff_json.hpp"

using namespace envelope;

namespace {

Wafer actuary_7nm() {
    Wafer w;  // diameter 300, edge 5, scribe 0.2, α 10 are the struct's defaults (parameter.ini)
    w.usd = 9346;
    w.defect_density_per_cm2 = 0.09;
    return w;
}

// `n` equal dies of `total_mm2` together on an organic substrate (Actuary's OS inputs).
PackageSpec organic(double total_mm2, int64_t n, double d0) {
    PackageSpec p;
    DieSpec d;
    d.area_mm2 = total_mm2 / static_cast<double>(n);
    d.count = n;
    d.wafer = actuary_7nm();
    d.wafer.defect_density_per_cm2 = d0;
    p.dies = {d};
    return p;
}

// The smallest logic area (10 mm² steps) at which two chiplets cost less than one die.
double crossover_mm2(double d0) {
    for (double a = 20; a < 2000; a += 10) {
        if (package_cost(organic(a, 2, d0)).total_usd() < package_cost(organic(a, 1, d0)).total_usd()) return a;
    }
    return 0;
}

}  // namespace

TEST_CASE("dies per wafer: Hennessy and Patterson's 1.5 cm die on a 30 cm wafer, no edge loss or scribe") {
    Wafer w;
    w.edge_loss_mm = 0;
    w.scribe_lane_mm = 0;
    // π·15²/2.25 − π·30/√(2·2.25) = 314.16 − 44.43 = 269.73 (H&P, 5th ed., §1.6: "about 270")
    CHECK(dies_per_wafer(225, w) == doctest::Approx(269.73).epsilon(1e-4));
}

TEST_CASE("an 800 mm² die at 7 nm: dies per wafer, negative-binomial yield, known-good-die cost") {
    const DieCost c = die_cost(800, actuary_7nm());
    // A' = 800 + 2·0.2·√800 + 0.04 = 811.354; π·145²/811.354 − π·290/√1622.71 = 81.410 − 22.617
    CHECK(c.dies_per_wafer == doctest::Approx(58.793).epsilon(1e-4));
    CHECK(c.yield == doctest::Approx(0.49894).epsilon(1e-4));  // (1 + 0.09·8/10)^−10 = 1.072^−10
    CHECK(c.raw_usd == doctest::Approx(158.96).epsilon(1e-4));  // 9346 / 58.793
    CHECK(c.known_good_usd == doctest::Approx(318.60).epsilon(1e-4));  // 158.96 / 0.49894
}

TEST_CASE("Poisson and Murphy yields of 0.72 expected defects") {
    Wafer w = actuary_7nm();
    w.yield_model = YieldModel::poisson;
    CHECK(die_yield(800, w) == doctest::Approx(0.48675).epsilon(1e-4));  // e^−0.72
    w.yield_model = YieldModel::murphy;
    CHECK(die_yield(800, w) == doctest::Approx(0.50815).epsilon(1e-4));  // ((1 − e^−0.72)/0.72)²
    w.defect_density_per_cm2 = 0;
    CHECK(die_yield(800, w) == 1);
}

TEST_CASE("two 400 mm² chiplets on an organic substrate, by hand") {
    const PackageCost c = package_cost(organic(800, 2, 0.09));
    // one 400 mm² die: 129.984 per wafer, yield 1.036^−10 = 0.70211, raw 71.901, KGD 102.408
    CHECK(c.raw_dies_usd == doctest::Approx(147.80).epsilon(1e-4));     // 2·(71.901 + 400·0.005 C4 bumps)
    CHECK(c.die_defects_usd == doctest::Approx(61.013).epsilon(1e-4));  // 2·(102.408 − 71.901)
    // substrate 4 · 800 = 3200 mm² > 30·30: layer factor 2 → 3200 · 0.005 · 2
    CHECK(c.package_area_mm2 == doctest::Approx(3200));
    CHECK(c.raw_package_usd == doctest::Approx(32.0));
    CHECK(c.package_yield == doctest::Approx(0.9801));                 // 0.99 per bonded die
    CHECK(c.package_defects_usd == doctest::Approx(0.6497).epsilon(1e-3));  // 32 · (1/0.9801 − 1)
    CHECK(c.wasted_dies_usd == doctest::Approx(4.2397).epsilon(1e-3));      // 208.81 · (1/0.9801 − 1)
    CHECK(c.total_usd() == doctest::Approx(245.70).epsilon(1e-4));
    // the same logic as one 800 mm² die: 162.965 + 159.637 + 16 + 0.162 + 3.259
    CHECK(package_cost(organic(800, 1, 0.09)).total_usd() == doctest::Approx(342.02).epsilon(1e-4));
}

TEST_CASE("a Si interposer package (chip last): the interposer's own yield and the micro-bump bonds") {
    PackageSpec p = organic(800, 2, 0.09);
    p.kind = PackageKind::si_interposer;
    p.interposer_wafer.usd = 1937;  // Actuary: the 55 nm wafer
    p.interposer_wafer.defect_density_per_cm2 = 0.06;
    p.interposer_wafer.critical_level = 6;
    p.interposer_area_scale = 1.1;
    p.bonding_yield = 0.95;
    p.microbump_usd_per_mm2 = 0.01;
    const PackageCost c = package_cost(p);
    // interposer 880 mm²: A' = 891.906, 74.058 − 21.571 = 52.486 per wafer, yield (1 + .06·8.8/6)^−6 = 1.088^−6 = 0.60287
    CHECK(c.interposer_area_mm2 == doctest::Approx(880));
    CHECK(c.raw_dies_usd == doctest::Approx(151.80).epsilon(1e-4));  // 2·71.901 + 800·0.01 µbumps
    // interposer 1937/52.486 + 880·0.005 = 41.305, substrate 3520·0.005 = 17.6
    CHECK(c.raw_package_usd == doctest::Approx(58.905).epsilon(1e-3));
    const double y = 0.60287 * 0.95 * 0.95 * 0.99;
    CHECK(c.package_yield == doctest::Approx(y).epsilon(1e-4));
    CHECK(c.package_defects_usd == doctest::Approx(41.305 * (1 / y - 1) + 17.6 * (1 / 0.99 - 1)).epsilon(1e-3));
    CHECK(c.wasted_dies_usd == doctest::Approx((151.80 + 61.013) * (1 / (0.9025 * 0.99) - 1)).epsilon(1e-3));
}

TEST_CASE("chiplets beat one die above a crossover area, and it falls as defects rise") {
    // Worked in a spreadsheet from the same formulas: 390 mm² at 0.03 /cm², 160 at 0.09, 70 at 0.2.
    CHECK(crossover_mm2(0.03) == doctest::Approx(390).epsilon(0.03));
    CHECK(crossover_mm2(0.09) == doctest::Approx(160).epsilon(0.07));
    CHECK(crossover_mm2(0.2) == doctest::Approx(70).epsilon(0.15));
    CHECK(crossover_mm2(0.03) > crossover_mm2(0.09));
    CHECK(crossover_mm2(0.09) > crossover_mm2(0.2));
}

TEST_CASE("engineering cost is spread over the volume, a reused chiplet's over all its products") {
    PackageSpec p = organic(400, 1, 0.09);
    p.dies[0].nre_usd = 1e8;
    p.volume = 1e5;
    CHECK(package_cost(p).nre_usd == doctest::Approx(1000));  // 1e8 / 1e5
    p.dies[0].volume = 1e6;  // the same die sold in other packages too
    CHECK(package_cost(p).nre_usd == doctest::Approx(100));
}

TEST_CASE("chip power: idle plus the dynamic power the op's compute and memory activity draw") {
    Chip chip = test::round_chip();  // 10 TFLOP/s, 1 TB/s, efficiencies 1
    OpReport gemm;
    gemm.cls = OpClass::matmul;
    gemm.time_s = 1e-3;
    gemm.flops = 5e9;         // 5 TFLOP/s: half the compute roof
    gemm.bytes_read = 2e8;    // 0.2 TB/s: a fifth of the bandwidth
    CHECK(op_activity(gemm, chip, 0.35) == doctest::Approx(0.5 + 0.35 * 0.2));
    gemm.flops = 2e10;        // past the roof: capped at the board limit
    CHECK(op_activity(gemm, chip, 0.35) == 1);
    OpReport all_reduce;
    all_reduce.cls = OpClass::collective;
    all_reduce.time_s = 1e-3;
    CHECK(op_activity(all_reduce, chip, 0.35) == 0);
}

namespace {

Scenario priced(double usd_per_chip_hour) {
    Scenario s = test::tiny_scenario(2, 8, 512, 65);
    s.cost.pricing = Pricing::cloud;
    s.cost.usd_per_chip_hour = usd_per_chip_hour;
    s.cost.tdp_w = 500;
    s.cost.idle_w = 500;  // a chip that draws its limit always: power independent of the ops
    s.cost.system_w_per_chip = 100;
    s.cost.pue = 1.5;
    return s;
}

}  // namespace

TEST_CASE("dollars per million tokens from the throughput and the price, by hand") {
    const Scenario s = priced(3.6);  // $0.001 per chip-second
    const Result r = evaluate(s);
    const InferenceSummary& sum = r.summary;
    // Static batch: one cycle is the request's end-to-end latency; 2 chips bill $0.002/s.
    const double cycle = sum.e2e_latency_s;
    const double prefill = r.phase("prefill").time_s;
    CHECK(*r.cost.usd_per_request == doctest::Approx(0.002 * cycle / 8));
    CHECK(*r.cost.usd_per_m_input_tokens == doctest::Approx(0.002 * prefill / (8 * 512) * 1e6));
    CHECK(*r.cost.usd_per_m_output_tokens == doctest::Approx(0.002 * (cycle - prefill) / (8 * 64) * 1e6));
    CHECK(*r.cost.output_tokens_per_usd == doctest::Approx(8 * 65 / (0.002 * cycle)));
}

TEST_CASE("joules per output token from power and throughput, by hand") {
    const Result r = evaluate(priced(3.6));
    // 2 chips × (500 W + 100 W) over the cycle, ÷ 8 · 65 tokens; the facility's PUE is not in it
    const double joules = 2 * 600 * r.summary.e2e_latency_s / (8 * 65);
    CHECK(*r.cost.joules_per_output_token == doctest::Approx(joules));
    CHECK(r.cost.power_per_chip->facility_w == doctest::Approx(900));
    CHECK(*r.cost.joules_per_output_token == doctest::Approx(2 * 600 / r.summary.output_tokens_per_s));
}

TEST_CASE("owned hardware: straight-line capex per hour plus the facility's electricity") {
    Scenario s = priced(0);
    s.cost.pricing = Pricing::owned;
    s.cost.chip_usd = 30000;
    s.cost.system_usd_per_chip = 10000;
    s.cost.network_usd_per_chip = 3830;
    s.cost.amortization_years = 5;
    s.cost.usd_per_kwh = 0.1;
    const Result r = evaluate(s);
    CHECK(*r.cost.capex_usd_per_chip_hour == doctest::Approx(43830 / (5 * 8766.0)));  // ≈ $1/h
    CHECK(*r.cost.energy_usd_per_chip_hour == doctest::Approx(0.9 * 0.1));           // 900 W facility
    CHECK(*r.cost.usd_per_chip_hour == doctest::Approx(1.0 + 0.09).epsilon(1e-6));
}

TEST_CASE("decode draws less than prefill: memory-bound steps sit near idle plus the memory share") {
    Scenario s = test::tiny_scenario(1, 1, 128, 1025);
    s.cost.tdp_w = 700;
    s.cost.idle_w = 80;
    s.cost.memory_power_share = 0.35;
    Scenario prefill_only = s;
    prefill_only.workload.inference.input_tokens = 4096;
    prefill_only.workload.inference.output_tokens = 1;
    const double decode_heavy = evaluate(s).cost.power_per_chip->chip_w;
    const double prefill_heavy = evaluate(prefill_only).cost.power_per_chip->chip_w;
    // Batch-1 decode streams bf16 weights at 1 FLOP per byte: u_memory ≈ 1, u_compute ≈ 1e12/1e13
    // = 0.1 → P ≈ 80 + (0.1 + 0.35) · 620 = 359 W; a 4096-token prefill is compute-bound.
    CHECK(decode_heavy == doctest::Approx(359).epsilon(0.06));
    CHECK(prefill_heavy > 600);
}

TEST_CASE("training: dollars, energy and chip-hours of a run of N tokens") {
    const Json doc = parse_json_text(R"({"model": "llama-3-8b", "system": "dgx-h100",
        "workload": {"kind": "training", "precision": "bf16", "seq_len": 2048, "micro_batch": 1, "global_batch": 64,
                     "train_tokens": 1e9},
        "parallelism": {"tp": 1, "dp": 8, "zero": 1},
        "cost": {"usd_per_chip_hour": 2}})");
    const Json r = evaluate_document(doc);
    const double step = r["summary"]["step_time_s"].get<double>();
    const double steps = 1e9 / (64 * 2048.0);
    CHECK(r["cost"]["steps"].get<double>() == doctest::Approx(steps));
    CHECK(r["cost"]["chip_hours"].get<double>() == doctest::Approx(8 * step * steps / 3600));
    CHECK(r["cost"]["usd_total"].get<double>() == doctest::Approx(2 * 8 * step * steps / 3600));
    CHECK(r["cost"]["usd_per_step"].get<double>() == doctest::Approx(2 * 8 * step / 3600));
    const double it_w = r["cost"]["power_w_per_chip"]["it"].get<double>();
    CHECK(r["cost"]["energy_kwh"].get<double>() == doctest::Approx(8 * it_w * step * steps / 3.6e6));
}

TEST_CASE("the cost block: defaults are named, and bad inputs name their field") {
    const std::string base = R"({"model": "llama-3-8b", "system": {"chip": "h100-sxm", "count": 1},
        "workload": {"precision": "bf16", "batch": 1, "input_tokens": 128, "output_tokens": 16})";
    auto error_of = [&](const std::string& cost) {
        const Json r = parse_json_text(evaluate_json(base + ", \"cost\": " + cost + "}"));
        return r["ok"].get<bool>() ? std::string("no error") : r["error"]["path"].get<std::string>();
    };
    const Json plain = parse_json_text(evaluate_json(base + "}"));
    REQUIRE(plain["ok"].get<bool>());
    CHECK(plain["cost"]["pricing"] == "cloud");
    CHECK(plain["cost"]["assumptions"].size() > 3);  // every default used, said
    CHECK(error_of(R"({"pricing": "owned", "usd_per_chip_hour": 2})") == "cost.usd_per_chip_hour");
    CHECK(error_of(R"({"idle_w": 900})") == "cost.idle_w");
    CHECK(error_of(R"({"usd_per_chip_hour": -1})") == "cost.usd_per_chip_hour");
    CHECK(error_of(R"({"pue": 0.5})") == "cost.pue");
    CHECK(error_of(R"({"typo": 1})") == "cost.typo");
    CHECK(error_of(R"({"package": {"dies": [{"area_mm2": 100, "node": "1nm"}]}})") == "cost.package.dies[0].node");
    CHECK(error_of(R"({"package": {"dies": [{"area_mm2": 90000, "node": "7nm-actuary-2022"}]}})") ==
          "cost.package.dies[0].area_mm2");
    CHECK(error_of(R"({"package": {"dies": [{"area_mm2": 100, "node": "7nm-actuary-2022"}], "hbm": {"stacks": 4, "type": "hbm3"}}})") ==
          "cost.package.hbm.usd_per_stack");
    // No public bridge cost or yield: a bridge package gives its own (presets/costs/packaging.json).
    CHECK(error_of(R"({"package": {"kind": "bridge", "dies": [{"area_mm2": 100, "node": "7nm-actuary-2022"}]}})") ==
          "cost.package.bonding_yield");
    CHECK(error_of(R"({"package": {"kind": "bridge", "dies": [{"area_mm2": 100, "count": 2, "node": "7nm-actuary-2022"}],
                      "bonding_yield": 0.95, "interposer_wafer_usd": 1937, "interposer_defect_density_per_cm2": 0.06,
                      "interposer_critical_level": 6}})") == "cost.package.bridge_area_mm2");
    CHECK(error_of(R"({"package": {"kind": "si_interposer", "dies": [{"area_mm2": 400, "count": 2, "node": "7nm-actuary-2022"}],
                      "hbm": {"stacks": 4, "usd_per_stack": 300, "area_mm2": 110}}})") == "no error");
}

TEST_CASE("a pricing without its price gives no dollars and every performance number") {
    // presets/chips/h200-sxm.json: price_usd 0 (no attributable price), a cloud price.
    const std::string base = R"({"model": "llama-3-8b", "system": {"chip": "h200-sxm", "count": 1},
        "workload": {"precision": "bf16", "batch": 1, "input_tokens": 128, "output_tokens": 16})";
    const Json rented = parse_json_text(evaluate_json(base + "}"));
    const Json owned = parse_json_text(evaluate_json(base + R"(, "cost": {"pricing": "owned", "amortization_years": 4}})"));
    REQUIRE(rented["ok"].get<bool>());
    REQUIRE(owned["ok"].get<bool>());
    CHECK(owned["summary"] == rented["summary"]);  // cost never changes performance
    CHECK(owned["cost"]["pricing"] == "unknown");
    CHECK(owned["cost"]["usd_per_chip_hour"].is_null());
    CHECK(owned["cost"]["usd_per_m_output_tokens"].is_null());
    CHECK(owned["cost"]["joules_per_output_token"] == rented["cost"]["joules_per_output_token"]);
    bool named = false;
    for (const Json& a : owned["cost"]["assumptions"]) named = named || a.get<std::string>().find("cost.chip_usd") != std::string::npos;
    CHECK(named);
    // The other prices of owning are still checked.
    const Json bad = parse_json_text(evaluate_json(base + R"(, "cost": {"pricing": "owned", "amortization_years": 0}})"));
    CHECK(bad["error"]["path"] == "cost.amortization_years");
}

namespace {

const char* kTradeOffScenario = R"({"model": "llama-3.1-8b", "system": {"chip": "h100-sxm", "count": 1},
    "workload": {"precision": "bf16", "batch": 8, "input_tokens": 512, "output_tokens": 512},
    "cost": {"pricing": "owned", "package": {"kind": "si_interposer",
        "dies": [{"area_mm2": 800, "node": "5nm-actuary-2022"}],
        "hbm": {"stacks": 4, "usd_per_stack": 300, "area_mm2": 110}}}})";

Json trade(const std::string& knobs) {
    return parse_json_text(tradeoff_json(std::string(R"({"scenario": )") + kTradeOffScenario + R"(, "knobs": )" + knobs + "}"));
}

}  // namespace

TEST_CASE("trade-off: splitting the same logic into chiplets changes the cost, not the speed") {
    const Json t = trade(R"([{"knob": "chiplets", "values": [1, 2, 4]}])");
    REQUIRE(t["ok"].get<bool>());
    const Json& p = t["points"];
    REQUIRE(p.size() == 3);
    CHECK(p[0]["output_tokens_per_s"].get<double>() == doctest::Approx(p[2]["output_tokens_per_s"].get<double>()));
    // 800 mm² at 5 nm (D0 0.11): one die yields 1.088^−10 = 0.43, two of 400 mm² 0.66 each; four
    // of 200 mm² yield better still but lose more to the bonds (0.95 per die and stack: 0.95^8
    // against 0.95^6), so two is the cheapest
    const double one = p[0]["package_usd"].get<double>(), two = p[1]["package_usd"].get<double>();
    const double four = p[2]["package_usd"].get<double>();
    CHECK(two < one);
    CHECK(two < four);
    CHECK(one == doctest::Approx(t["base_package_usd"].get<double>()));
    // as fast and cheaper: only the cheapest is on the front
    CHECK_FALSE(p[0]["pareto"].get<bool>());
    CHECK(p[1]["pareto"].get<bool>());
    CHECK_FALSE(p[2]["pareto"].get<bool>());
    // the chip's price follows the package cost: $/chip-hour falls with it
    CHECK(p[1]["usd_per_chip_hour"].get<double>() < p[0]["usd_per_chip_hour"].get<double>());
}

TEST_CASE("trade-off: more HBM stacks, more bandwidth, faster decode at a higher package cost") {
    const Json t = trade(R"([{"knob": "hbm_stacks", "values": [2, 4, 8]}])");
    REQUIRE(t["ok"].get<bool>());
    const Json& p = t["points"];
    // batch-8 decode of an 8B model is bound by HBM: twice the stacks nearly halves TPOT
    const double tpot2 = p[0]["tpot_s"].get<double>(), tpot4 = p[1]["tpot_s"].get<double>();
    CHECK(tpot2 / tpot4 > 1.6);
    CHECK(tpot2 / tpot4 <= 2.0);
    // each stack adds its $300 plus its share of a larger interposer
    CHECK(p[2]["package_usd"].get<double>() - p[1]["package_usd"].get<double>() > 4 * 300);
    // every point is faster and dearer than the one before: all on the front
    for (const Json& q : p) CHECK(q["pareto"].get<bool>());
}

TEST_CASE("trade-off requests name the field they get wrong") {
    auto path = [](const Json& r) { return r["ok"].get<bool>() ? std::string("no error") : r["error"]["path"].get<std::string>(); };
    CHECK(path(trade(R"([{"knob": "hbm_stacks", "values": [0]}])")) == "knobs[0].values[0]");
    CHECK(path(trade(R"([{"knob": "voltage", "values": [1]}])")) == "knobs[0].knob");
    CHECK(path(trade(R"([{"knob": "chiplets", "values": [1]}, {"knob": "chiplets", "values": [2]}])")) == "knobs[1].knob");
    CHECK(path(trade(R"([{"knob": "process_node", "values": ["2nm-magic"]}])")) == "knobs[0].values[0]");
    CHECK(path(trade(R"([])")) == "knobs");
    std::string many = "[";
    for (int i = 1; i <= 64; ++i) many += std::to_string(i) + (i < 64 ? "," : "]");
    CHECK(path(trade(R"([{"knob": "chiplets", "values": )" + many + R"(}, {"knob": "hbm_stacks", "values": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]}])")) == "knobs");
    const Json no_package = parse_json_text(tradeoff_json(R"({"scenario": {"model": "llama-3.1-8b",
        "system": {"chip": "h100-sxm", "count": 1}, "workload": {"precision": "bf16", "batch": 1, "input_tokens": 8,
        "output_tokens": 8}}, "knobs": [{"knob": "die_area_mm2", "values": [400]}]})"));
    CHECK(path(no_package) == "knobs[0].knob");
    // a die too large for the wafer is a point with its error, not a failed call
    const Json huge = trade(R"([{"knob": "die_area_mm2", "values": [800, 60000]}])");
    REQUIRE(huge["ok"].get<bool>());
    CHECK(huge["points"][1]["ok"] == false);
    CHECK(huge["points"][0]["ok"] == true);
}

TEST_CASE("a package that cannot be made is refused: an interposer larger than a wafer") {
    const Json r = parse_json_text(package_cost_json(R"({"kind": "si_interposer",
        "dies": [{"area_mm2": 800, "count": 64, "node": "7nm-actuary-2022"}]})"));
    REQUIRE_FALSE(r["ok"].get<bool>());
    CHECK(r["error"]["path"] == "dies");
    CHECK(r["error"]["message"].get<std::string>().find("interposer") != std::string::npos);
}

TEST_CASE("a chip without a TDP has no energy: null, never 0 J (issue 22)") {
    // presets/chips/tpu-v5e.json has no tdp_w (Google publishes none). Before, the power model
    // ran with 0 W and reported 0 J per token and 0 kWh per step, as if the chips were free to run.
    const Json serve = parse_json_text(evaluate_json(R"({"model": "llama-3-8b", "system": {"chip": "tpu-v5e", "count": 4},
        "parallelism": {"tp": 4}, "workload": {"precision": "bf16", "batch": 8, "input_tokens": 512, "output_tokens": 128}})"));
    REQUIRE(serve["ok"].get<bool>());
    CHECK(serve["summary"]["output_tokens_per_s"].get<double>() > 0);
    CHECK(serve["cost"]["power_w_per_chip"].is_null());
    CHECK(serve["cost"]["joules_per_output_token"].is_null());
    CHECK(serve["cost"]["joules_per_request"].is_null());
    bool named = false;
    for (const Json& a : serve["cost"]["assumptions"]) named = named || a.get<std::string>().find("no tdp_w") != std::string::npos;
    CHECK(named);

    const Json train = parse_json_text(evaluate_json(R"({"model": "llama-3-8b", "system": {"chip": "tpu-v5e", "count": 8},
        "parallelism": {"dp": 8}, "workload": {"kind": "training", "precision": "bf16", "seq_len": 2048, "global_batch": 16,
        "micro_batch": 1, "train_tokens": 1e9}})"));
    REQUIRE(train["ok"].get<bool>());
    CHECK(train["cost"]["energy_kwh_per_step"].is_null());
    CHECK(train["cost"]["energy_kwh"].is_null());
    CHECK(train["cost"]["facility_energy_kwh"].is_null());
    CHECK(train["cost"]["steps"].get<double>() > 0);

    // An owned chip's hour includes its electricity: with no power, no all-in price, but
    // the write-off is still shown. A given TDP brings the energy back.
    const Json owned = parse_json_text(evaluate_json(R"({"model": "llama-3-8b", "system": {"chip": "tpu-v5e", "count": 4},
        "parallelism": {"tp": 4}, "workload": {"precision": "bf16", "batch": 8, "input_tokens": 512, "output_tokens": 128},
        "cost": {"pricing": "owned", "chip_usd": 10000}})"));
    REQUIRE(owned["ok"].get<bool>());
    CHECK(owned["cost"]["capex_usd_per_chip_hour"].get<double>() > 0);
    CHECK(owned["cost"]["usd_per_chip_hour"].is_null());
    CHECK(owned["cost"]["usd_per_m_output_tokens"].is_null());
    const Json given = parse_json_text(evaluate_json(R"({"model": "llama-3-8b", "system": {"chip": "tpu-v5e", "count": 4},
        "parallelism": {"tp": 4}, "workload": {"precision": "bf16", "batch": 8, "input_tokens": 512, "output_tokens": 128},
        "cost": {"tdp_w": 200, "idle_w": 60}})"));
    REQUIRE(given["ok"].get<bool>());
    CHECK(given["cost"]["joules_per_output_token"].get<double>() > 0);
    CHECK(given["cost"]["power_w_per_chip"]["chip"].get<double>() >= 60);
}
