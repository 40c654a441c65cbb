#include "cost/die.hpp"

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

double die_yield(double area_mm2, const Wafer& w) {
    const double defects = w.defect_density_per_cm2 * area_mm2 / 100;  // expected per die (mm² → cm²)
    switch (w.yield_model) {
        case YieldModel::poisson: return std::exp(-defects);
        case YieldModel::murphy: {
            if (defects <= 0) return 1;
            const double f = (1 - std::exp(-defects)) / defects;
            return f * f;
        }
        case YieldModel::negative_binomial: break;
    }
    return std::pow(1 + defects / w.critical_level, -w.critical_level);
}

DieCost die_cost(double area_mm2, const Wafer& w) {
    DieCost c;
    c.dies_per_wafer = dies_per_wafer(area_mm2, w);
    c.yield = die_yield(area_mm2, w);
    if (c.dies_per_wafer <= 0 || c.yield <= 0) return c;  // callers check the area fits (io/cost_json)
    c.raw_usd = w.usd / c.dies_per_wafer;
    c.known_good_usd = c.raw_usd / c.yield;
    return c;
}

}  // namespace envelope
