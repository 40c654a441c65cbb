// One layer of the tiny model, prefill, batch 2 × 16 tokens, TP = 2, on the round chip
// (10 TFLOP/s, 1 TB/s, 100 GB/s links, α = 1 µs). Every expected number is worked out
// by hand in the comment beside it.
#include <doctest/doctest.h>

#include <string>

#include "fixtures.hpp"
#include "inference/evaluate.hpp"
#include "ops/lower.hpp"
#include "parallel/placement.hpp"
#include "perf/context_sum.hpp"

using namespace envelope;

namespace {

const Op& find(const std::vector<Op>& ops, const std::string& name) {
    for (const Op& op : ops) {
        if (name == op.name) return op;
    }
    FAIL("no op named " << name);
    return ops.front();
}

// The roofline bound: peaks times efficiencies, ring collectives, no fixed costs.
double seconds(const Op& op, const Scenario& s) {
    const Spans spans = test::spans_of(s, op);
    return time_at(roofs_of(op, &spans, TimingContext{s.system.chip, s.engine, TimingModel::roofline}), 0).total_s;
}

}  // namespace

TEST_CASE("hand check: one dense layer in prefill, TP = 2") {
    const Scenario s = test::tiny_scenario(/*tp=*/2, /*batch=*/2, /*input=*/16, /*output=*/4);
    const LayerShard shard = shard_layer(s.model.groups[0].layer, s.model.hidden, 2);
    // Per chip: 4 query heads, 1 KV head, FFN 2048 (and 500 rows of the vocabulary, below).
    CHECK(shard.heads == 4);
    CHECK(shard.kv_heads == 1);
    CHECK(shard.ffn == 2048);

    const Pass pass = prefill_pass(2, 16, 20);
    const Stage stage = test::whole_model(s);
    const std::vector<Op> ops =
        lower_forward(LowerInput{s.model, stage, s.parallelism, s.workload.inference.precision, pass, s.engine, true});

    SUBCASE("QKV projection: [32 × 1024] · [1024 × (512 + 2·128)]") {
        const Op& qkv = find(ops, "qkv_proj");
        CHECK(qkv.count == 2);                                   // once per layer
        CHECK(qkv.flops.at(0) == 50'331'648);                    // 2 · 32 · 1024 · 768
        CHECK(qkv.traffic.weights_read.at(0) == 1'572'864);      // 1024 · 768 · 2 B
        CHECK(qkv.traffic.activations_read.at(0) == 65'536);     // 32 · 1024 · 2 B
        CHECK(qkv.traffic.written().at(0) == 49'152);            // 32 · 768 · 2 B
        // compute 50,331,648 / 1e13 = 5.0331648 µs > memory 1,687,552 / 1e12 = 1.687552 µs
        CHECK(seconds(qkv, s) == doctest::Approx(5.0331648e-6).epsilon(1e-12));
    }

    SUBCASE("fused causal attention: 16·17/2 = 136 (query, key) pairs per head") {
        const Op& att = find(ops, "attention");
        CHECK(att.flops.at(0) == 557'056);                       // 4 · 2 seq · 4 heads · 128 · 136
        CHECK(att.traffic.activations_read.at(0) == 32'768);     // Q: 2 · 16 · 4 · 128 · 2 B
        CHECK(att.traffic.kv_read.at(0) == 16'384);              // K+V: 2 · (2 · 1 · 128 · 16) · 2 B
        CHECK(att.traffic.written().at(0) == 32'768);            // O, as Q
        // memory 81,920 / 1e12 = 81.92 ns > compute 557,056 / 1e13 = 55.7 ns
        CHECK(seconds(att, s) == doctest::Approx(8.192e-8).epsilon(1e-12));
    }

    SUBCASE("MLP: gate+up [32 × 1024]·[1024 × 4096], down [32 × 2048]·[2048 × 1024]") {
        CHECK(find(ops, "mlp_up").flops.at(0) == 268'435'456);   // 2 · 32 · 1024 · 4096
        CHECK(find(ops, "mlp_down").flops.at(0) == 134'217'728); // 2 · 32 · 2048 · 1024
        CHECK(find(ops, "mlp_up").traffic.weights_read.at(0) == 8'388'608);  // 1024 · 4096 · 2 B
        // SiLU·up reads 32 · 4096 and writes 32 · 2048 elements.
        CHECK(find(ops, "mlp_act").traffic.activations_read.at(0) == 262'144);
        CHECK(find(ops, "mlp_act").traffic.activations_written.at(0) == 131'072);
    }

    SUBCASE("TP all-reduce of the [32 × 1024] bf16 output: ring over 2 chips") {
        const Op& ar = find(ops, "attn_allreduce");
        CHECK(ar.message_bytes.at(0) == 65'536);
        // The bound: the ring's bytes at the link bandwidth, 2(p−1)/p · n/B = 65,536 / 1e11 s.
        CHECK(seconds(ar, s) == doctest::Approx(0.65536e-6).epsilon(1e-12));
        // Expected, the collective library's LL protocol (NCCL's cost model): 2(p−1) steps of
        // α = 1 µs, and the bytes at half the bandwidth: 2 µs + 65,536 / 5e10 s = 3.31072 µs.
        // (Simple would take 4.8 + 2·(1 + 2.93) + 0.65536 = 13.3 µs.)
        const TimingContext expected{s.system.chip, s.engine, TimingModel::expected};
        const Spans spans = test::spans_of(s, ar);
        CHECK(time_at(roofs_of(ar, &spans, expected), 0).total_s ==
              doctest::Approx(3.31072e-6).epsilon(1e-12));
    }

    SUBCASE("RMSNorm: 4 FLOPs per element of the 32 × 1024 stream") {
        const Op& n = find(ops, "attn_norm");
        CHECK(n.flops.at(0) == 131'072);
        CHECK(n.traffic.total().at(0) == 65'536 + 2'048 + 65'536);  // in, scale, out
    }

    SUBCASE("LM head only for the last token of each sequence") {
        const Op& head = find(ops, "lm_head");
        CHECK(head.count == 1);
        CHECK(head.flops.at(0) == 2'048'000);                    // 2 · 2 tokens · 1024 · 500
    }
}

TEST_CASE("hand check: the whole prefill is the sum of its op times") {
    const Scenario s = test::tiny_scenario(2, 2, 16, 4);
    const Result r = evaluate_inference(s);
    double sum = 0;
    for (const OpReport& op : r.phase("prefill").ops) sum += op.time_s * op.count;
    CHECK(r.summary.ttft_s == doctest::Approx(sum).epsilon(1e-12));
    CHECK(r.phase("prefill").steps == 1);
}
