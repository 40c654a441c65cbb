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
    }
    return 0.0;  // unreachable: every enumerator is handled above
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
