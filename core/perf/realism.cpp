#include "perf/realism.hpp"

#include <cmath>

namespace envelope {

double gemm_shape_efficiency(const MatmulShape& s, const Chip& chip) {
    if (chip.compute_units <= 0 || chip.gemm_tile_m <= 0 || chip.gemm_tile_n <= 0 || s.m <= 0 || s.n <= 0) {
        return 1.0;
    }
    const double tm = static_cast<double>(chip.gemm_tile_m);
    const double tn = static_cast<double>(chip.gemm_tile_n);
    const double units = static_cast<double>(chip.compute_units);
    // A grouped kernel spreads every group's tiles over the units together.
    const double tiles = std::ceil(s.m / tm) * std::ceil(s.n / tn) * s.groups;
    const double waves = std::ceil(tiles / units);
    const double fill = s.groups * s.m * s.n / (waves * units * tm * tn);
    const double k_loop = s.k > 0 ? s.k / (s.k + chip.gemm_k_overhead) : 1.0;
    return fill * k_loop;
}

double attention_row_work_flops(const Op& op, const Chip& chip) {
    if (op.cls != OpClass::attention) return 0;
    const bool backward = op.variant == OpVariant::backward;
    const double half = backward && chip.attention_backward_half_keys > 0 ? chip.attention_backward_half_keys
                                                                           : chip.attention_half_keys;
    return half * op.row_flops;
}

double kernel_overhead_s(const Op& op, const Chip& chip, const Engine& engine) {
    switch (op.cls) {
        case OpClass::matmul:
        case OpClass::attention: return (chip.gemm_overhead_us + engine.launch_overhead_us) * 1e-6;
        case OpClass::vector:
        case OpClass::lookup: return (chip.kernel_overhead_us + engine.launch_overhead_us) * 1e-6;
        case OpClass::collective:  // α of the collective covers its start-up (network/collective.hpp)
        case OpClass::host: return 0.0;
    }
    return 0.0;
}

}  // namespace envelope
