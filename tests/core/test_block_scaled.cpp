// Block-scaled number formats (NVFP4, MXFP4, MXFP8): their bytes with the scales, the tensor
// cores they run on, and where the model accepts them. Every number is worked by hand from
// the formats' definitions (OCP Microscaling Formats v1.0; NVIDIA's NVFP4 description).
#include <doctest/doctest.h>

#include "fixtures.hpp"
#include "inference/evaluate.hpp"

using namespace envelope;

TEST_CASE("a block-scaled element costs its bits plus its share of the block's scale byte") {
    // NVFP4: 4-bit E2M1 values, one 8-bit E4M3 scale per 16 → 4 + 8/16 = 4.5 bits = 0.5625 B.
    CHECK(bytes_per_element(Precision::nvfp4) == 0.5625);
    // MXFP4: E2M1, one 8-bit E8M0 scale per 32 → 4.25 bits = 0.53125 B.
    CHECK(bytes_per_element(Precision::mxfp4) == 0.53125);
    // MXFP8: E4M3, one E8M0 per 32 → 8.25 bits = 1.03125 B.
    CHECK(bytes_per_element(Precision::mxfp8) == 1.03125);
    // They run on the tensor cores of their elements; the plain formats are their own.
    CHECK(element_format(Precision::nvfp4) == Precision::fp4);
    CHECK(element_format(Precision::mxfp4) == Precision::fp4);
    CHECK(element_format(Precision::mxfp8) == Precision::fp8);
    CHECK(element_format(Precision::bf16) == Precision::bf16);
    for (Precision p : kAllPrecisions) CHECK(precision_from_string(to_string(p)) == p);
    CHECK(to_string(Precision::nvfp4) == "nvfp4");
    // A bf16 activation against NVFP4 weights dequantizes: the matmul runs in bf16.
    CHECK(wider(Precision::bf16, Precision::nvfp4) == Precision::bf16);
    CHECK(wider(Precision::fp8, Precision::mxfp8) == Precision::mxfp8);
}

TEST_CASE("a chip's fp4 peak and efficiency serve NVFP4 and MXFP4; no peak of their own") {
    Chip c = test::round_chip();
    c.peak_tflops[static_cast<std::size_t>(Precision::fp4)] = 40;
    c.matrix_efficiency[static_cast<std::size_t>(Precision::fp4)] = 0.5;
    CHECK(c.peak(Precision::nvfp4) == 40);
    CHECK(c.peak(Precision::mxfp4) == 40);
    CHECK(c.matrix_efficiency_for(Precision::mxfp4) == 0.5);
    CHECK_FALSE(c.peak(Precision::mxfp8));  // the round chip has no fp8 peak
}

TEST_CASE("NVFP4 weights: 0.5625 B a parameter in memory; on a chip without fp4 the error names fp4") {
    // The tiny model of test_memory.cpp: 16,233,472 parameters, at 2 B in bf16.
    Scenario s = test::tiny_scenario(2, 3, 100, 28);
    s.workload.inference.precision.weights = Precision::nvfp4;  // bf16 activations: dequantized
    CHECK(evaluate_inference(s).memory.weights_bytes == 16'233'472 * 0.5625);  // 9,131,328 B
    s.workload.inference.precision.weights = Precision::mxfp4;
    CHECK(evaluate_inference(s).memory.weights_bytes == 16'233'472 * 0.53125);

    // Activations in NVFP4 too: the matmuls run in NVFP4, on fp4 tensor cores the round chip lacks.
    s.workload.inference.precision.activations = Precision::nvfp4;
    try {
        check_scenario(s);
        FAIL("expected an error");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()).find("has no fp4 peak") != std::string::npos);
    }
}

TEST_CASE("training in a block-scaled recipe is refused with the field and the formats allowed") {
    Scenario s = test::tiny_scenario(1, 1, 16, 1);
    s.workload.kind = WorkloadKind::training;
    s.workload.training.precision = Precision::mxfp8;
    try {
        check_scenario(s);
        FAIL("expected an error");
    } catch (const InputError& e) {
        CHECK(e.path() == "workload.precision");
        CHECK(std::string(e.what()).find("bf16, fp16, fp8 or fp4") != std::string::npos);
    }
}
