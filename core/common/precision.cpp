#include "common/precision.hpp"

namespace envelope {

double bytes_per_element(Precision p) {
    switch (p) {
        case Precision::fp32:
        case Precision::tf32: return 4.0;
        case Precision::bf16:
        case Precision::fp16: return 2.0;
        case Precision::fp8:
        case Precision::int8: return 1.0;
        case Precision::fp4:
        case Precision::int4: return 0.5;
        // Half a byte an element plus one scale byte per block: NVFP4 1/16 (E4M3 per 16; its one
        // fp32 scale per tensor is left out), MXFP4 and MXFP8 1/32 (E8M0 per 32). OCP Microscaling
        // Formats (MX) v1.0 §5; NVIDIA, "Introducing NVFP4 for Efficient and Accurate Low-Precision
        // Inference" (developer blog, 2025-06).
        case Precision::nvfp4: return 0.5 + 1.0 / 16;
        case Precision::mxfp4: return 0.5 + 1.0 / 32;
        case Precision::mxfp8: return 1.0 + 1.0 / 32;
    }
    return 0.0;  // unreachable: every enumerator is handled above
}

Precision element_format(Precision p) {
    switch (p) {
        case Precision::nvfp4:
        case Precision::mxfp4: return Precision::fp4;
        case Precision::mxfp8: return Precision::fp8;
        default: return p;
    }
}

std::string_view to_string(Precision p) {
    switch (p) {
        case Precision::fp32: return "fp32";
        case Precision::tf32: return "tf32";
        case Precision::bf16: return "bf16";
        case Precision::fp16: return "fp16";
        case Precision::fp8: return "fp8";
        case Precision::int8: return "int8";
        case Precision::fp4: return "fp4";
        case Precision::int4: return "int4";
        case Precision::nvfp4: return "nvfp4";
        case Precision::mxfp4: return "mxfp4";
        case Precision::mxfp8: return "mxfp8";
    }
    return "?";
}

std::optional<Precision> precision_from_string(std::string_view name) {
    for (Precision p : kAllPrecisions) {
        if (to_string(p) == name) return p;
    }
    return std::nullopt;
}

Precision wider(Precision a, Precision b) {
    return bytes_per_element(b) > bytes_per_element(a) ? b : a;
}

}  // namespace envelope
