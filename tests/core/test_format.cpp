// Numbers in messages come from doubles: a size beyond 2^63 (or 2^31 on wasm32) never
// wraps to a negative number.
#include <doctest/doctest.h>

#include <limits>
#include <string>

#include "api.hpp"
#include "common/format.hpp"

using namespace envelope;

TEST_CASE("format_gb and format_number keep the sign and the magnitude of any double") {
    CHECK(format_gb(17.25e9) == "17.2 GB");
    CHECK(format_gb(80e9) == "80 GB");
    CHECK(format_gb(9.3e27) == "9.3e+18 GB");   // was -9223372036854775808 GB natively
    CHECK(format_gb(2.2e18) == "2.2e+09 GB");   // was -2147483648 GB in wasm
    CHECK(format_number(0.5) == "0.5");
    CHECK(format_number(1048576, 15) == "1048576");
    CHECK(format_number(std::numeric_limits<double>::infinity()) == "a number beyond +1.8e308");
    CHECK(format_number(std::numeric_limits<double>::quiet_NaN()) == "not a number");
}

TEST_CASE("the 'does not fit' warning of an enormous scenario prints a positive size") {
    // The page link of issue 5: batch 10^6, 10^8 prompt and 10^8 generated tokens. The KV
    // cache alone is 2 · 80 layers · 128 (one KV head per chip) · 2 B · 10^6 · 2·10^8
    // = 8.192e18 B per chip: the total, in GB, is 8.19e9 and a little more.
    const std::string text = R"({"model": "llama-2-70b", "system": "dgx-h100",
        "workload": {"batch": 1000000, "input_tokens": 100000000, "output_tokens": 100000000,
                     "parallelism": {"tp": 8}, "precision": "bf16"}})";
    const Json out = Json::parse(evaluate_json(text));
    REQUIRE(out["ok"] == true);
    std::string warning;
    for (const auto& w : out["warnings"]) {
        if (w.get<std::string>().rfind("does not fit", 0) == 0) warning = w.get<std::string>();
    }
    REQUIRE(warning.rfind("does not fit: ", 0) == 0);
    const double gb = std::stod(warning.substr(std::string("does not fit: ").size()));
    CHECK(gb >= 8.19e9);
    CHECK(gb < 8.3e9);
    CHECK(warning.find(" GB needed per chip, 85.5 GB available") != std::string::npos);
    CHECK(warning.find('-') == std::string::npos);
}
