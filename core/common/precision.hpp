#pragma once
// Numeric formats for weights, KV cache, activations and compute.
#include <optional>
#include <string_view>

namespace envelope {

// The plain formats, then the block-scaled ones (microscaling: each block of elements shares
// one scale stored beside them): NVFP4 (E2M1 elements, one E4M3 scale per 16), MXFP4 (E2M1,
// one E8M0 scale per 32) and MXFP8 (E4M3, one E8M0 scale per 32).
enum class Precision { fp32, tf32, bf16, fp16, fp8, int8, fp4, int4, nvfp4, mxfp4, mxfp8 };

inline constexpr Precision kAllPrecisions[] = {
    Precision::fp32, Precision::tf32, Precision::bf16,  Precision::fp16,  Precision::fp8,   Precision::int8,
    Precision::fp4,  Precision::int4, Precision::nvfp4, Precision::mxfp4, Precision::mxfp8,
};

// The formats a chip states a matrix peak (and efficiency) for: a block-scaled format runs on
// the tensor cores of its element format (element_format below), so it has no peak of its own.
inline constexpr Precision kMatrixFormats[] = {
    Precision::fp32, Precision::tf32, Precision::bf16, Precision::fp16,
    Precision::fp8,  Precision::int8, Precision::fp4,  Precision::int4,
};

// Storage size of one element, its share of the block scale included (METHODOLOGY §7.1).
// tf32 is stored as a 32-bit float.
double bytes_per_element(Precision p);

// The format whose matrix peak a GEMM in p runs at: nvfp4 and mxfp4 → fp4, mxfp8 → fp8 (Blackwell
// and MI355X tensor cores take the scales in the MMA instruction); a plain format is its own.
Precision element_format(Precision p);

// Lower-case name used in JSON ("bf16").
std::string_view to_string(Precision p);
std::optional<Precision> precision_from_string(std::string_view name);

// The format a matmul runs in when its two operands are stored in formats a and b:
// the wider of the two (weight-only quantization, e.g. int4 weights with bf16
// activations, dequantizes to bf16 and runs bf16 matmuls). Ties keep a.
Precision wider(Precision a, Precision b);

}  // namespace envelope
