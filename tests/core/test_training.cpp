// Training: activation memory against Korthikanti et al. 2022's formulas, the pipeline
// schedules' bubbles, ZeRO memory by stage, the FLOP conventions, and one small step by hand.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "common/error.hpp"
#include "evaluate.hpp"
#include "fixtures.hpp"
#include "io/scenario_json.hpp"
#include "memory/training_memory.hpp"
#include "model/params.hpp"
#include "ops/quantize_casts.hpp"
#include "presets/registry.hpp"
#include "training/evaluate.hpp"
#include "training/flops.hpp"
#include "training/step.hpp"

using namespace envelope;

namespace {

Model gpt3() { return parse_model(*find_preset(PresetKind::model, "gpt-3-175b"), "model"); }

// One stage of GPT-3 175B: `layers` layers, neither end.
TrainingMemory gpt3_layers(int64_t layers, int64_t tp, bool sp, Recompute r, bool flash) {
    static const Model m = gpt3();
    Stage stage;
    stage.first = stage.last = false;
    stage.groups = {LayerGroup{m.groups[0].layer, layers}};
    Parallelism p;
    p.tp = tp;
    p.sp = sp;
    TrainingWorkload w;
    w.seq_len = 2048;
    w.micro_batch = 1;
    w.recompute = r;
    w.flash_attention = flash;
    w.dropout = true;
    const Chip chip = test::round_chip();
    return training_memory(TrainingMemoryInput{m, stage, p, w, chip, 1});
}

Scenario tiny_training(int64_t dp, int zero) {
    Scenario s = test::tiny_scenario(1, 1, 16, 1);
    s.system = test::round_system(dp);
    s.parallelism.dp = dp;
    s.parallelism.zero = zero;
    s.workload.kind = WorkloadKind::training;
    TrainingWorkload& w = s.workload.training;
    w.seq_len = 16;
    w.global_batch = dp;
    w.micro_batch = 1;
    return s;
}

}  // namespace

TEST_CASE("activation memory per layer reproduces Korthikanti et al. 2022 Table 2 for GPT-3 175B") {
    // s = 2048, b = 1, h = 12288, a = 96, t = 8, 16-bit activations with dropout masks.
    const double sbh = 2048.0 * 12288;
    const double scores = 5.0 * 96 * 2048 / 12288;  // 5as/h
    const double t = 8;
    // TP only: sbh·(10 + 24/t + 5as/(ht)).
    CHECK(gpt3_layers(1, 8, false, Recompute::none, false).activations_per_micro_batch ==
          doctest::Approx(sbh * (10 + 24 / t + scores / t)));
    // TP + SP: sbh·(34/t + 5as/(ht)).
    CHECK(gpt3_layers(1, 8, true, Recompute::none, false).activations_per_micro_batch ==
          doctest::Approx(sbh * (34 / t + scores / t)));
    // TP + SP + selective recompute: sbh·34/t = 106.95 MB per layer.
    CHECK(gpt3_layers(1, 8, true, Recompute::selective, false).activations_per_micro_batch ==
          doctest::Approx(sbh * 34 / t));
    // Full recompute keeps each layer's input: 2·sbh (÷ t under SP).
    CHECK(gpt3_layers(12, 8, false, Recompute::full, false).activations_per_micro_batch ==
          doctest::Approx(12 * 2 * sbh));
    // No parallelism: sbh·(34 + 5as/h).
    CHECK(gpt3_layers(1, 1, false, Recompute::none, false).activations_per_micro_batch ==
          doctest::Approx(sbh * (34 + scores)));
}

TEST_CASE("pipeline schedules: 1F1B takes (m + p − 1)·T, interleaved (m + (p − 1)/v)·T") {
    // Four stages whose one micro-batch takes 1 ms forward and 2 ms backward: a vector op
    // over 1e9 (forward) or 2e9 (backward) bytes at 1 TB/s; no parameters, no data parallelism.
    Scenario s = test::tiny_scenario(1, 1, 16, 1);
    s.system = test::round_system(4);
    s.parallelism.pp = 4;
    s.workload.kind = WorkloadKind::training;
    Op f = build_for_test::streaming_op(1e9);
    Op b = build_for_test::streaming_op(2e9);
    std::vector<StageOps> stages;
    for (int64_t i = 0; i < 4; ++i) {
        StageOps st;
        st.stage.index = i;
        st.stage.first = st.stage.last = false;
        st.forward = {f};
        st.backward = {b};
        stages.push_back(st);
    }
    const Placement placement = place(s.parallelism, s.system.network);
    const StepTime one = training_step(s, stages, placement, 8);
    CHECK(one.pipeline_s == doctest::Approx((8 + 3) * 3e-3));
    CHECK(one.bubble_s == doctest::Approx(3 * 3e-3));
    s.parallelism.schedule = PipelineSchedule::interleaved_1f1b;
    s.parallelism.virtual_stages = 2;
    const StepTime two = training_step(s, stages, placement, 8);
    CHECK(two.pipeline_s == doctest::Approx((8 + 1.5) * 3e-3));
    // In-flight micro-batches on stage 0: 1F1B min(p, m) = 4; interleaved p + (p − 1)/v = 5.5.
    Stage first;
    first.index = 0;
    first.first = first.last = false;
    TrainingWorkload w;
    w.seq_len = 16;
    TrainingMemoryInput in{s.model, first, s.parallelism, w, s.system.chip, 8};
    CHECK(training_memory(in).in_flight == doctest::Approx(5.5));
    s.parallelism.schedule = PipelineSchedule::one_f_one_b;
    s.parallelism.virtual_stages = 1;
    CHECK(training_memory(TrainingMemoryInput{s.model, first, s.parallelism, w, s.system.chip, 8}).in_flight == 4);
}

TEST_CASE("ZB-H1 fills the bubble with deferred weight gradients: (p − 1)(t_F + t_B − t_W) (Qi et al. 2024)") {
    // Four equal stages; a micro-batch takes 1 ms forward, 1 ms of input gradients and 1 ms
    // of weight gradients (vector ops over 1e9 bytes at 1 TB/s): T = 3 ms, t_W = 1 ms.
    Scenario s = test::tiny_scenario(1, 1, 16, 1);
    s.system = test::round_system(4);
    s.parallelism.pp = 4;
    s.workload.kind = WorkloadKind::training;
    Op wgrad = build_for_test::streaming_op(1e9);
    wgrad.variant = OpVariant::wgrad;
    std::vector<StageOps> stages;
    for (int64_t i = 0; i < 4; ++i) {
        StageOps st;
        st.stage.index = i;
        st.stage.first = st.stage.last = false;
        st.forward = {build_for_test::streaming_op(1e9)};
        st.backward = {build_for_test::streaming_op(1e9), wgrad};
        stages.push_back(st);
    }
    const Placement placement = place(s.parallelism, s.system.network);
    // 1F1B: the bubble is (p − 1)·T = 9 ms.
    CHECK(training_step(s, stages, placement, 8).bubble_s == doctest::Approx(9e-3));
    s.parallelism.schedule = PipelineSchedule::zero_bubble;
    // ZB-H1's row of Qi et al.'s table, with their t_B the input gradients only (1 ms):
    // (p − 1)(t_F + t_B − t_W) = 3 · (1 + 1 − 1) = 3 ms, after m·T = 24 ms.
    const StepTime zb = training_step(s, stages, placement, 8);
    CHECK(zb.bubble_s == doctest::Approx(3e-3));
    CHECK(zb.pipeline_s == doctest::Approx(27e-3));
    // Two micro-batches have only two weight-gradient passes to move into the three slots:
    // each that moves saves its t_W twice (off the critical path and into an idle slot), so
    // the bubble is 9 − 2 · 2 · 1 = 5 ms.
    CHECK(training_step(s, stages, placement, 2).bubble_s == doctest::Approx(5e-3));
}

TEST_CASE("gradient buckets: max(bucket_params, bucket_params_per_dp · d) parameters, all but the last hidden") {
    // Two data-parallel replicas of two tiny-model layers, ZeRO 0: the gradients are one
    // all-reduce. The backward pass (a 1 TB vector op: 1 s at 1 TB/s) is far longer than the
    // all-reduce, so with overlap_grad_reduce only the last bucket stays exposed:
    // all-reduce / buckets.
    Scenario s = test::tiny_scenario(1, 1, 16, 1);
    s.system = test::round_system(2);
    s.parallelism.dp = 2;
    s.workload.kind = WorkloadKind::training;
    s.workload.training.overlap_grad_reduce = true;
    StageOps st;
    st.stage.index = 0;
    st.stage.first = st.stage.last = false;
    st.stage.groups = {LayerGroup{s.model.groups[0].layer, 2}};
    st.forward = {build_for_test::streaming_op(1e9)};
    st.backward = {build_for_test::streaming_op(1e12)};
    const double psi = count_slice_params(s.model, st.stage.groups, false, false, 1, 1, 1).total();
    const Placement placement = place(s.parallelism, s.system.network);
    const auto exposed = [&](double bucket_params, double per_dp) {
        s.framework.bucket_params = bucket_params;
        s.framework.bucket_params_per_dp = per_dp;
        return training_step(s, {st}, placement, 1).stages[0].dp_s;
    };
    const double whole = exposed(2 * psi, 0);  // one bucket: nothing hides
    REQUIRE(whole > 0);
    CHECK(exposed(psi / 4, 0) == doctest::Approx(whole / 4));
    // The per-replica term decides when it is larger: psi/8 per replica · 2 replicas = psi/4.
    CHECK(exposed(1, psi / 8) == doctest::Approx(whole / 4));
    CHECK(exposed(psi / 8, psi / 8) == doctest::Approx(whole / 4));
    // Without the overlap the whole all-reduce is exposed.
    s.workload.training.overlap_grad_reduce = false;
    CHECK(exposed(psi / 4, 0) == doctest::Approx(whole));
}

TEST_CASE("ZeRO stages shard optimizer states, then gradients, then weights (16 → 2 + 14/d bytes …)") {
    // The tiny model: Ψ = 32,461,824 parameters (tests/core/test_realism.cpp), 4 replicas.
    const double psi = 32'461'824;
    const auto memory = [&](int zero) {
        const Scenario s = tiny_training(4, zero);
        return evaluate_training(s).training_memory.front();
    };
    const TrainingMemory z0 = memory(0), z1 = memory(1), z2 = memory(2), z3 = memory(3);
    CHECK(z0.weights_bytes == doctest::Approx(2 * psi));
    CHECK(z0.gradient_bytes == doctest::Approx(4 * psi));
    CHECK(z0.optimizer_bytes == doctest::Approx(12 * psi));
    CHECK(z1.optimizer_bytes == doctest::Approx(3 * psi));   // 12Ψ / 4
    CHECK(z1.gradient_bytes == doctest::Approx(4 * psi));
    CHECK(z2.gradient_bytes == doctest::Approx(psi));        // 4Ψ / 4
    CHECK(z2.weights_bytes == doctest::Approx(2 * psi));
    // ZeRO-3: 2Ψ/4 plus two gathered layers of 15,206,400 parameters in 16 bits.
    CHECK(z3.weights_bytes == doctest::Approx(2 * psi / 4 + 2 * 2 * 15'206'400));
}

TEST_CASE("FLOP conventions: Narayanan et al. 2021 eq. 3 with full recompute, Korthikanti eq. 7 without") {
    const Model m = gpt3();
    TrainingWorkload w;
    w.seq_len = 2048;
    w.global_batch = 1536;
    const double B = 1536, s = 2048, L = 96, h = 12288, V = static_cast<double>(m.vocab);
    w.recompute = Recompute::full;
    w.flash_attention = false;  // their runs: unfused attention computes the whole s × s rectangle
    const TrainingFlops full = training_flops(m, w);
    // The preset's biases and a 4h FFN of 49,152 make the count exact in h², not in biases.
    CHECK(full.hardware == doctest::Approx(96 * B * s * L * h * h * (1 + s / (6 * h) + V / (16 * L * h))).epsilon(1e-9));
    CHECK(full.model == doctest::Approx(72 * B * s * L * h * h * (1 + s / (6 * h) + V / (12 * h * L))).epsilon(1e-9));
    // FlashAttention skips the causal mask's blocks: a query meets (s + 1)/2 keys on average, so
    // the attention term of eq. 3, 4·B·s·L·4·h·s, runs at 4·B·s·L·4·h·(s + 1)/2:
    // 96·B·s·L·h²·(1 + (s + 1)/(12·h) + V/(16·L·h)). The model FLOPs keep the convention.
    w.flash_attention = true;
    const TrainingFlops flash = training_flops(m, w);
    CHECK(flash.hardware == doctest::Approx(96 * B * s * L * h * h * (1 + (s + 1) / (12 * h) + V / (16 * L * h))).epsilon(1e-9));
    CHECK(flash.model == full.model);
}

TEST_CASE("a small step by hand: the MLP's up projection forward, dgrad and wgrad on the round chip") {
    // Tiny model, one sequence of 16 tokens: up projection [16 × 1024]·[1024 × 8192] (gate
    // and up fused). Forward and dgrad: 2·16·1024·8192 = 268,435,456 FLOPs at 10 TFLOP/s =
    // 26.84 µs (their 16.8 MB of weights take 16.8 µs at 1 TB/s). Wgrad reads and writes the
    // fp32 main gradient: 2 · 4 · 1024 · 8192 = 67.1 MB → 67.11 µs, memory-bound.
    Scenario s = tiny_training(1, 0);
    check_scenario(s);
    const Result r = evaluate(s);
    double forward = 0, dgrad = 0, wgrad = 0;
    for (const OpReport& o : r.phase("forward").ops) {
        if (std::string(o.name) == "mlp_up") forward = o.time_s;
    }
    for (const OpReport& o : r.phase("backward").ops) {
        if (std::string(o.name) == "mlp_up" && std::string(op_variant_name(o.variant)) == "dgrad") dgrad = o.time_s;
        if (std::string(o.name) == "mlp_up" && std::string(op_variant_name(o.variant)) == "wgrad") wgrad = o.time_s;
    }
    CHECK(forward == doctest::Approx(26.8435456e-6));
    CHECK(dgrad == doctest::Approx(26.8435456e-6));
    CHECK(wgrad == doctest::Approx(2 * 4 * 1024 * 8192 / 1e12 + 16 * 1024 * 2 / 1e12 + 16 * 8192 * 2 / 1e12));
    // One micro-batch, one chip, no pipeline: the step is the forward and backward plus Adam's
    // 30 bytes per parameter at 1 TB/s.
    const TrainingSummary& t = r.training;
    CHECK(t.breakdown.optimizer_s == doctest::Approx(30 * 32'461'824 / 1e12));
    CHECK(t.step_time_s == doctest::Approx(t.breakdown.compute_s + t.breakdown.optimizer_s));
    CHECK(t.mfu == doctest::Approx(t.model_tflops_per_chip / 10));
}

TEST_CASE("training checks name the field") {
    Scenario s = tiny_training(2, 0);
    s.workload.training.global_batch = 3;  // not a whole number of micro-batches on 2 replicas
    const auto path = [](const Scenario& x) {
        try {
            check_scenario(x);
        } catch (const InputError& e) {
            return e.path();
        }
        return std::string("no error");
    };
    CHECK(path(s) == "workload.global_batch");
    s = tiny_training(2, 0);
    s.parallelism.virtual_stages = 2;  // without the interleaved schedule
    CHECK(path(s) == "parallelism.virtual_stages");
}

TEST_CASE("low-precision training casts each GEMM input (and transposes it) before the GEMM") {
    std::vector<Op> forward, backward;
    Op gemm;
    gemm.name = "mlp_up";
    gemm.cls = OpClass::matmul;
    gemm.precision = Precision::fp8;
    gemm.shape = MatmulShape{16, 8192, 1024};  // [16 × 1024] · [1024 × 8192]
    gemm.count = 2;
    forward.push_back(gemm);
    Op dgrad = gemm;
    dgrad.variant = OpVariant::dgrad;
    dgrad.shape = MatmulShape{16, 1024, 8192};
    backward.push_back(dgrad);
    add_quantize_casts(forward, backward);
    REQUIRE(forward.size() == 2);
    // 16 · 1024 inputs: read 2 B, write 1 B twice (the tensor and its transpose).
    CHECK(std::string(forward[0].name) == "fp8_cast");
    CHECK(forward[0].traffic.total().at(0) == 4.0 * 16 * 1024);
    CHECK(forward[0].count == 2);
    REQUIRE(backward.size() == 2);
    // The output gradient [16 × 8192] before the dgrad.
    CHECK(backward[0].traffic.total().at(0) == 4.0 * 16 * 8192);
    // A 16-bit GEMM gets none.
    std::vector<Op> f16{gemm}, b16;
    f16[0].precision = Precision::bf16;
    add_quantize_casts(f16, b16);
    CHECK(f16.size() == 1);
    // A 4-bit GEMM gets an fp4 cast: read 2 B, write ½ B twice an element.
    std::vector<Op> f4{gemm}, b4;
    f4[0].precision = Precision::fp4;
    add_quantize_casts(f4, b4);
    REQUIRE(f4.size() == 2);
    CHECK(std::string(f4[0].name) == "fp4_cast");
    CHECK(f4[0].traffic.total().at(0) == 3.0 * 16 * 1024);
}

TEST_CASE("unfused attention's batched products get a backward too: finite, twice the FLOPs") {
    Scenario s = tiny_training(1, 0);
    s.workload.training.flash_attention = false;
    check_scenario(s);
    const Result r = evaluate(s);
    double forward = 0, backward = 0;
    for (const OpReport& o : r.phase("forward").ops) {
        if (std::string(o.name) == "attn_scores") forward = o.flops;
    }
    for (const OpReport& o : r.phase("backward").ops) {
        CHECK(std::isfinite(o.bytes_read));
        CHECK(std::isfinite(o.bytes_written));
        if (std::string(o.name) == "attn_scores") backward = o.flops;
    }
    CHECK(forward > 0);
    CHECK(backward == doctest::Approx(2 * forward));
    CHECK(std::isfinite(r.phase("backward").bytes));
}

TEST_CASE("training FLOPs of a mixture count the router and the top_k experts a token runs") {
    const Model m = parse_model(*find_preset(PresetKind::model, "mixtral-8x7b"), "model");
    TrainingWorkload w;
    w.seq_len = 4096;
    w.global_batch = 1;
    const double h = 4096, s = 4096;
    // Per token and layer, forward: QKV 4096·(4096 + 2·1024), output 4096·4096, 2 experts of
    // 3 · 4096 · 14336, the router 4096 · 8; times 2 per multiply-add; attention 4·q·s.
    const double linear = 2 * (h * (4096 + 2048) + h * 4096 + 2 * 3 * h * 14336 + h * 8);
    const double per_token = 32 * (linear + 4 * 4096 * s) + 2 * h * 32000;
    CHECK(training_flops(m, w).model == doctest::Approx(3 * per_token * s));
}

TEST_CASE("cross-entropy in training: Megatron-LM's fp32 passes over the logits, by hand") {
    // Tiny model, one sequence of 16 tokens, V = 1000 on one chip: 16,000 logits in bf16.
    // Forward (megatron/core/tensor_parallel/cross_entropy.py, after the cast to fp32): the
    // cast reads 2 B and writes 4, the max reads 4, the subtraction reads 4 and writes 4, exp
    // reads 4 and writes 4, the sum reads 4, the division reads 4 and writes 4; plus the
    // 16 per-token losses (4 B): read 16,000 · 22 = 352,000 B, written 16,000 · 16 + 64 =
    // 256,064 B, 0.608064 µs at 1 TB/s. Backward: the in-place product with the loss gradient
    // (read 4, write 4) and the cast back to bf16 (read 4, write 2): 128,000 B read, 96,000
    // written, 0.224 µs.
    Scenario s = tiny_training(1, 0);
    check_scenario(s);
    const Result r = evaluate(s);
    const OpReport* forward = nullptr;
    const OpReport* backward = nullptr;
    for (const OpReport& o : r.phase("forward").ops) {
        if (std::string(o.name) == "cross_entropy") forward = &o;
    }
    for (const OpReport& o : r.phase("backward").ops) {
        if (std::string(o.name) == "cross_entropy") backward = &o;
    }
    REQUIRE(forward);
    REQUIRE(backward);
    CHECK(forward->bytes_read == doctest::Approx(352'000));
    CHECK(forward->bytes_written == doctest::Approx(256'064));
    CHECK(forward->time_s == doctest::Approx(0.608064e-6));
    CHECK(backward->bytes_read == doctest::Approx(128'000));
    CHECK(backward->bytes_written == doctest::Approx(96'000));
    CHECK(backward->time_s == doctest::Approx(0.224e-6));
}

TEST_CASE("dropout: unfused attention gets a dropout kernel, the residual adds write a mask") {
    // Tiny model (8 heads), one sequence of 16 tokens, unfused attention: 8 · 16 · 16 = 2048
    // scores. The dropout kernel reads P (2 B) and writes the dropped P (2 B) and its mask
    // (1 B): 4096 B read, 6144 written. Its backward reads the gradient and the mask (3 B) and
    // writes the gradient (2 B): 6144 read, 4096 written. Selective recomputation runs it again
    // (Korthikanti et al. 2022 §5 recompute the softmax, the dropout and the products).
    // The residual adds (Megatron-LM's bias-dropout-add) write the 16 · 1024 = 16,384-element
    // stream in bf16 and a 1-byte mask: 49,152 B, against 32,768 without dropout.
    Scenario s = tiny_training(1, 0);
    s.workload.training.flash_attention = false;
    s.workload.training.recompute = Recompute::selective;
    const auto written = [](const Result& r, const char* phase, const char* name, const char* variant) {
        for (const OpReport& o : r.phase(phase).ops) {
            if (std::string(o.name) == name && std::string(op_variant_name(o.variant)) == variant) return o.bytes_written;
        }
        return -1.0;
    };
    const Result plain = evaluate(s);
    CHECK(written(plain, "forward", "attn_dropout", "") == -1.0);
    CHECK(written(plain, "forward", "attn_residual", "") == doctest::Approx(32'768));
    s.workload.training.dropout = true;
    check_scenario(s);
    const Result r = evaluate(s);
    double read_f = 0, read_b = 0;
    for (const OpReport& o : r.phase("forward").ops) {
        if (std::string(o.name) == "attn_dropout") read_f = o.bytes_read;
    }
    for (const OpReport& o : r.phase("backward").ops) {
        if (std::string(o.name) == "attn_dropout" && std::string(op_variant_name(o.variant)) == "backward") read_b = o.bytes_read;
    }
    CHECK(read_f == doctest::Approx(4096));
    CHECK(written(r, "forward", "attn_dropout", "") == doctest::Approx(6144));
    CHECK(read_b == doctest::Approx(6144));
    CHECK(written(r, "backward", "attn_dropout", "backward") == doctest::Approx(4096));
    CHECK(written(r, "backward", "attn_dropout", "recompute") == doctest::Approx(6144));
    CHECK(written(r, "forward", "attn_residual", "") == doctest::Approx(49'152));
    CHECK(written(r, "forward", "mlp_residual", "") == doctest::Approx(49'152));
}

namespace {

bool has_warning(const Result& r, const std::string& text) {
    for (const std::string& w : r.warnings) {
        if (w.find(text) != std::string::npos) return true;
    }
    return false;
}

}  // namespace

TEST_CASE("warnings: selective recomputation under FlashAttention, layouts the interleaved schedule refuses") {
    // NeMo's Llama 3.1 70B layout: TP 4 × PP 4 × CP 2 × DP 2, 5 chunks a stage, 80 layers.
    Scenario s = parse_scenario(*find_preset(PresetKind::scenario, "train-llama3-70b-64-h100"));
    const Result base = evaluate(s);
    CHECK_FALSE(has_warning(base, "micro-batches"));
    CHECK_FALSE(has_warning(base, "split evenly"));
    // Global batch 130 over DP 2: 65 micro-batches, not a multiple of pp = 4.
    s.workload.training.global_batch = 130;
    CHECK(has_warning(evaluate(s), "65 micro-batches are not a multiple of pp = 4"));
    // Global batch 2: 1 micro-batch for 4 stages, which Megatron-core refuses.
    s.workload.training.global_batch = 2;
    CHECK(has_warning(evaluate(s), "1 micro-batches for 4 pipeline stages"));
    // 3 chunks a stage: 80 layers into 12 chunks do not split evenly.
    s.workload.training.global_batch = 128;
    s.parallelism.virtual_stages = 3;
    CHECK(has_warning(evaluate(s), "80 layers do not split evenly into 4 stages × 3 chunks"));
    // Selective recomputation with FlashAttention: nothing of size s² to drop.
    s.parallelism.virtual_stages = 5;
    s.workload.training.recompute = Recompute::selective;
    const Result selective = evaluate(s);
    CHECK(has_warning(selective, "saves no memory"));
    CHECK(selective.training_memory.front().activation_bytes == doctest::Approx(base.training_memory.front().activation_bytes));
}

TEST_CASE("training cost without tokens to train: per step only, no run totals") {
    Scenario s = parse_scenario(*find_preset(PresetKind::scenario, "train-llama3-70b-64-h100"));
    s.workload.training.train_tokens = 0;
    s.cost.usd_per_chip_hour = 2;
    const Result r = evaluate(s);
    // $ per step = 64 chips · $2 / 3600 s · the step.
    CHECK(*r.cost.usd_per_step == doctest::Approx(64 * 2.0 / 3600 * r.training.step_time_s));
    CHECK_FALSE(r.cost.steps.has_value());
    CHECK_FALSE(r.cost.usd_total.has_value());
    CHECK_FALSE(r.cost.chip_hours.has_value());
    CHECK_FALSE(r.cost.energy_kwh.has_value());
    CHECK(r.cost.energy_kwh_per_step.has_value());
}

TEST_CASE("HFU counts the attention FlashAttention runs: at long context it stays below MFU and 100 %") {
    // Llama-3-8B on 8 H100, CP 8, 524,288-token sequences, no recomputation: model FLOPs count
    // the attention over the whole sequence, which the causal mask halves in the kernels. At the
    // microbenchmark rate (sustained 1; the H100's fitted 0.845, METHODOLOGY §37.2, leaves MFU
    // at 0.86) MFU passes 100 %.
    Scenario s = parse_scenario(*find_preset(PresetKind::scenario, "train-llama3-8b-8-h100"));
    s.parallelism.cp = 8;
    s.parallelism.dp = 1;
    s.workload.training.seq_len = 524288;
    s.workload.training.global_batch = 8;
    s.system.chip.sustained_compute = 1;
    const Result r = evaluate(s);
    CHECK(r.training.hfu < 1);
    CHECK(r.training.hfu < r.training.mfu);
    CHECK(r.training.mfu > 1);
    CHECK(has_warning(r, "MFU is above 100 %"));
}

TEST_CASE("ZeRO-3: the overlap flags decide whether its gathers and reduce-scatters hide behind the passes") {
    // Four data-parallel chips on the round switch: the tiny model's passes are short next to
    // its parameter traffic, so what overlaps still shows, and what does not adds in full.
    const auto zero3 = [](bool gather, bool reduce) {
        Scenario s = tiny_training(4, 3);
        s.workload.training.overlap_param_gather = gather;
        s.workload.training.overlap_grad_reduce = reduce;
        return evaluate(s).training.breakdown.zero3_s;
    };
    const double both = zero3(true, true), no_gather = zero3(false, true), no_reduce = zero3(true, false),
                 none = zero3(false, false);
    CHECK(both > 0);
    CHECK(no_gather > both);
    CHECK(no_reduce > both);
    CHECK(none > no_gather);
    CHECK(none > no_reduce);
}
