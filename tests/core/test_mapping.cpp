// Inference on the 5D mapping: pipeline stages, data-parallel replicas, sequence
// parallelism, and the collective request of `envelope collective`. Hand-worked numbers use
// the round chip and its 100 GB/s switch (α 1 µs, no call latency): tests/core/fixtures.hpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "common/error.hpp"
#include "evaluate.hpp"
#include "fixtures.hpp"
#include "inference/evaluate.hpp"
#include "io/collective_json.hpp"

using namespace envelope;

namespace {

Scenario on_chips(int64_t tp, int64_t pp, int64_t dp, int64_t count) {
    Scenario s = test::tiny_scenario(tp, 2, 16, 4);  // batch 2, 16 tokens in, 4 out
    s.system = test::round_system(count);
    s.parallelism.tp = tp;
    s.parallelism.pp = pp;
    s.parallelism.dp = dp;
    return s;
}

const OpReport* op(const Result& r, const char* phase, const std::string& name, int64_t stage = 0) {
    for (const OpReport& o : r.phase(phase).ops) {
        if (name == o.name && o.stage == stage) return &o;
    }
    return nullptr;
}

// One micro-batch's pass on one stage: the sum of its ops (prefill: one step).
double stage_time(const Result& r, int64_t stage) {
    double t = 0;
    for (const OpReport& o : r.phase("prefill").ops) {
        if (o.stage == stage) t += o.time_s * o.count;
    }
    return t;
}

}  // namespace

TEST_CASE("two pipeline stages, one micro-batch: the layers split, plus one hand-off each pass") {
    Scenario one = on_chips(1, 1, 1, 2);
    Scenario two = on_chips(1, 2, 1, 2);
    two.parallelism.micro_batches = 1;
    check_scenario(two);
    const Result a = evaluate_inference(one);
    const Result b = evaluate_inference(two);
    CHECK(b.pipeline.stage_layers == std::vector<int64_t>{1, 1});
    // The prefill hand-off: [2·16 × 1024] bf16 = 65,536 B to the next stage over the switch,
    // LL: 1 µs + 65,536 B / 50 GB/s = 2.31072 µs (Simple: 4.8 + 3.93 + 0.655 µs).
    REQUIRE(op(b, "prefill", "stage_send") != nullptr);
    CHECK(op(b, "prefill", "stage_send")->algorithm == Algorithm::ring_ll);
    CHECK(b.summary.ttft_s - a.summary.ttft_s == doctest::Approx(2.31072e-6).epsilon(1e-6));
    // Decode: 3 steps, each handing [2 × 1024] bf16 = 4,096 B on: 1 µs + 0.08192 µs.
    CHECK(b.phase("decode").time_s - a.phase("decode").time_s == doctest::Approx(3 * 1.08192e-6).epsilon(1e-6));
    // Each stage holds one layer: weights per chip drop by about half (the ends stay whole).
    CHECK(b.memory.weights_bytes < a.memory.weights_bytes * 0.7);
    CHECK(b.summary.chips == 2);
}

TEST_CASE("micro-batches fill the pipeline: TTFT = Σ stages + (m − 1) · the slowest") {
    const Scenario s = on_chips(1, 2, 1, 2);  // micro-batches default to pp = 2, of 1 sequence
    const Result r = evaluate_inference(s);
    CHECK(r.pipeline.micro_batches == 2);
    CHECK(r.pipeline.micro_batch == 1);
    const double t0 = stage_time(r, 0), t1 = stage_time(r, 1);
    CHECK(r.summary.ttft_s == doctest::Approx(t0 + t1 + std::max(t0, t1)));
    // Uneven stages: the slow one sets the pace.
    Scenario uneven = on_chips(1, 2, 1, 2);
    uneven.model.groups[0].count = 3;
    uneven.parallelism.stage_layers = {1, 2};
    check_scenario(uneven);
    const Result u = evaluate_inference(uneven);
    CHECK(stage_time(u, 1) > stage_time(u, 0));
    CHECK(u.summary.ttft_s == doctest::Approx(stage_time(u, 0) + 2 * stage_time(u, 1)));
}

TEST_CASE("data-parallel replicas multiply throughput — per chip divides by every chip used") {
    const Result one = evaluate_inference(on_chips(1, 1, 1, 1));
    const Result four = evaluate_inference(on_chips(1, 1, 4, 4));
    CHECK(four.summary.replicas == 4);
    CHECK(four.summary.chips == 4);
    CHECK(four.summary.ttft_s == one.summary.ttft_s);
    CHECK(four.summary.output_tokens_per_s == doctest::Approx(4 * one.summary.output_tokens_per_s));
    CHECK(four.summary.output_tokens_per_s_per_chip == doctest::Approx(one.summary.output_tokens_per_s_per_chip));
    CHECK(four.warnings.empty());
    // Two replicas on four chips: two idle, said so.
    const Result half = evaluate_inference(on_chips(1, 1, 2, 4));
    REQUIRE(half.warnings.size() == 1);
    CHECK(half.warnings[0].find("2 of 4 chips are idle") == 0);
}

TEST_CASE("sequence parallelism: reduce-scatter + all-gather cost what the all-reduce did — norms shrink") {
    Scenario plain = on_chips(2, 1, 1, 2);
    Scenario sp = plain;
    sp.parallelism.sp = true;
    const Result a = evaluate_inference(plain);
    const Result b = evaluate_inference(sp);
    // All-reduce of 65,536 B over 2 chips, LL: 2 steps · 1 µs + 65,536 / 50 GB/s = 3.31072 µs;
    // reduce-scatter and all-gather: 1 µs + 0.5 · 65,536 / 50 GB/s = 1.65536 µs each.
    REQUIRE(op(a, "prefill", "attn_allreduce"));
    CHECK(op(a, "prefill", "attn_allreduce")->time_s == doctest::Approx(3.31072e-6));
    REQUIRE(op(b, "prefill", "attn_reducescatter"));
    REQUIRE(op(b, "prefill", "attn_allgather"));
    CHECK(op(b, "prefill", "attn_allreduce") == nullptr);
    CHECK(op(b, "prefill", "attn_reducescatter")->time_s == doctest::Approx(1.65536e-6));
    CHECK(op(b, "prefill", "attn_allgather")->time_s == doctest::Approx(1.65536e-6));
    // The norm reads and writes half the stream (the scale vector is whole).
    const double plain_norm = op(a, "prefill", "attn_norm")->bytes_read - 2048;
    CHECK(op(b, "prefill", "attn_norm")->bytes_read - 2048 == doctest::Approx(plain_norm / 2));
}

TEST_CASE("the result lists each dimension's levels, bytes and time") {
    Scenario s = on_chips(2, 2, 1, 4);
    const Result r = evaluate_inference(s);
    REQUIRE(r.network.size() == 2);
    CHECK(r.network[0].dim == ParallelDim::tp);
    CHECK(r.network[0].stride == 1);
    CHECK(r.network[1].dim == ParallelDim::pp);
    CHECK(r.network[1].stride == 2);
    // PP bytes per chip (mean over the two stages; only the first sends): prefill 2 micro-
    // batches of [16 × 1024] bf16 and 3 decode steps of 2 × [1 × 1024] bf16, halved.
    CHECK(r.network[1].bytes == doctest::Approx((2 * 32768.0 + 3 * 2 * 2048.0) / 2));
    CHECK(r.network[0].time_s > 0);
}

TEST_CASE("envelope collective: a request, a sweep, and errors that name the field") {
    const Json one = collective_document(
        Json{{"system", "dgx-h100"}, {"op", "all_reduce"}, {"chips", 16}, {"bytes", 1e9}});
    CHECK(one["levels"].size() == 2);  // NVLink ×8, InfiniBand ×2
    CHECK(one["points"].size() == 1);
    CHECK(one["points"][0]["busbw_gbps"].get<double>() > 100);
    const Json sweep = collective_document(Json{{"system", "dgx-h100"},
                                                {"op", "all_gather"},
                                                {"chips", 8},
                                                {"sweep", {{"from", 8}, {"to", 8589934592.0}, {"factor", 2}}}});
    CHECK(sweep["points"].size() == 31);  // 8 B … 8 GiB
    const auto error_path = [](const Json& req) {
        try {
            collective_document(req);
        } catch (const InputError& e) {
            return e.path();
        }
        return std::string("no error");
    };
    CHECK(error_path(Json{{"system", "dgx-h100"}, {"op", "all_reduce"}, {"chips", 4096}, {"bytes", 1}}) == "chips");
    CHECK(error_path(Json{{"system", "dgx-h100"}, {"op", "scatter"}, {"chips", 8}, {"bytes", 1}}) == "op");
    CHECK(error_path(Json{{"system", "dgx-h100"}, {"op", "all_reduce"}, {"chips", 8}}) == "bytes");
    CHECK(error_path(Json{{"system", "dgx-h100"},
                          {"op", "all_reduce"},
                          {"chips", 8},
                          {"sweep", {{"from", 1}, {"to", 1e15}, {"factor", 1.01}}}}) == "sweep.factor");
}

TEST_CASE("groups that do not line up with the network's units are said to be approximate") {
    // TP 6 on the round system of 8 chips plus a second level: 6 does not divide 8.
    Scenario s = test::tiny_scenario(1, 2, 16, 4);
    s.model.groups[0].layer.attention = test::attention(12, 6, 64);
    s.system = test::round_system(8);
    NetworkLevel fabric = s.system.network.levels[0];
    fabric.size = 4;
    s.system.network.levels.push_back(fabric);
    s.system.count = 32;
    s.parallelism.tp = 6;
    s.parallelism.dp = 1;
    const Result r = evaluate_inference(s);
    bool said = false;
    for (const std::string& w : r.warnings) said = said || w.find("tp groups of 6 chips") == 0;
    CHECK(said);
    s.parallelism.tp = 4;
    s.model.groups[0].layer.attention = test::attention(8, 2, 128);
    for (const std::string& w : evaluate_inference(s).warnings) CHECK(w.find("line up") == std::string::npos);
}
