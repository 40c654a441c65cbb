// A mixture of experts: which experts a step reads (the expert-hit formula), the tokens
// each one computes, and the all-to-alls of expert parallelism, by hand for Mixtral 8x7B.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "fixtures.hpp"
#include "io/scenario_json.hpp"
#include "ops/lower.hpp"
#include "presets/registry.hpp"

using namespace envelope;

namespace {

Scenario mixtral(int64_t ep, int64_t batch) {
    Scenario s = test::tiny_scenario(1, batch, 128, 16);
    s.model = parse_model(*find_preset(PresetKind::model, "mixtral-8x7b"), "model");
    s.system = test::round_system(ep);
    s.parallelism.ep = ep;
    s.parallelism.dp = ep;
    return s;
}

const Op& op(const std::vector<Op>& ops, const std::string& name) {
    for (const Op& o : ops) {
        if (name == o.name) return o;
    }
    FAIL("no op " << name);
    return ops.front();
}

std::vector<Op> decode_ops(const Scenario& s) {
    const Stage stage = test::whole_model(s);
    const Pass pass = decode_pass(s.workload.inference.batch, 144);
    return lower_forward(LowerInput{s.model, stage, s.parallelism, s.workload.inference.precision, pass, s.engine, true});
}

}  // namespace

TEST_CASE("a decode step reads the experts its tokens hit: E·(1 − (1 − k/E)^T), not k, not always all") {
    const double layers = 32, experts = 8, k = 2;
    const double expert_weights = 4096.0 * 2 * 14336 * 2;  // one expert's gate+up matrix, bf16
    for (int64_t batch : {1, 4, 64}) {
        CAPTURE(batch);
        const std::vector<Op> ops = decode_ops(mixtral(1, batch));
        const Op& up = op(ops, "expert_up");
        const double hit = 1 - std::pow(1 - k / experts, static_cast<double>(batch));  // one token: 2/8
        // Experts run: 8 · p per layer (2 for one token, 7.5 … 8 for 64), in one grouped
        // kernel per layer.
        CHECK(up.count == layers);
        CHECK(up.shape.groups == doctest::Approx(experts * hit));
        // Weights read per step: those of the experts run.
        CHECK(up.count * up.traffic.weights_read.at(0) == doctest::Approx(layers * experts * hit * expert_weights));
        // FLOPs per step: each token's k experts, 2 · (4096 · 28672) each, whatever p.
        CHECK(up.count * up.flops.at(0) ==
              doctest::Approx(layers * static_cast<double>(batch) * k * 2 * 4096 * 28672));
    }
}

TEST_CASE("expert parallelism: dispatch and combine all-to-alls of T·k·h values, experts / ep per chip") {
    const Scenario s = mixtral(4, 16);  // 16 sequences per replica, 4 replicas sharing the experts
    const std::vector<Op> ops = decode_ops(s);
    const Op& dispatch = op(ops, "moe_dispatch");
    CHECK(dispatch.collective == CollectiveKind::all_to_all);
    CHECK(dispatch.dim == ParallelDim::ep);
    CHECK(dispatch.message_bytes.at(0) == 16.0 * 2 * 4096 * 2);  // T = 16 tokens, k = 2, bf16
    CHECK(op(ops, "moe_combine").message_bytes.at(0) == dispatch.message_bytes.at(0));
    // 2 experts on each chip; the group's 64 tokens hit each with p = 1 − 0.75^64.
    const Op& up = op(ops, "expert_up");
    const double p = 1 - std::pow(0.75, 64);
    CHECK(up.count == 32);
    CHECK(up.shape.groups == doctest::Approx(2 * p));
    CHECK(up.shape.m == doctest::Approx(64.0 * 2 / 8 / p));  // 16 tokens per expert, on the runs
}

TEST_CASE("routing skew: the busiest EP chip gets imbalance × its share of tokens and bytes") {
    // EP 4, 16 sequences per replica: balanced, each chip's 2 experts get 16 tokens each on
    // average (64·2/8); at imbalance 1.5 the busiest chip's get 24, and it receives 1.5 × the
    // 16·2·4096·2 B of a balanced dispatch.
    Scenario s = mixtral(4, 16);
    const Op balanced = op(decode_ops(s), "expert_up");
    for (LayerGroup& g : s.model.groups) g.layer.ffn.moe.imbalance = 1.5;
    const std::vector<Op> skewed = decode_ops(s);
    CHECK(op(skewed, "expert_up").flops.at(0) == doctest::Approx(1.5 * balanced.flops.at(0)));
    CHECK(op(skewed, "expert_up").traffic.weights_read.at(0) == doctest::Approx(balanced.traffic.weights_read.at(0)));
    CHECK(op(skewed, "moe_dispatch").message_bytes.at(0) == doctest::Approx(1.5 * 16 * 2 * 4096 * 2));
    // One chip holds every expert: nothing to wait for.
    Scenario one = mixtral(1, 16);
    const double before = op(decode_ops(one), "expert_up").flops.at(0);
    for (LayerGroup& g : one.model.groups) g.layer.ffn.moe.imbalance = 1.5;
    CHECK(op(decode_ops(one), "expert_up").flops.at(0) == doctest::Approx(before));
}
