#include "cost/die.hpp"

#include <algorithm>
#include <cmath>

namespace envelope {

namespace {
constexpr double kPi = 3.14159265358979323846;
}

double dies_per_wafer(double area_mm2, const Wafer& w) {
    const double s = w.scribe_lane_mm;
    const double padded = area_mm2 + 2 * s * std::sqrt(area_mm2) + s * s;
    const double radius = w.diameter_mm / 2 - w.edge_loss_mm;
    const double n = kPi * radius * radius / padded - kPi * (w.diameter_mm - 2 * w.edge_loss_mm) / std::sqrt(2 * padded);
    return n > 0 ? n : 0;
}

// Each form is written so that rounding cannot lift it above 1 nor a small expected count
// lose its digits: e^(−x) − 1 as expm1 and ln(1 + x/α) as log1p (1 − e^(−x) computed
// directly keeps only 16 − |log10 x| digits: 1.00000017 at x = 1e−11). Murphy's factor
// (1 − e^(−x))/x ≤ 1 holds exactly, and min(1, ·) keeps it so after rounding.
double die_yield(double area_mm2, const Wafer& w) {
    const double defects = w.defect_density_per_cm2 * area_mm2 / 100;  // expected per die (mm² → cm²)
    if (!(defects > 0)) return 1;
    switch (w.yield_model) {
        case YieldModel::poisson: return std::exp(-defects);
        case YieldModel::murphy: {
            const double f = std::min(1.0, -std::expm1(-defects) / defects);
            return f * f;
        }
        case YieldModel::negative_binomial: break;
    }
    // (1 + x/α)^(−α) = e^(−α·ln(1 + x/α))
    return std::exp(-w.critical_level * std::log1p(defects / w.critical_level));
}

DieCost die_cost(double area_mm2, const Wafer& w) { return die_cost(area_mm2, w, die_yield(area_mm2, w)); }

DieCost die_cost(double area_mm2, const Wafer& w, double sellable_yield) {
    DieCost c;
    c.dies_per_wafer = dies_per_wafer(area_mm2, w);
    c.defect_free_yield = die_yield(area_mm2, w);
    c.yield = sellable_yield;
    if (c.dies_per_wafer <= 0 || c.yield <= 0) return c;  // callers check the area fits (io/cost_json)
    c.raw_usd = w.usd / c.dies_per_wafer;
    c.known_good_usd = c.yield > 0 ? c.raw_usd / c.yield : INFINITY;  // 0: refused by package_problem
    return c;
}

}  // namespace envelope
