#include "cost/salvage.hpp"

#include <algorithm>
#include <cmath>

namespace envelope {

namespace {

// P(at most m of n units fail) when each unit, of expected defect count x_u, fails with
// probability 1 − e^(−x_u): the binomial pmf summed term by term in logarithms, from
// log P(0 fail) = −n·x_u by the ratio (n − f)/(f + 1) · (1 − e^(−x_u))/e^(−x_u).
double units_tail(int64_t n, int64_t m, double x_u) {
    if (m >= n || !(x_u > 0)) return 1;
    const double log_ratio_q = std::log(-std::expm1(-x_u)) + x_u;  // ln(q/y)
    double log_term = -static_cast<double>(n) * x_u;
    double peak = log_term;
    double sum = 1;  // Σ e^(log_term − peak)
    for (int64_t f = 0; f < m; ++f) {
        log_term += std::log(static_cast<double>(n - f) / static_cast<double>(f + 1)) + log_ratio_q;
        if (log_term > peak) {
            sum = sum * std::exp(peak - log_term) + 1;
            peak = log_term;
        } else {
            sum += std::exp(log_term - peak);
            // Past the mode the terms only fall: once below e^(−50) of the largest, the rest add
            // less than the last digit (at most n of them, each smaller still).
            if (log_term < peak - 50) break;
        }
    }
    return std::min(1.0, std::exp(peak) * sum);
}

// One die's sellable probability at a defect density of t·D0 (t the die's draw, mean 1).
struct AtDensity {
    double core_defects;  // D0·(1 − f)·A
    double unit_defects;  // D0·f·A/n
    int64_t n, m;
    double operator()(double t) const {
        return std::exp(-t * core_defects) * units_tail(n, m, t * unit_defects);
    }
};

// E[g(t)] for t ~ Gamma(α, 1/α): over z = ln t the density α^α/Γ(α)·e^(α·z − α·e^z) is smooth
// and falls off double-exponentially to the right and exponentially to the left, so the
// trapezoid rule over a range where the exponent α(z − e^z + 1) stays above −50 converges
// geometrically; the weights are normalised to sum to 1.
double gamma_mean(const AtDensity& g, double alpha) {
    constexpr int kPoints = 1024;
    const double lo = -(50 / alpha + 1);
    const double hi = std::max(std::log1p(50 / alpha) + 1.5, 10 / std::sqrt(alpha));
    const double step = (hi - lo) / (kPoints - 1);
    double weights = 0, sum = 0;
    for (int i = 0; i < kPoints; ++i) {
        const double z = lo + step * i;
        const double w = std::exp(alpha * (z - std::exp(z) + 1));
        weights += w;
        sum += w * g(std::exp(z));
    }
    return sum / weights;
}

// E[g(t)] for t on the triangle of [0, 2] with its peak at 1 (Murphy's density): Simpson's
// rule on each straight half.
double triangle_mean(const AtDensity& g) {
    constexpr int kIntervals = 512;  // per half, even
    auto half = [&](double a, double b, auto pdf) {
        const double h = (b - a) / kIntervals;
        double s = pdf(a) * g(a) + pdf(b) * g(b);
        for (int i = 1; i < kIntervals; ++i) {
            const double t = a + h * i;
            s += (i % 2 ? 4 : 2) * pdf(t) * g(t);
        }
        return s * h / 3;
    };
    return half(0, 1, [](double t) { return t; }) + half(1, 2, [](double t) { return 2 - t; });
}

}  // namespace

double salvage_yield(double area_mm2, const Wafer& w, const UnitRedundancy& r) {
    if (!r.any()) return die_yield(area_mm2, w);
    const double defects = w.defect_density_per_cm2 * area_mm2 / 100;  // expected per die
    if (!(defects > 0)) return 1;
    const AtDensity g{defects * (1 - r.area_share), defects * r.area_share / static_cast<double>(r.units), r.units,
                      r.units - r.needed};
    switch (w.yield_model) {
        case YieldModel::poisson: return g(1);
        case YieldModel::murphy: return std::min(1.0, triangle_mean(g));
        case YieldModel::negative_binomial: break;
    }
    return std::min(1.0, gamma_mean(g, w.critical_level));
}

}  // namespace envelope
