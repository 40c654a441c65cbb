#pragma once
// A quantity that grows linearly with the attended context length L.
//
// During decode every per-step cost (FLOPs, bytes, seconds) of an operator is
// base + per_context·L: weights are read once per step whatever L is, while attention
// reads the whole KV cache (∝ L). Keeping that form lets the evaluator sum a whole
// generation in closed form instead of looping over tokens (see perf/context_sum.hpp).
namespace envelope {

struct Affine {
    double base = 0;
    double per_context = 0;

    double at(double context) const { return base + per_context * context; }

    friend Affine operator+(Affine a, Affine b) {
        return {a.base + b.base, a.per_context + b.per_context};
    }
    friend Affine operator*(double k, Affine a) { return {k * a.base, k * a.per_context}; }
    friend Affine operator*(Affine a, double k) { return k * a; }
};

inline Affine constant(double value) { return {value, 0.0}; }

}  // namespace envelope
