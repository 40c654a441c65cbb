#include "ops/builders.hpp"

#include <cmath>

namespace envelope::build {

Op matmul(const char* name, double count, double tokens, double k, double n, Precision weights,
          Precision inputs, Precision outputs, bool bias) {
    const double wb = bytes_per_element(weights);
    const double ab = bytes_per_element(inputs);
    Op op;
    op.name = name;
    op.cls = OpClass::matmul;
    op.precision = wider(inputs, weights);
    op.count = count;
    op.flops = constant(2.0 * tokens * k * n + (bias ? tokens * n : 0.0));
    op.shape = MatmulShape{tokens, n, k};
    op.traffic.weights_read = constant((k * n + (bias ? n : 0.0)) * wb);
    op.traffic.activations_read = constant(tokens * k * ab);
    op.traffic.activations_written = constant(tokens * n * bytes_per_element(outputs));
    // Dequantized in the kernel when the weights' elements are narrower than the inputs' (a
    // block scale does not count: NVFP4 weights against fp4 inputs share the fp4 tensor cores).
    const double we = bytes_per_element(element_format(weights)), ae = bytes_per_element(element_format(inputs));
    if (we < ae) {
        const double per_element = we < 1 ? 4 : 2;
        op.vector_flops = constant(per_element * k * n * std::ceil(tokens / kDequantRows));
    }
    return op;
}

Op grouped_matmul(const char* name, double count, double groups, double tokens, double k, double n,
                  Precision weights, Precision inputs, Precision outputs, bool bias) {
    Op op = matmul(name, count, tokens, k, n, weights, inputs, outputs, bias);
    op.flops = groups * op.flops;
    op.traffic.weights_read = groups * op.traffic.weights_read;
    op.traffic.activations_read = groups * op.traffic.activations_read;
    op.traffic.activations_written = groups * op.traffic.activations_written;
    op.shape.groups = groups;
    return op;
}

Op vector(const char* name, double count, Affine elements_in, Affine elements_out,
          double flops_per_out, Precision activations, double weight_elements,
          Precision weights) {
    const double ab = bytes_per_element(activations);
    Op op;
    op.name = name;
    op.cls = OpClass::vector;
    op.precision = Precision::fp32;  // vector units accumulate in fp32
    op.count = count;
    op.flops = flops_per_out * elements_out;
    op.traffic.weights_read = constant(weight_elements * bytes_per_element(weights));
    op.traffic.activations_read = ab * elements_in;
    op.traffic.activations_written = ab * elements_out;
    return op;
}

Op collective(const char* name, double count, CollectiveKind kind, Affine bytes, ParallelDim dim,
              int64_t group, Precision precision) {
    Op op;
    op.name = name;
    op.cls = OpClass::collective;
    op.precision = precision;
    op.count = count;
    op.collective = kind;
    op.message_bytes = bytes;
    op.dim = dim;
    op.group = group;
    return op;
}

Op attention(double count, Precision math, const Affine& pairs, double flops_per_pair, double rows) {
    Op a;
    a.name = "attention";
    a.cls = OpClass::attention;
    a.role = OpRole::attention_core;
    a.precision = math;
    a.count = count;
    a.flops = flops_per_pair * pairs;
    a.row_flops = flops_per_pair * rows;
    return a;
}

}  // namespace envelope::build
