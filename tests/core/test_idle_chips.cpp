// The chips of a system that the mapping leaves idle are paid for and powered (issue 22): a
// node is rented or bought whole, and its idle GPUs draw their idle power with their share of
// the hosts. Expected values by hand from the same scenario at two layouts.
#include <doctest/doctest.h>

#include <string>

#include "api.hpp"
#include "io/json_parse.hpp"

using namespace envelope;

namespace {

Json serve(int dp, const std::string& cost) {
    return parse_json_text(evaluate_json(
        R"({"model": "llama-3.1-8b", "system": {"chip": "h100-sxm", "count": 8}, "parallelism": {"tp": 4, "dp": )" +
        std::to_string(dp) +
        R"(}, "workload": {"kind": "inference", "batch": 8, "input_tokens": 512, "output_tokens": 256, "precision": "bf16"},
            "cost": )" + cost + "}"));
}

}  // namespace

TEST_CASE("idle chips of the system are charged: half the node idle doubles the dollars per request") {
    // dp 2 runs both halves of the node, dp 1 one half: the same replica, so the same cycle, and
    // the same eight chips paid for, over half the requests: exactly twice the $ per request.
    const std::string rent = R"({"pricing": "cloud", "usd_per_chip_hour": 2})";
    const Json both = serve(2, rent), half = serve(1, rent);
    REQUIRE(both["ok"].get<bool>());
    REQUIRE(half["ok"].get<bool>());
    CHECK(both["cost"]["idle_chips"] == 0);
    CHECK(half["cost"]["chips"] == 4);
    CHECK(half["cost"]["idle_chips"] == 4);
    CHECK(half["cost"]["usd_per_idle_chip_hour"].get<double>() == 2);
    CHECK(half["cost"]["usd_per_request"].get<double>() ==
          doctest::Approx(2 * both["cost"]["usd_per_request"].get<double>()).epsilon(1e-12));
    CHECK(half["cost"]["output_tokens_per_usd"].get<double>() ==
          doctest::Approx(both["cost"]["output_tokens_per_usd"].get<double>() / 2).epsilon(1e-12));
}

TEST_CASE("idle chips draw idle power with their share of the hosts, and cost it when owned") {
    const std::string own = R"({"pricing": "owned", "chip_usd": 25000, "amortization_years": 5, "usd_per_kwh": 0.1,
                                "pue": 1.25, "tdp_w": 700})";
    const Json both = serve(2, own), half = serve(1, own);
    REQUIRE(half["ok"].get<bool>());
    const Json& busy = half["cost"]["power_w_per_chip"];
    const Json& idle = half["cost"]["idle_power_w_per_chip"];
    // Per cycle T: dp 2 spends 8·P_busy·T over 16 requests; dp 1 spends (4·P_busy + 4·P_idle)·T over 8.
    // So J/request(dp 1) = J/request(dp 2) · (1 + P_idle/P_busy), P the IT power per chip.
    const double ratio = 1 + idle["it"].get<double>() / busy["it"].get<double>();
    CHECK(half["cost"]["joules_per_request"].get<double>() ==
          doctest::Approx(both["cost"]["joules_per_request"].get<double>() * ratio).epsilon(1e-9));
    // An idle chip: the chip's idle draw plus the hosts' share, the busy chip's own.
    CHECK(idle["system"].get<double>() == busy["system"].get<double>());
    CHECK(idle["chip"].get<double>() < busy["chip"].get<double>());
    // Its hour: the same write-off, less electricity (its facility watts at $0.1/kWh).
    const double capex = half["cost"]["capex_usd_per_chip_hour"].get<double>();
    CHECK(half["cost"]["usd_per_idle_chip_hour"].get<double>() ==
          doctest::Approx(capex + idle["facility"].get<double>() / 1000 * 0.1).epsilon(1e-12));
    CHECK(idle["facility"].get<double>() == doctest::Approx(idle["it"].get<double>() * 1.25).epsilon(1e-12));
    CHECK(half["cost"]["usd_per_idle_chip_hour"].get<double>() < half["cost"]["usd_per_chip_hour"].get<double>());
    // No idle chips: no idle figures.
    CHECK(both["cost"]["idle_power_w_per_chip"].is_null());
    CHECK(both["cost"]["usd_per_idle_chip_hour"].is_null());
}
