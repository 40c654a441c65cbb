#include "ops/quantize_casts.hpp"

namespace envelope {

namespace {

// A GEMM on tensor cores narrower than 16 bits.
bool narrow_gemm(const Op& op) {
    return op.cls == OpClass::matmul && bytes_per_element(element_format(op.precision)) < 2;
}

// Cast (and transpose) `elements` 16-bit values to the GEMM's format: two copies written, each
// of bytes_per_element.
Op cast(const Op& gemm, double elements, OpVariant variant) {
    Op c;
    c.name = bytes_per_element(element_format(gemm.precision)) < 1 ? "fp4_cast" : "fp8_cast";
    c.variant = variant;
    c.cls = OpClass::vector;
    c.precision = Precision::fp32;
    c.count = gemm.count;
    c.layer = gemm.layer;
    c.flops = constant(2 * elements);  // scale and convert
    c.traffic.activations_read = constant(2 * elements);
    c.traffic.activations_written = constant(2 * elements * bytes_per_element(gemm.precision));
    return c;
}

}  // namespace

void add_quantize_casts(std::vector<Op>& forward, std::vector<Op>& backward) {
    std::vector<Op> f;
    f.reserve(forward.size() * 2);
    for (const Op& op : forward) {
        if (narrow_gemm(op)) f.push_back(cast(op, op.shape.groups * op.shape.m * op.shape.k, OpVariant::forward));  // the input [m × k]
        f.push_back(op);
    }
    forward = std::move(f);
    std::vector<Op> b;
    b.reserve(backward.size() * 2);
    for (const Op& op : backward) {
        // The output gradient [m × n] of a forward GEMM, before its dgrad.
        if (narrow_gemm(op) && op.variant == OpVariant::dgrad) b.push_back(cast(op, op.shape.groups * op.shape.m * op.shape.k, OpVariant::backward));
        b.push_back(op);
    }
    backward = std::move(b);
}

}  // namespace envelope
