// Which prices and powers a cost is computed with (cost/resolve.hpp): the pricing rule of
// SCHEMA.md § cost, the defaults named in the assumptions, the fabric a system spans.
#include <doctest/doctest.h>

#include <string>

#include "common/error.hpp"
#include "cost/resolve.hpp"

using namespace envelope;

namespace {

// Two 8-chip nodes on a scale-out level priced at $1,000 and 20 W a chip; the chip has a
// purchase price, a cloud price, a TDP and no idle power of its own.
System two_nodes(int64_t count) {
    System s;
    s.name = "test pod";
    s.count = count;
    s.chip.name = "test chip";
    s.chip.tdp_w = 700;
    s.chip.economics.price_usd = 25000;
    s.chip.economics.cloud_usd_per_hour = 3;
    s.economics.usd_per_chip = 4000;
    s.economics.w_per_chip = 500;
    NetworkLevel node, fabric;
    node.size = 8;
    fabric.size = 2;
    fabric.usd_per_chip = 1000;
    fabric.w_per_chip = 20;
    s.network.levels = {node, fabric};
    return s;
}

CostDefaults defaults() {
    CostDefaults d;
    d.amortization_years = 6;
    d.usd_per_kwh = 0.08;
    d.pue = 1.5;
    d.idle_fraction_of_tdp = 0.1;
    d.memory_power_share = 0.35;
    return d;
}

std::string error_path(const CostRequest& q, const System& s) {
    try {
        resolve_cost(q, s, defaults(), "cost");
    } catch (const InputError& e) {
        return e.path();
    }
    return "no error";
}

}  // namespace

TEST_CASE("the pricing: as stated; else rent at a known hourly price; else buy at a known chip price; else none") {
    System s = two_nodes(16);
    CHECK(resolve_cost({}, s, defaults(), "cost").pricing == Pricing::cloud);  // the chip's cloud price
    CostRequest buy;
    buy.pricing = Pricing::owned;
    const CostInputs owned = resolve_cost(buy, s, defaults(), "cost");
    CHECK(owned.pricing == Pricing::owned);
    CHECK(owned.chip_usd == 25000);             // the chip's preset
    CHECK(owned.system_usd_per_chip == 4000);   // the system's
    CHECK(owned.network_usd_per_chip == 1000);  // the one scale-out level 16 chips span
    CHECK(owned.amortization_years == 6);
    CHECK(owned.usd_per_kwh == 0.08);

    s.chip.economics.cloud_usd_per_hour = 0;
    CHECK(resolve_cost({}, s, defaults(), "cost").pricing == Pricing::owned);  // the chip price alone
    s.chip.economics.price_usd = 0;
    const CostInputs none = resolve_cost({}, s, defaults(), "cost");
    CHECK(none.pricing == Pricing::unknown);
    CHECK(none.assumptions.front().rfind("no price", 0) == 0);
    CostRequest given;
    given.chip_usd = 30000;
    CHECK(resolve_cost(given, s, defaults(), "cost").pricing == Pricing::owned);  // a stated chip price buys
    CostRequest hourly;
    hourly.usd_per_chip_hour = 2;
    CHECK(resolve_cost(hourly, s, defaults(), "cost").usd_per_chip_hour == 2);
}

TEST_CASE("a price that does not apply to the pricing is refused, naming its field") {
    const System s = two_nodes(16);
    CostRequest q;
    q.pricing = Pricing::owned;
    q.usd_per_chip_hour = 2;
    CHECK(error_path(q, s) == "cost.usd_per_chip_hour");
    CostRequest rent;  // the chip's cloud price chooses renting: a chip price would go unused
    rent.usd_per_kwh = 0.1;
    CHECK(error_path(rent, s) == "cost.usd_per_kwh");
    rent.pricing = Pricing::owned;
    CHECK(error_path(rent, s) == "no error");
    CostRequest hourly;  // a stated hourly price rents, so a chip price is refused too
    hourly.usd_per_chip_hour = 2;
    hourly.chip_usd = 20000;
    try {
        resolve_cost(hourly, s, defaults(), "cost");
        FAIL("a chip price was accepted beside an hourly one");
    } catch (const InputError& e) {
        CHECK(e.path() == "cost.chip_usd");
        CHECK(std::string(e.what()) ==
              "is a price of owning; it does not apply with pricing \"cloud\" (chosen by cost.usd_per_chip_hour)");
    }
    CostRequest idle;
    idle.idle_w = 800;  // above the 700 W TDP
    CHECK(error_path(idle, s) == "cost.idle_w");
}

TEST_CASE("every default taken is named, in the order the inputs are read; a stated input is not") {
    const System s = two_nodes(16);
    CostRequest q;
    q.pricing = Pricing::owned;
    q.chip_usd = 30000;
    q.pue = 1.2;
    const CostInputs c = resolve_cost(q, s, defaults(), "cost");
    REQUIRE(c.assumptions.size() == 9);
    CHECK(c.assumptions[0] == "system_usd_per_chip = 4000: system test pod's economics preset");
    CHECK(c.assumptions[1] == "network_usd_per_chip = 1000: the scale-out levels' economics presets");
    CHECK(c.assumptions[2] == "amortization_years = 6: presets/costs/defaults.json");
    CHECK(c.assumptions[3] == "usd_per_kwh = 0.08: presets/costs/defaults.json");
    CHECK(c.assumptions[4] == "tdp_w = 700: chip test chip's preset");
    // No idle power of its own: 0.1 × 700 W.
    CHECK(c.assumptions[5].rfind("idle_w = 70: tdp_w × idle_fraction_of_tdp", 0) == 0);
    CHECK(c.idle_w == doctest::Approx(70));
    CHECK(c.assumptions[6] == "memory_power_share = 0.35: presets/costs/defaults.json");
    CHECK(c.assumptions[7] == "system_w_per_chip = 500: system test pod's economics preset");
    CHECK(c.assumptions[8] == "network_w_per_chip = 20: the scale-out levels' economics presets");
    CHECK(c.pue == 1.2);
    CHECK(c.chip_usd == 30000);
}

TEST_CASE("the fabric a system pays for: the scale-out levels it spans, none inside one node") {
    const FabricEconomics one = spanned_fabric(two_nodes(8));
    CHECK(one.usd_per_chip == 0);
    CHECK(one.w_per_chip == 0);
    CHECK(one.from == "the system spans no scale-out level");
    const FabricEconomics two = spanned_fabric(two_nodes(16));
    CHECK(two.usd_per_chip == 1000);
    CHECK(two.w_per_chip == 20);
}
