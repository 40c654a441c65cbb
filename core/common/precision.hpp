#pragma once
// Numeric formats for weights, KV cache, activations and compute.
#include <optional>
#include <string_view>

namespace envelope {

enum class Precision { fp32, tf32, bf16, fp16, fp8, int8, fp4, int4 };

inline constexpr Precision kAllPrecisions[] = {
    Precision::fp32, Precision::tf32, Precision::bf16, Precision::fp16,
    Precision::fp8,  Precision::int8, Precision::fp4,  Precision::int4,
};

// Storage size of one element. tf32 is stored as a 32-bit float.
double bytes_per_element(Precision p);

// Lower-case name used in JSON ("bf16").
std::string_view to_string(Precision p);
std::optional<Precision> precision_from_string(std::string_view name);

// The format a matmul runs in when its two operands are stored in formats a and b:
// the wider of the two (weight-only quantization, e.g. int4 weights with bf16
// activations, dequantizes to bf16 and runs bf16 matmuls). Ties keep a.
Precision wider(Precision a, Precision b);

}  // namespace envelope
