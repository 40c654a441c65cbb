#pragma once
// Die salvage: a die sold with some of its repeated units switched off. NVIDIA's GH100 has 144
// streaming multiprocessors and the H100 SXM5 enables 132 (NVIDIA H100 Tensor Core GPU
// Architecture whitepaper, 2022, "GH100 ... 144 SMs"; "H100 SXM5 ... 132 SMs"); AMD's MI300X
// enables 38 of each XCD's 40 compute units (AMD CDNA 3 white paper, 2023: 304 of 320 CUs).
// A defect in a unit that may be switched off no longer scraps the die.
#include <cstdint>

#include "cost/die.hpp"

namespace envelope {

// n units of which k must work, covering a share f of the die's area; the rest of the die
// (I/O, caches, the crossbar) must be free of killer defects. units = 0: no salvage.
struct UnitRedundancy {
    int64_t units = 0;       // n
    int64_t needed = 0;      // k ≤ n
    double area_share = 0;   // f ∈ (0, 1)
    bool any() const { return units > 0; }
};

// The most units a die may count: the binomial tail is summed term by term at each of the
// quadrature's points, so this bounds one die's work (about 10⁷ steps at worst; a dozen
// tolerated failures, as GH100's, take a few tens of µs).
constexpr int64_t kMaxSalvageUnits = 10000;

// The sellable fraction of dies of `area_mm2`: with X the defect density a die sees (the
// wafer's yield model is the spread of X over dies: one value for Poisson, a gamma
// distribution of shape α for the negative binomial, a triangle on [0, 2·D0] for Murphy),
//   Y = E_X[ e^(−X·(1 − f)·A) · P(Binomial(n, e^(−X·f·A/n)) ≥ k) ]
// every unit of one die sharing its X (large-area clustering: Koren & Koren, "Defect tolerance
// in VLSI circuits: techniques and yield analysis", Proc. IEEE 86(9), 1998, §III). With no
// units it is die_yield; with k = n it equals it too (the whole area must be clean).
double salvage_yield(double area_mm2, const Wafer& w, const UnitRedundancy& r);

}  // namespace envelope
