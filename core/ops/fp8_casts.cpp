#include "ops/fp8_casts.hpp"

#include <string_view>

namespace envelope {

namespace {

bool fp8_gemm(const Op& op) { return op.cls == OpClass::matmul && bytes_per_element(op.precision) == 1; }

// Cast (and transpose) `elements` 16-bit values to fp8.
Op cast(const Op& gemm, double elements, const char* variant) {
    Op c;
    c.name = "fp8_cast";
    c.variant = variant;
    c.cls = OpClass::vector;
    c.precision = Precision::fp32;
    c.count = gemm.count;
    c.layer = gemm.layer;
    c.flops = constant(2 * elements);  // scale and convert
    c.traffic.activations_read = constant(2 * elements);
    c.traffic.activations_written = constant(2 * elements);
    return c;
}

}  // namespace

void add_fp8_casts(std::vector<Op>& forward, std::vector<Op>& backward) {
    std::vector<Op> f;
    f.reserve(forward.size() * 2);
    for (const Op& op : forward) {
        if (fp8_gemm(op)) f.push_back(cast(op, op.shape.groups * op.shape.m * op.shape.k, ""));  // the input [m × k]
        f.push_back(op);
    }
    forward = std::move(f);
    std::vector<Op> b;
    b.reserve(backward.size() * 2);
    for (const Op& op : backward) {
        // The output gradient [m × n] of a forward GEMM, before its dgrad.
        if (fp8_gemm(op) && std::string_view(op.variant) == "dgrad") b.push_back(cast(op, op.shape.groups * op.shape.m * op.shape.k, "backward"));
        b.push_back(op);
    }
    backward = std::move(b);
}

}  // namespace envelope
