#pragma once
// Silicon dies on a wafer: how many fit, how many work, what a working one costs.
// Formulas: Chiplet Actuary (Feng & Ma, DAC 2022; github.com/Yinxiao-Feng/chiplet-actuary,
// chiplet_actuary/chip.py), METHODOLOGY.md § Cost.
namespace envelope {

enum class YieldModel {
    negative_binomial,  // (1 + D0·A/α)^(−α): clustered defects (Stapper), the default
    poisson,            // e^(−D0·A): defects scattered at random
    murphy,             // ((1 − e^(−D0·A)) / (D0·A))²
};

// The largest die one exposure prints: a scanner's full field, 26 × 33 mm on DUV and 0.33-NA
// EUV tools (ASML TWINSCAN NXT and NXE product specifications, "field size 26 × 33 mm").
// A larger die needs stitched exposures, which the cost model does not price: it is refused.
constexpr double kReticleLimitMm2 = 26.0 * 33.0;  // 858 mm²

// The wafer a die is cut from.
struct Wafer {
    double diameter_mm = 300;
    double edge_loss_mm = 5;     // unusable rim
    double scribe_lane_mm = 0.2; // saw street between dies
    double usd = 0;              // processed wafer price
    double defect_density_per_cm2 = 0;
    double critical_level = 10;  // α of the negative binomial: 10 logic, 6 Si interposer, 3 RDL
    YieldModel yield_model = YieldModel::negative_binomial;
};

// Gross dies per wafer for a die of `area_mm2`: the die is padded by the scribe lane,
// A' = A + 2·s·√A + s², and the edge-loss formula counts whole dies in the usable disc,
// DPW = π(φ/2 − e)²/A' − π(φ − 2e)/√(2A').
double dies_per_wafer(double area_mm2, const Wafer& w);

// The fraction of dies of `area_mm2` without a killer defect.
double die_yield(double area_mm2, const Wafer& w);

// What one die costs before and after testing out the bad ones.
struct DieCost {
    double dies_per_wafer = 0;
    double yield = 0;            // sellable: defect-free, or good enough with units switched off
    double defect_free_yield = 0;
    double raw_usd = 0;          // wafer ÷ dies per wafer
    double known_good_usd = 0;   // wafer ÷ (dies per wafer · yield)
    double defect_usd() const { return known_good_usd - raw_usd; }
};
DieCost die_cost(double area_mm2, const Wafer& w);
// The same at a sellable yield of its own (cost/salvage.hpp: a die sold with units switched off).
DieCost die_cost(double area_mm2, const Wafer& w, double sellable_yield);

}  // namespace envelope
