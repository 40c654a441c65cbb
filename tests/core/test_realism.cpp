// The realism layer's mechanisms, each against a number worked out by hand beside it.
#include <doctest/doctest.h>

#include "fixtures.hpp"
#include "inference/evaluate.hpp"
#include "inference/max_batch.hpp"
#include "io/scenario_json.hpp"
#include "network/collective.hpp"
#include "ops/backward.hpp"
#include "ops/lower.hpp"
#include "perf/context_sum.hpp"
#include "perf/realism.hpp"
#include "perf/roofline.hpp"
#include "presets/registry.hpp"

using namespace envelope;

namespace {

Chip preset_chip(const char* key) { return parse_chip(*find_preset(PresetKind::chip, key), "chip"); }

NetworkLevel h100_level() {
    const Chip c = preset_chip("h100-sxm");
    return parse_system(Json{{"chip", "h100-sxm"}, {"count", 8}}, "system").network.levels.at(0);
}

const Op& op_named(const std::vector<Op>& ops, const std::string& name) {
    for (const Op& op : ops) {
        if (name == op.name) return op;
    }
    FAIL("no op " << name);
    return ops.front();
}

}  // namespace

TEST_CASE("GEMM shape efficiency: whole waves of tiles and the K loop's fixed cost (A100)") {
    const Chip a100 = preset_chip("a100-sxm-80gb");  // 108 SMs, 128 × 128 tiles, k0 = 554
    // 256 × 12288 × 12288: 2 · 96 = 192 tiles → 2 waves of 108; fill = 256·12288 / (2·108·128·128)
    // = 0.888889; K loop 12288 / (12288 + 554) = 0.956860; together 0.850543.
    CHECK(gemm_shape_efficiency({256, 12288, 12288}, a100) == doctest::Approx(0.850543).epsilon(1e-5));
    // 16384 × 12288 × 12288: 12288 tiles → 114 waves (113.8): fill 0.998051, K loop as above.
    CHECK(gemm_shape_efficiency({16384, 12288, 12288}, a100) == doctest::Approx(0.955000).epsilon(1e-5));
    // A chip without a tile model: 1.
    CHECK(gemm_shape_efficiency({1, 1, 1}, preset_chip("h100-sxm")) == 1.0);
}

TEST_CASE("fixed kernel costs: a GEMM's and an elementwise kernel's, plus the engine's launch") {
    const Chip h100 = preset_chip("h100-sxm");  // 5.7 µs per GEMM, 1.26 µs per small kernel
    Engine eager;
    eager.launch_overhead_us = 1.2;
    Op gemm;
    gemm.cls = OpClass::matmul;
    Op norm;
    norm.cls = OpClass::vector;
    Op all_reduce;
    all_reduce.cls = OpClass::collective;
    CHECK(kernel_overhead_s(gemm, h100, eager) == doctest::Approx(6.9e-6));
    CHECK(kernel_overhead_s(norm, h100, eager) == doctest::Approx(2.46e-6));
    CHECK(kernel_overhead_s(all_reduce, h100, eager) == 0.0);  // its latency covers it
}

TEST_CASE("the collective library's protocol flips where its cost model says (8 and 4 H100)") {
    const NetworkLevel l = h100_level();  // 450 GB/s · 0.81, α 0.47 µs, call 10.8 µs, NVLS 0.61 / 27 µs from 5 GPUs
    const CollectiveOptions library;
    // 8 GPUs. LL: 10.8 + 14·0.47 = 17.38 µs + 1.75·n / (364.5 GB/s / 2).
    const double n = 1 << 20;
    const CollectiveChoice small = level_collective(CollectiveKind::all_reduce, Span{&l, 0, -1, 8}, n, library);
    CHECK(std::string(to_string(small.algorithm)) == "ring/LL");
    CHECK(small.cost.time(n) == doctest::Approx(17.38e-6 + 1.75 * n / 182.25e9).epsilon(1e-9));
    // NVLS (27 µs + n / 274.5 GB/s) beats LL above n = 9.62 µs / (9.602 − 3.643) ps/B = 1.614 MB.
    CHECK(std::string(to_string(level_collective(CollectiveKind::all_reduce, Span{&l, 0, -1, 8}, 1.60e6, library).algorithm)) == "ring/LL");
    CHECK(std::string(to_string(level_collective(CollectiveKind::all_reduce, Span{&l, 0, -1, 8}, 1.63e6, library).algorithm)) == "in-network reduction");
    // 4 GPUs (no NVLS below 5): LL 10.8 + 6·0.47 = 13.62 µs + 1.5·n / 182.25 GB/s; Simple
    // 10.8 + 4.8 + 6·3.4 = 36 µs + 1.5·n / 364.5 GB/s; they cross at 22.38 µs · 364.5 GB/s / 1.5
    // = 5.438 MB.
    CHECK(std::string(to_string(level_collective(CollectiveKind::all_reduce, Span{&l, 0, -1, 4}, 5.40e6, library).algorithm)) == "ring/LL");
    CHECK(std::string(to_string(level_collective(CollectiveKind::all_reduce, Span{&l, 0, -1, 4}, 5.48e6, library).algorithm)) ==
          "ring/simple");
    // Forced algorithms (nccl-tests with NCCL_ALGO).
    CollectiveOptions ring_only;
    ring_only.force = CollectiveOptions::Force::ring;
    CHECK(std::string(to_string(level_collective(CollectiveKind::all_reduce, Span{&l, 0, -1, 8}, 1e9, ring_only).algorithm)) == "ring/simple");
}

TEST_CASE("a custom one-shot all-reduce within its size limit, the library above it") {
    const NetworkLevel l = h100_level();
    CollectiveOptions custom;
    custom.all_reduce = AllReduceImpl::custom;
    custom.one_shot = {{2, 16e6}, {4, 1e6}, {8, 5e5}};
    custom.one_shot_latency_us = 5.9;
    custom.one_shot_efficiency = 0.58;
    // 8 GPUs, 400 KB: 5.9 µs + 7 · 400 KB / (450 GB/s · 0.58) = 5.9 + 10.728 µs.
    const CollectiveChoice c = level_collective(CollectiveKind::all_reduce, Span{&l, 0, -1, 8}, 4e5, custom);
    CHECK(std::string(to_string(c.algorithm)) == "one-shot");
    CHECK(c.cost.time(4e5) == doctest::Approx(5.9e-6 + 7 * 4e5 / 261e9).epsilon(1e-9));
    CHECK(std::string(to_string(level_collective(CollectiveKind::all_reduce, Span{&l, 0, -1, 8}, 6e5, custom).algorithm)) == "ring/LL");
    CHECK(std::string(to_string(level_collective(CollectiveKind::all_reduce, Span{&l, 0, -1, 4}, 9e5, custom).algorithm)) == "one-shot");
}

TEST_CASE("on a fully connected board a group reaches only its own links") {
    NetworkLevel board;  // Gaudi2: 262.5 GB/s over 7 peers, 37.5 GB/s each
    board.size = 8;
    board.topology = Topology::fully_connected;
    board.links_per_chip = 21;
    board.link_gbps = 12.5;
    board.efficiency = 1;
    // A pair: all-reduce of 1 GB in the roofline bound = 2·(1/2)·n / 37.5 GB/s = 26.67 ms.
    CHECK(level_bound(CollectiveKind::all_reduce, Span{&board, 0, -1, 2}).time(1e9) == doctest::Approx(1e9 / 37.5e9));
    // Four cards reach 3 peers (112.5 GB/s): 2·(3/4)·n / 112.5 GB/s.
    CHECK(level_bound(CollectiveKind::all_reduce, Span{&board, 0, -1, 4}).time(1e9) == doctest::Approx(1.5e9 / 112.5e9));
    // The whole board: all 262.5 GB/s.
    CHECK(level_bound(CollectiveKind::all_reduce, Span{&board, 0, -1, 8}).time(1e9) == doctest::Approx(1.75e9 / 262.5e9));
}

TEST_CASE("decode attention of an MHA-style kernel reads the cache once per query head") {
    Scenario s = test::tiny_scenario(1, 4, 100, 10);  // 8 query heads, 2 KV heads
    const Stage stage = test::whole_model(s);
    const Pass decode = decode_pass(4, 110);
    const auto kv_read = [&](const Engine& e) {
        const std::vector<Op> ops =
            lower_forward(LowerInput{s.model, stage, s.parallelism, s.workload.inference.precision, decode, e, true});
        return op_named(ops, "attention").traffic.kv_read.at(100);
    };
    Engine grouped, per_head, static_shape;
    per_head.kv_read_once_per_group = false;
    static_shape.kv_read_allocated_length = true;
    // K and V: 2 · 4 sequences · 2 KV heads · 128 · 2 B · 100 tokens = 409,600 B.
    CHECK(kv_read(grouped) == 409'600);
    CHECK(kv_read(per_head) == 409'600 * 4);             // 8 / 2 query heads per KV head
    CHECK(kv_read(static_shape) == 409'600.0 / 100 * 110);  // the whole 110-token allocation
}

TEST_CASE("fp8 GEMMs keep a 16-bit residual stream and all-reduce by default") {
    const Scenario s = parse_scenario(Json::parse(R"({"model": "llama-2-7b",
        "system": {"chip": "h100-sxm", "count": 2},
        "parallelism": {"tp": 2},
        "workload": {"batch": 1, "input_tokens": 8, "output_tokens": 2, "precision": "fp8"}})"));
    CHECK(s.workload.inference.precision.residual == Precision::bf16);
    const Stage stage = test::whole_model(s);
    const Pass prefill = prefill_pass(1, 8, 10);
    const std::vector<Op> ops =
        lower_forward(LowerInput{s.model, stage, s.parallelism, s.workload.inference.precision, prefill, s.engine, true});
    CHECK(op_named(ops, "attn_allreduce").message_bytes.at(0) == 8 * 4096 * 2);  // bf16, not fp8
    CHECK(op_named(ops, "qkv_proj").traffic.activations_read.at(0) == 8 * 4096 * 1);   // fp8 input
    // Q, K, V of 16 heads each per chip: 8 tokens · 6144 outputs in bf16.
    CHECK(op_named(ops, "qkv_proj").traffic.activations_written.at(0) == 8 * 6144 * 2);
}

TEST_CASE("the largest batch fills the engine's KV budget and no more") {
    // Tiny model on the round chip (1e11 B), TP 1: 32,461,824 parameters (per layer
    // 1024·1536 + 1024·1024 + 3·1024·4096 + 2048 = 15,206,400; two layers, embedding and LM
    // head 1000·1024 each, final norm 1024) = 64,923,648 B. One sequence of 100 + 28 tokens caches
    // 2 · 2 layers · 2 KV heads · 128 · 2 B · 128 = 262,144 B. Prefill runs in chunks of 8192
    // tokens, so the largest working set is a decode step's: b · (1024 + 12288 (SiLU·up reads
    // 8192, writes 4096)) · 2 B = 26,624·b. Budget: 0.5 · (1e11 − 64,923,648 − 26,624·b)
    // ≥ 262,144·b ⇔ b ≤ 49,967,538,176 / 275,456 = 181,399.3.
    Scenario s = test::tiny_scenario(1, 1, 100, 28);
    s.engine.kv_cache_memory_fraction = 0.5;
    s.engine.max_prefill_tokens = 8192;
    const int64_t b = largest_batch_that_fits(s);
    s.workload.inference.batch = b;
    const InferenceMemory at = inference_memory_of(s).front();
    CHECK(at.kv_cache_bytes == doctest::Approx(262'144.0 * static_cast<double>(b)));
    CHECK(at.kv_cache_bytes <= at.kv_budget_bytes);
    s.workload.inference.batch = b + 1;
    const InferenceMemory above = inference_memory_of(s).front();
    CHECK(above.kv_cache_bytes > above.kv_budget_bytes);
    CHECK(b == 181'399);
}

TEST_CASE("an engine that does not fuse gate and up runs two GEMMs of half the width") {
    Scenario s = test::tiny_scenario(1, 2, 16, 4);  // gated FFN of 4096
    const Stage stage = test::whole_model(s);
    const Pass prefill = prefill_pass(2, 16, 20);
    Engine separate;
    separate.fused_gate_up = false;
    const PrecisionPlan& pr = s.workload.inference.precision;
    const std::vector<Op> fused = lower_forward(LowerInput{s.model, stage, s.parallelism, pr, prefill, s.engine, true});
    const std::vector<Op> split = lower_forward(LowerInput{s.model, stage, s.parallelism, pr, prefill, separate, true});
    CHECK(op_named(fused, "mlp_up").shape.n == 8192);
    CHECK(op_named(split, "mlp_up").shape.n == 4096);
    CHECK(op_named(split, "mlp_gate").shape.n == 4096);
    CHECK(split.size() == fused.size() + 1);
    CHECK(op_named(split, "mlp_gate").flops.at(0) + op_named(split, "mlp_up").flops.at(0) ==
          op_named(fused, "mlp_up").flops.at(0));
}

TEST_CASE("fused attention runs slower on shorter rows: FlashAttention-3's and -2's published rates") {
    // The papers' benchmark: 16k tokens a batch (batch = 16384 / s), hidden 2048 = 16 heads of
    // 128, FLOPs 4·s²·d·heads per sequence, halved when causal, backward 2.5 × forward. Its
    // 16384 · 16 query rows each pay the row's fixed work once (one kernel call).
    const auto rate = [](const Chip& chip, double s, bool causal, bool backward) {
        const double scale = backward ? 2.5 : 1.0;
        Op a;
        a.cls = OpClass::attention;
        a.precision = Precision::bf16;
        a.variant = backward ? OpVariant::backward : OpVariant::forward;
        a.flops = constant(scale * (16384 / s) * 4 * s * s * 128 * 16 * (causal ? 0.5 : 1.0));
        a.row_flops = scale * 4 * 128 * 16384 * 16;
        const TimingContext ctx{chip, Engine{}, TimingModel::expected};
        return a.flops.base / roofs_of(a, nullptr, ctx).compute_s.base / 1e12;
    };
    const Chip h100 = preset_chip("h100-sxm");
    // Shah et al. 2024 (arXiv:2407.08608 v2), head dimension 128: causal forward (Figure 5(d))
    // 292, 521, 602 TFLOP/s at s = 512, 2k, 8k; backward, non-causal only (Figure 6(b)), 316 and
    // 542 at 512 and 4k.
    CHECK(rate(h100, 512, true, false) == doctest::Approx(292).epsilon(0.05));
    CHECK(rate(h100, 2048, true, false) == doctest::Approx(521).epsilon(0.05));
    CHECK(rate(h100, 8192, true, false) == doctest::Approx(602).epsilon(0.05));
    CHECK(rate(h100, 512, false, true) == doctest::Approx(316).epsilon(0.05));
    CHECK(rate(h100, 4096, false, true) == doctest::Approx(542).epsilon(0.05));
    // Dao 2023 (arXiv:2307.08691 v1), A100, head dimension 128, causal: forward (Figure 5(d)) 132
    // and 200 TFLOP/s at 512 and 8k, backward (Figure 6(d)) 90 and 176.
    const Chip a100 = preset_chip("a100-sxm-80gb");
    CHECK(rate(a100, 512, true, false) == doctest::Approx(132).epsilon(0.05));
    CHECK(rate(a100, 8192, true, false) == doctest::Approx(200).epsilon(0.05));
    CHECK(rate(a100, 512, true, true) == doctest::Approx(90).epsilon(0.05));
    CHECK(rate(a100, 8192, true, true) == doctest::Approx(176).epsilon(0.05));
    // The roofline bound ignores the rows' fixed work: the matrix rate, 0.803 of 989.
    Op a;
    a.cls = OpClass::attention;
    a.precision = Precision::bf16;
    a.flops = constant(1e12);
    a.row_flops = 1e9;
    const TimingContext bound{h100, Engine{}, TimingModel::roofline};
    CHECK(roofs_of(a, nullptr, bound).compute_s.base == doctest::Approx(1e12 / (0.803 * 989e12)));
    // A chip with a half-rate length but no attention fraction: the matrix rate, and the rows.
    Chip plain = h100;
    plain.attention_efficiency = plain.attention_backward_efficiency = 0;
    const TimingContext expected{plain, Engine{}, TimingModel::expected};
    CHECK(roofs_of(a, nullptr, expected).compute_s.base == doctest::Approx((1e12 + 302.5e9) / (0.803 * 989e12)));
}

TEST_CASE("a fused attention kernel's query rows: tokens × heads, once per kernel call") {
    // The tiny model: 8 query heads of 128 on one chip; 4 FLOPs per pair and head dimension.
    Scenario s = test::tiny_scenario(1, 2, 100, 10);
    const Stage stage = test::whole_model(s);
    const auto rows = [&](const Pass& p) {
        const std::vector<Op> ops =
            lower_forward(LowerInput{s.model, stage, s.parallelism, s.workload.inference.precision, p, Engine{}, true});
        return op_named(ops, "attention").row_flops / (4 * 128);
    };
    CHECK(rows(prefill_pass(2, 100, 110)) == 2 * 8 * 100);        // 2 prompts of 100 tokens
    CHECK(rows(prefill_pass(2, 100, 110, 40)) == 2 * 8 * 60);     // 40 of them cached
    CHECK(rows(chunk_pass(2, 25, 0, 110)) == 2 * 8 * 25);         // any chunk: its 25 tokens
    CHECK(rows(decode_pass(2, 110)) == 2 * 8 * 1);                // one token a sequence
    // Training over CP 2: 50 of the 100 tokens on each chip, each row in both ring steps' calls.
    s.parallelism.cp = 2;
    CHECK(rows(training_pass(2, 100, 2)) == 2 * 8 * 50 * 2);
    // The backward's rows cost 2.5 × as much per key, like its FLOPs.
    const std::vector<Op> fwd = lower_forward(
        LowerInput{s.model, stage, s.parallelism, s.workload.inference.precision, training_pass(2, 100, 2), Engine{}, true});
    const std::vector<Op> bwd = lower_backward(fwd, Recompute::none, Precision::bf16);
    CHECK(op_named(bwd, "attention").row_flops == doctest::Approx(2.5 * op_named(fwd, "attention").row_flops));
}
