#pragma once
// One accelerator package: its dies, how they are joined (organic substrate, fan-out RDL,
// a 2.5D silicon interposer, or silicon bridges), its HBM stacks, final test and the
// engineering cost spread over the volume. The recurring-cost split (raw dies, die
// defects, raw package, package defects, good dies lost to package failures) is Chiplet
// Actuary's (Feng & Ma, DAC 2022; chiplet_actuary/package.py); METHODOLOGY.md § Cost.
#include <cstdint>
#include <string>
#include <vector>

#include "cost/die.hpp"
#include "cost/salvage.hpp"

namespace envelope {

enum class PackageKind {
    organic,        // dies flip-chipped side by side on an organic substrate (MCM)
    fan_out,        // a redistribution-layer (RDL) interposer, InFO style
    si_interposer,  // a passive silicon interposer on a substrate (CoWoS-S style), chip last
    bridge,         // small silicon bridges under die edges, in an organic substrate (EMIB, CoWoS-L)
};

struct DieSpec {
    std::string name;
    double area_mm2 = 0;
    int64_t count = 1;
    Wafer wafer;                 // its process node
    UnitRedundancy redundancy;   // units it may ship with switched off (none by default)
    // Design cost of this die (masks, IP, verification), spread over every die made:
    // `volume` dies across all the products that reuse it (0: this package's volume ×
    // count). Reuse across products is what makes a chiplet's design cheap per unit.
    double nre_usd = 0;
    double volume = 0;
};

struct PackageSpec {
    PackageKind kind = PackageKind::organic;
    std::vector<DieSpec> dies;

    // HBM stacks bought as known-good parts and bonded beside the logic dies.
    int64_t hbm_stacks = 0;
    double hbm_usd_per_stack = 0;
    double hbm_area_mm2 = 0;     // footprint of one stack on the interposer

    // Organic substrate: its area is `substrate_area_scale` × what sits on it, its price
    // per mm² rises with the layers multi-die routing needs (layer_factor).
    double substrate_area_scale = 4;
    double substrate_usd_per_mm2 = 0.005;
    double substrate_bonding_yield = 0.99;  // attaching the dies (or the interposer) to it
    double c4_bump_usd_per_mm2 = 0.005;
    double microbump_usd_per_mm2 = 0.01;

    // Interposer (fan_out, si_interposer): area = interposer_area_scale × the area on it;
    // cut from its own wafer, with its own yield; each die bonds with `bonding_yield`.
    Wafer interposer_wafer;
    double interposer_area_scale = 1.1;
    double bonding_yield = 0.95;
    bool chip_first = false;     // fan_out only: the RDL is built on the placed dies

    // Bridges (bridge): `bridges` small dies of `bridge_area_mm2` from `interposer_wafer`.
    int64_t bridges = 0;
    double bridge_area_mm2 = 0;

    double test_usd = 0;         // final test of one package
    // Substrate / interposer design and masks: per mm² of the interposer (or of the
    // substrate, times its layer factor, without one) plus a fixed part.
    double package_nre_usd_per_mm2 = 0;
    double package_nre_fixed_usd = 0;
    double volume = 0;           // packages made; 0: no engineering cost is spread
};

struct PackageDieReport {
    std::string name;
    int64_t count = 1;
    double area_mm2 = 0;
    DieCost cost;                // one die
};

// Dollars per package, by part.
struct PackageCost {
    std::vector<PackageDieReport> dies;
    double package_area_mm2 = 0;
    double interposer_area_mm2 = 0;
    double package_yield = 1;        // assembly: the package's parts bond and work
    double raw_dies_usd = 0;         // wafer cost of the dies, bumps included
    double die_defects_usd = 0;      // dies thrown away at wafer test
    double raw_package_usd = 0;      // substrate, interposer or bridges
    double package_defects_usd = 0;  // packages (interposers, substrates) thrown away
    double wasted_dies_usd = 0;      // good dies and HBM lost in packages that failed
    double hbm_usd = 0;
    double test_usd = 0;
    double nre_usd = 0;              // engineering spread over the volume
    double total_usd() const {
        return raw_dies_usd + die_defects_usd + raw_package_usd + package_defects_usd + wasted_dies_usd +
               hbm_usd + test_usd + nre_usd;
    }
};

PackageCost package_cost(const PackageSpec& p);

// Why the package cannot be made or priced as described: a die, the interposer or a bridge
// that does not fit one wafer; a yield below kMinYield (a die's, the interposer's, a bridge's
// or the package's bonds); a cost that is not finite. `field` is the input to change, relative
// to the package ("dies[0].area_mm2"); an empty message means none.
struct PackageProblem {
    std::string field;
    std::string message;
    bool none() const { return message.empty(); }
};
PackageProblem package_problem(const PackageSpec& p);

// The least yield priced: one good part in 10¹². Below it a known-good part costs more than
// 10¹² raw ones, no product is made that way, and e^(−x) underflows to 0 soon after (x > 745),
// which would price the part at $0 (raw ÷ 0 guarded) or at infinity.
constexpr double kMinYield = 1e-12;

// The substrate's layer-count price factor: 1 for one die; for several, 1.5, 1.75 above
// 17 × 17 mm², 2 above 30 × 30 mm² (Chiplet Actuary, package.py OS.cost_raw_package).
double substrate_layer_factor(int64_t parts, double package_area_mm2);

}  // namespace envelope
