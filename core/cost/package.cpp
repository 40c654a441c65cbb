#include "cost/package.hpp"

#include <cmath>
#include <string>

#include "common/format.hpp"

namespace envelope {

namespace {

std::string yield_text(double y) { return y > 0 ? format_number(y, 3) : "0 (it underflows)"; }

// What a yield y costs on top of each good part, 1/y − 1: infinite once y underflows to 0
// (package_problem refuses such a package; the division itself is never by zero).
double scrap_per_good(double y) { return y > 0 ? 1 / y - 1 : INFINITY; }

}  // namespace

PackageProblem package_problem(const PackageSpec& p) {
    double on_top = static_cast<double>(p.hbm_stacks) * p.hbm_area_mm2;
    for (std::size_t i = 0; i < p.dies.size(); ++i) {
        const DieSpec& d = p.dies[i];
        const std::string at = "dies[" + std::to_string(i) + "]";
        if (dies_per_wafer(d.area_mm2, d.wafer) < 1) return {"dies", "a " + format_number(d.area_mm2, 6) + " mm² die does not fit the wafer"};
        if (d.area_mm2 > kReticleLimitMm2) {
            return {at + ".area_mm2", "is " + format_number(d.area_mm2, 6) + " mm²: larger than the reticle limit, " +
                                          format_number(kReticleLimitMm2, 6) +
                                          " mm² (one 26 × 33 mm scanner field); split the logic into dies (count) of at most that"};
        }
        const double y = salvage_yield(d.area_mm2, d.wafer, d.redundancy);
        if (!(y >= kMinYield)) {
            return {at + ".area_mm2", "is " + format_number(d.area_mm2, 6) + " mm² at " +
                                          format_number(d.wafer.defect_density_per_cm2, 6) + " defects/cm² (" + at +
                                          ".node): its yield " + yield_text(y) + " is below 1e-12, too few good dies to price"};
        }
        on_top += d.area_mm2 * static_cast<double>(d.count);
    }
    if (p.kind == PackageKind::fan_out || p.kind == PackageKind::si_interposer) {
        const double area = on_top * p.interposer_area_scale;
        if (dies_per_wafer(area, p.interposer_wafer) < 1) {
            return {"dies", "the interposer (" + format_number(area, 6) + " mm²) does not fit the wafer"};
        }
        const double y = die_yield(area, p.interposer_wafer);
        if (!(y >= kMinYield)) {
            return {"interposer_defect_density_per_cm2", "is " + format_number(p.interposer_wafer.defect_density_per_cm2, 6) +
                                                             ": the " + format_number(area, 6) + " mm² interposer yields " +
                                                             yield_text(y) + ", below 1e-12"};
        }
    }
    if (p.kind == PackageKind::bridge) {
        if (dies_per_wafer(p.bridge_area_mm2, p.interposer_wafer) < 1) return {"dies", "a bridge does not fit the wafer"};
        const double y = die_yield(p.bridge_area_mm2, p.interposer_wafer);
        if (!(y >= kMinYield)) {
            return {"bridge_area_mm2", "is " + format_number(p.bridge_area_mm2, 6) + " mm²: a bridge yields " + yield_text(y) + ", below 1e-12"};
        }
    }
    const PackageCost c = package_cost(p);
    if (!(c.package_yield >= kMinYield)) {
        return {p.kind == PackageKind::organic ? "substrate_bonding_yield" : "bonding_yield",
                "the package's bonds succeed together with yield " + yield_text(c.package_yield) + ", below 1e-12"};
    }
    const double parts[] = {c.raw_dies_usd, c.die_defects_usd, c.raw_package_usd, c.package_defects_usd,
                            c.wasted_dies_usd, c.hbm_usd, c.test_usd, c.nre_usd, c.total_usd()};
    for (const double usd : parts) {
        if (!std::isfinite(usd)) return {"dies", "the package's cost is not a finite number of dollars"};
    }
    return {};
}

double substrate_layer_factor(int64_t parts, double area) {
    if (parts <= 1) return 1;
    if (area > 30 * 30) return 2;
    if (area > 17 * 17) return 1.75;
    return 1.5;
}

PackageCost package_cost(const PackageSpec& p) {
    PackageCost c;
    double die_area = 0;  // logic dies, all copies
    int64_t parts = p.hbm_stacks;
    double nre = 0;  // per package
    for (const DieSpec& d : p.dies) {
        PackageDieReport r{d.name, d.count, d.area_mm2,
                           die_cost(d.area_mm2, d.wafer, salvage_yield(d.area_mm2, d.wafer, d.redundancy))};
        const double n = static_cast<double>(d.count);
        c.raw_dies_usd += n * r.cost.raw_usd;
        c.die_defects_usd += n * r.cost.defect_usd();
        die_area += n * d.area_mm2;
        parts += d.count;
        const double made = d.volume > 0 ? d.volume : p.volume * n;  // dies of this design made
        if (made > 0) nre += d.nre_usd * n / made;
        c.dies.push_back(r);
    }
    const double hbm_area = static_cast<double>(p.hbm_stacks) * p.hbm_area_mm2;
    c.hbm_usd = static_cast<double>(p.hbm_stacks) * p.hbm_usd_per_stack;
    c.test_usd = p.test_usd;
    const double on_top = die_area + hbm_area;  // what sits on the substrate or interposer
    const double y3 = p.substrate_bonding_yield;

    if (p.kind == PackageKind::organic) {
        // Chips flip-chipped straight onto the substrate with C4 bumps.
        c.package_area_mm2 = on_top * p.substrate_area_scale;
        c.raw_dies_usd += die_area * p.c4_bump_usd_per_mm2;
        c.raw_package_usd =
            c.package_area_mm2 * p.substrate_usd_per_mm2 * substrate_layer_factor(parts, c.package_area_mm2);
        const double y = std::pow(y3, static_cast<double>(parts));
        c.package_yield = y;
        c.package_defects_usd = c.raw_package_usd * scrap_per_good(y);
        c.wasted_dies_usd = (c.raw_dies_usd + c.die_defects_usd + c.hbm_usd) * scrap_per_good(y);
    } else {
        // Dies on micro-bumps onto an interposer (or over bridges), which sits on a substrate.
        c.raw_dies_usd += die_area * p.microbump_usd_per_mm2;
        const double y2 = std::pow(p.bonding_yield, static_cast<double>(parts));
        double interposer_usd = 0, y1 = 1;
        if (p.kind == PackageKind::bridge) {
            // Bridges are tested dies; their bonds count with the chips' (y2).
            const DieCost b = die_cost(p.bridge_area_mm2, p.interposer_wafer);
            interposer_usd = static_cast<double>(p.bridges) * b.known_good_usd;
            c.package_area_mm2 = on_top * p.substrate_area_scale;
        } else {
            c.interposer_area_mm2 = on_top * p.interposer_area_scale;
            const DieCost ip = die_cost(c.interposer_area_mm2, p.interposer_wafer);
            interposer_usd = ip.raw_usd + c.interposer_area_mm2 * p.c4_bump_usd_per_mm2;
            y1 = ip.yield;
            c.package_area_mm2 = c.interposer_area_mm2 * p.substrate_area_scale;
        }
        const double substrate_usd = c.package_area_mm2 * p.substrate_usd_per_mm2;
        c.raw_package_usd = interposer_usd + substrate_usd;
        const double chips = c.raw_dies_usd + c.die_defects_usd + c.hbm_usd;
        if (p.kind == PackageKind::fan_out && p.chip_first) {
            // The RDL is built on the placed dies: an RDL defect scraps them too.
            c.package_yield = y1 * y3;
            c.package_defects_usd = interposer_usd * scrap_per_good(y1 * y3) + substrate_usd * scrap_per_good(y3);
            c.wasted_dies_usd = chips * scrap_per_good(y1 * y3);
        } else {
            // Chip last: interposers are tested before the dies go on.
            c.package_yield = y1 * y2 * y3;
            c.package_defects_usd = interposer_usd * scrap_per_good(y1 * y2 * y3) + substrate_usd * scrap_per_good(y3);
            c.wasted_dies_usd = chips * scrap_per_good(y2 * y3);
        }
    }
    if (p.volume > 0) {
        const double nre_area = p.kind == PackageKind::fan_out || p.kind == PackageKind::si_interposer
                                    ? c.interposer_area_mm2
                                    : c.package_area_mm2 * substrate_layer_factor(parts, c.package_area_mm2);
        nre += (p.package_nre_usd_per_mm2 * nre_area + p.package_nre_fixed_usd) / p.volume;
    }
    c.nre_usd = nre;
    return c;
}

}  // namespace envelope
