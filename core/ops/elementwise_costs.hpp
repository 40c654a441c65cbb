#pragma once
// FLOPs per element of the elementwise and reduction kernels.
//
// These kernels move 2–6 bytes per element and do a handful of operations on it, so
// on every chip we model they sit far below the ridge point (the vector roof is never
// the binding one for realistic shapes). The counts are what one element costs in the
// straightforward formulation, stated so the numbers can be checked by hand:
namespace envelope::elementwise_flops {

inline constexpr double kRmsNorm = 4;     // x², running sum, ×rsqrt(mean), ×scale
inline constexpr double kLayerNorm = 7;   // sum, (x−µ), (x−µ)², sum, ×rsqrt, ×scale, +shift
inline constexpr double kResidualAdd = 1;
inline constexpr double kSiluMul = 5;     // SwiGLU g·σ(g)·u: exp(−g), +1, reciprocal, ×g, ×u
inline constexpr double kGelu = 8;        // tanh form: x³, ×c, +x, ×√(2/π), tanh, +1, ×x, ×½
inline constexpr double kSoftmax = 5;     // max, −max, exp, sum, divide
inline constexpr double kDropout = 3;     // random draw, compare with p, × 1/(1 − p) or 0
// Per (token, inner channel, state element) of a selective scan: Δ·A, exp, Δ·B·x, the
// recurrence h = Ā·h + B̄x (2), and C·h into y with its sum (2): 8, plus the skip D·x
// spread over the state: ≈ 9 (Gu & Dao 2023, Algorithm 2).
inline constexpr double kScanPerState = 9;
inline constexpr double kConvPerTap = 2;  // depthwise causal convolution: multiply, add

}  // namespace envelope::elementwise_flops
