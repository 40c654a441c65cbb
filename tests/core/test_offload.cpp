// ZeRO-Offload and ZeRO-Infinity (training/offload.hpp) and the advice when a step does not
// fit (training/fit_advice.hpp), on the tiny model (Ψ = 32,461,824 parameters, layers of
// 15,206,400; tests/core/test_training.cpp) and the round chip (1 TB/s, 10 TFLOP/s).
#include <doctest/doctest.h>

#include <string>

#include "common/error.hpp"
#include "evaluate.hpp"
#include "fixtures.hpp"
#include "training/evaluate.hpp"
#include "training/fit_advice.hpp"

using namespace envelope;

namespace {

constexpr double kPsi = 32'461'824;

// One round chip with a host: a 10 GB/s link, 1 GB of memory at 100 GB/s.
Scenario offloaded(int zero, OffloadTarget optimizer, OffloadTarget parameters) {
    Scenario s = test::tiny_scenario(1, 1, 16, 1);
    s.system.host = HostResources{10, 1, 100, 0, "test"};
    s.parallelism.zero = zero;
    s.workload.kind = WorkloadKind::training;
    TrainingWorkload& w = s.workload.training;
    w.seq_len = 16;
    w.global_batch = 1;
    w.micro_batch = 1;
    w.overlap_grad_reduce = false;
    w.offload = Offload{optimizer, parameters};
    return s;
}


}  // namespace

TEST_CASE("an offloaded optimizer: gradients out, Adam on the host, weights back, by hand") {
    const Scenario s = offloaded(1, OffloadTarget::cpu, OffloadTarget::none);
    check_scenario(s);
    const Result r = evaluate(s);
    // Out: 2Ψ bytes at 10 GB/s = 6.4924 ms; Adam: 30 bytes × Ψ at 100 GB/s = 9.7385 ms;
    // back: 6.4924 ms. Nothing of the optimizer is left on the chip.
    CHECK(r.training.breakdown.offload_s == doctest::Approx(2 * 6.4923648e-3 + 9.7385472e-3));
    CHECK(r.training.breakdown.optimizer_s == 0);
    CHECK(r.training.step_time_s == doctest::Approx(r.training.breakdown.compute_s + r.training.breakdown.offload_s));
    const TrainingMemory& m = r.training_memory.front();
    CHECK(m.optimizer_bytes == 0);
    CHECK(m.gradient_bytes == doctest::Approx(2 * kPsi));        // 16-bit until copied out
    CHECK(m.host_bytes == doctest::Approx(16 * kPsi));           // fp32 master, m, v, gradients
    CHECK(m.host_capacity_bytes == doctest::Approx(1e9));
    CHECK(m.host_fits);
}

TEST_CASE("offloaded parameters: each pass fetches the shard over the host link first") {
    Scenario s = offloaded(3, OffloadTarget::none, OffloadTarget::cpu);
    check_scenario(s);
    const Result r = evaluate(s);
    // The 2Ψ-byte shard takes 6.4924 ms to fetch, forward and again backward: far longer
    // than the tiny model's microseconds of compute, so each pass waits for it.
    const TrainingBreakdown& b = r.training.breakdown;
    CHECK(b.compute_s + b.offload_s == doctest::Approx(2 * 6.4923648e-3));
    CHECK(b.optimizer_s == doctest::Approx(30 * kPsi / 1e12));  // Adam stays on the chip
    CHECK(r.training_memory.front().weights_bytes == doctest::Approx(2 * 2 * 15'206'400));
    CHECK(r.training_memory.front().host_bytes == doctest::Approx(2 * kPsi));

    s.system.host.memory_gb = 0.05;  // 50 MB < 2Ψ = 64.9 MB
    const Result small = evaluate(s);
    CHECK_FALSE(small.training_memory.front().host_fits);
    bool warned = false;
    for (const std::string& w : small.warnings) warned = warned || w.find("does not fit in host memory") == 0;
    CHECK(warned);
}

TEST_CASE("offload checks name the field") {
    CHECK(test::error_path(offloaded(0, OffloadTarget::cpu, OffloadTarget::none)) == "workload.offload.optimizer");
    CHECK(test::error_path(offloaded(2, OffloadTarget::none, OffloadTarget::cpu)) == "workload.offload.parameters");
    Scenario s = offloaded(1, OffloadTarget::cpu, OffloadTarget::none);
    s.system.host = HostResources{};
    CHECK(test::error_path(s) == "system.host.link_gbps");
    s = offloaded(3, OffloadTarget::nvme, OffloadTarget::none);
    CHECK(test::error_path(s) == "system.host.nvme_gbps");
}

TEST_CASE("a step that does not fit names the first change that makes it fit") {
    // Four replicas; per chip: ZeRO-0 16Ψ = 519 MB, ZeRO-1 2Ψ + 4Ψ + 12Ψ/4 = 9Ψ = 292 MB,
    // ZeRO-2 2Ψ + Ψ + 3Ψ = 6Ψ = 195 MB, plus well under 50 MB of activations for 16 tokens.
    // With 250 MB, ZeRO-2 is the first to fit.
    Scenario s = offloaded(0, OffloadTarget::none, OffloadTarget::none);
    s.system = test::round_system(4);
    s.system.chip.hbm_gb = 0.25;
    s.parallelism.dp = 4;
    s.workload.training.global_batch = 4;
    check_scenario(s);
    const Result r = evaluate(s);
    REQUIRE(r.fit_advice);
    REQUIRE(r.fit_advice->settings.size() == 1);
    CHECK(r.fit_advice->settings[0].field == "parallelism.zero");
    CHECK(r.fit_advice->settings[0].value == "2");
    CHECK(r.fit_advice->peak_bytes < 0.25e9);
    CHECK(r.fit_advice->peak_bytes > 6 * kPsi);
    CHECK(r.warnings.front().find("it fits with parallelism.zero = 2") != std::string::npos);
    s.system.chip.hbm_gb = 100;
    CHECK_FALSE(evaluate(s).fit_advice);
}

TEST_CASE("fit advice: twice the context parallelism on the same chips when nothing cheaper fits") {
    // Two replicas of the tiny model over 8192-token sequences, TP 8 (all its heads), full
    // recomputation and ZeRO-3 already: what is left is activations, which a longer pipeline
    // does not shrink on its first stage, and a split of the sequence halves.
    Scenario s = offloaded(3, OffloadTarget::none, OffloadTarget::none);
    s.system = test::round_system(16);
    s.parallelism.tp = 8;
    s.parallelism.dp = 2;
    TrainingWorkload& w = s.workload.training;
    w.seq_len = 8192;
    w.global_batch = 2;
    w.recompute = Recompute::full;
    s.model.max_seq_len = 8192;
    Scenario split = s;
    split.parallelism.cp = 2;
    split.parallelism.dp = 1;
    const double halves = peak_training_memory(split).bytes, now = peak_training_memory(s).bytes;
    REQUIRE(halves < now);
    // A chip between the two: the step does not fit, CP 2 × DP 1 does.
    s.system.chip.hbm_gb = (halves + now) / 2 / 1e9;
    check_scenario(s);
    const Result r = evaluate(s);
    REQUIRE(r.fit_advice);
    REQUIRE(r.fit_advice->settings.size() == 2);
    CHECK(r.fit_advice->settings[0].field == "parallelism.cp");
    CHECK(r.fit_advice->settings[0].value == "2");
    CHECK(r.fit_advice->settings[1].field == "parallelism.dp");
    CHECK(r.fit_advice->settings[1].value == "1");
}
