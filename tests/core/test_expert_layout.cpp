// The expert side of a mapping (parallel/expert_layout.hpp): experts carved out of DP, or
// folded over TP × CP × DP (Megatron-Core's parallel folding, TensorRT-LLM's moe_tp × moe_ep = tp,
// SGLang --tp 8 --ep 8), with numbers worked by hand for DeepSeek-V3 and Qwen3-235B.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "common/error.hpp"
#include "fixtures.hpp"
#include "io/scenario_json.hpp"
#include "model/params.hpp"
#include "ops/lower.hpp"
#include "parallel/check.hpp"
#include "parallel/expert_layout.hpp"
#include "parallel/placement.hpp"
#include "presets/registry.hpp"

using namespace envelope;

namespace {

Parallelism layout(int64_t tp, int64_t ep, int64_t dp, int64_t cp = 1, int64_t moe_tp = 0) {
    Parallelism p;
    p.tp = tp;
    p.ep = ep;
    p.dp = dp;
    p.cp = cp;
    p.moe_tp = moe_tp;
    return p;
}

Scenario deepseek(const Parallelism& p, int64_t batch) {
    Scenario s = test::tiny_scenario(p.tp, batch, 128, 16);
    s.model = parse_model(*find_preset(PresetKind::model, "deepseek-v3"), "model");
    s.system = test::round_system(p.chips());
    s.parallelism = p;
    return s;
}

std::vector<Op> decode_ops(const Scenario& s) {
    const Stage stage = test::whole_model(s);
    const Pass pass = decode_pass(s.workload.inference.batch, 144);
    return lower_forward(LowerInput{s.model, stage, s.parallelism, s.workload.inference.precision, pass, s.engine, true});
}

const Op* find(const std::vector<Op>& ops, const std::string& name) {
    for (const Op& o : ops) {
        if (name == o.name) return &o;
    }
    return nullptr;
}

std::string rejection(const Parallelism& p, const Model& m, int64_t chips) {
    try {
        check_parallelism(p, m, test::round_system(chips));
    } catch (const InputError& e) {
        return e.path() + ": " + e.what();
    }
    return "accepted";
}

}  // namespace

TEST_CASE("expert layouts: carved out of DP by default, folded over TP × CP × DP otherwise") {
    // Carved (ep divides dp, moe_tp not given): experts split over the TP group, the EP
    // members are DP replicas with their own tokens; as before this change.
    ExpertLayout e = expert_layout(layout(2, 4, 4));
    CHECK_FALSE(e.folded);
    CHECK(e.etp == 2);
    CHECK(e.token_sets == 4);
    CHECK(e.dispatch_share == 1.0);
    CHECK(e.expert_dp == 1);  // 2 · 1 · 4 chips / (4 · 2)
    // TensorRT-LLM TEP / SGLang --tp 8 --ep 8 on 8 GPUs: whole experts, 32 of DeepSeek-V3's
    // 256 on each chip, and every chip already holds every token: no all-to-all.
    e = expert_layout(layout(8, 8, 1));
    CHECK(e.folded);
    CHECK(e.etp == 1);
    CHECK(e.token_sets == 1);
    CHECK_FALSE(e.all_to_all());
    // TensorRT-LLM's default moe_tp = tp / moe_ep: TP 4, EP 2 runs each expert over 2 chips.
    e = expert_layout(layout(4, 2, 1));
    CHECK(e.etp == 2);
    CHECK(e.token_sets == 1);
    // Megatron-Core folding, Qwen3-235B on 256 H100 (TP 2, EP 32, DP 16, PP 8, ETP 1): an
    // expert group of 32 chips spans 16 TP groups; each chip dispatches its half of its TP
    // group's tokens (the sequence shard under SP); every expert is on one chip (EDP = 1).
    e = expert_layout(layout(2, 32, 16));
    CHECK(e.etp == 1);
    CHECK(e.token_sets == 16);
    CHECK(e.dispatch_share == 0.5);
    CHECK(e.expert_dp == 1);
    // TP 4 × CP 8, EP 8 (DP 1): the expert group covers two CP ranks' tokens.
    e = expert_layout(layout(4, 8, 1, 8));
    CHECK(e.token_sets == 2);
    CHECK(e.expert_dp == 4);  // 4 · 8 · 1 / 8
    // SGLang DP attention with the MoE tensor-parallel over the 8 DP ranks (tp 1, moe_tp 8).
    e = expert_layout(layout(1, 1, 8, 1, 8));
    CHECK(e.folded);
    CHECK(e.gathered(1) == 8);
}

TEST_CASE("folded EP groups sit right after the ETP group; carved ones take dp's stride") {
    const System sys = test::round_system(64);
    CHECK(place(layout(2, 4, 4), sys.network).of(ParallelDim::ep).stride == 2);      // carved: tp · cp
    CHECK(place(layout(2, 4, 4, 2), sys.network).of(ParallelDim::ep).stride == 4);   // carved, CP 2: tp · cp
    CHECK(place(layout(2, 32, 16), sys.network).of(ParallelDim::ep).stride == 1);    // folded, etp 1
    CHECK(place(layout(4, 2, 1), sys.network).of(ParallelDim::ep).stride == 2);      // folded, etp 2
    CHECK(place(layout(1, 1, 8, 1, 8), sys.network).of(ParallelDim::etp).size == 8);
    CHECK(place(layout(8, 8, 1), sys.network).of(ParallelDim::etp).size == 1);       // no collectives of its own
}

TEST_CASE("DeepSeek-V3 on 8 GPUs, TP 8 and EP 8: expert weights per chip by hand, no all-to-all") {
    const Model m = parse_model(*find_preset(PresetKind::model, "deepseek-v3"), "model");
    // 61 layers, the first 3 dense: 58 mixture layers of 256 experts, each a gated MLP of
    // 3 · 7168 · 2048 = 44,040,192 parameters. EP 8: 32 whole experts a chip, 58 · 32 ·
    // 44,040,192 = 81,738,596,352 parameters = 81.74 GB in fp8. Pure TP 8 (each expert split
    // in 8) holds the same bytes: 58 · 256 · 3 · 7168 · 256.
    const ParamCount tep = count_slice_params(m, m.groups, false, false, 8, 8, 1);
    const ParamCount tp8 = count_slice_params(m, m.groups, false, false, 8, 1, 8);
    CHECK(tep.experts == 81'738'596'352.0);
    CHECK(tp8.experts == 81'738'596'352.0);

    // Decode at batch 4: no dispatch or combine; each chip's 32 experts see the group's 4
    // tokens, 4 · 8 / 256 = 0.125 tokens per expert on average; the partial outputs join the
    // TP all-reduce of the 4 · 7168 · 2 B = 57,344 B stream (bf16 residual).
    const std::vector<Op> ops = decode_ops(deepseek(layout(8, 8, 1), 4));
    CHECK(find(ops, "moe_dispatch") == nullptr);
    CHECK(find(ops, "moe_combine") == nullptr);
    const Op* reduce = find(ops, "mlp_allreduce");
    REQUIRE(reduce != nullptr);
    CHECK(reduce->message_bytes.at(0) == 4.0 * 7168 * 2);
    const Op* up = find(ops, "expert_up");
    REQUIRE(up != nullptr);
    const double hit = 1 - std::pow(1 - 8.0 / 256, 4);  // p: an expert gets at least one of the 4 tokens
    CHECK(up->shape.groups == doctest::Approx(32 * hit));
    CHECK(up->shape.n == 2.0 * 2048);  // whole experts: gate and up, 2 · 2048 wide

    // Attention DP 8 with EP 8 (tp 1, carved): each chip's 4 tokens go to their 8 experts:
    // 8 · 7168 · 2 B = 114,688 B a token, 458,752 B per chip and layer each way.
    const std::vector<Op> dpa = decode_ops(deepseek(layout(1, 8, 8), 4));
    const Op* dispatch = find(dpa, "moe_dispatch");
    REQUIRE(dispatch != nullptr);
    CHECK(dispatch->message_bytes.at(0) == 4.0 * 8 * 7168 * 2);
    CHECK(find(dpa, "moe_combine")->message_bytes.at(0) == 458'752.0);
}

TEST_CASE("Megatron-Core folding under SP: each rank dispatches its sequence shard, no TP gather around the experts") {
    Scenario s = test::tiny_scenario(2, 1, 128, 16);
    s.model = parse_model(*find_preset(PresetKind::model, "qwen3-235b-a22b"), "model");
    s.parallelism = layout(2, 32, 16);
    s.parallelism.sp = true;
    s.system = test::round_system(32);
    const std::vector<Op> ops = decode_ops(s);
    // T = 1 sequence · 1 new token per TP group; each of its 2 ranks sends half of it to its
    // top-8 experts: 0.5 · 8 · 4096 · 2 B = 32,768 B (Qwen3-235B: h = 4096, k = 8).
    const Op* dispatch = find(ops, "moe_dispatch");
    REQUIRE(dispatch != nullptr);
    CHECK(dispatch->message_bytes.at(0) == 0.5 * 8 * 4096 * 2);
    CHECK(dispatch->group == 32);
    CHECK(find(ops, "mlp_allgather") == nullptr);
    CHECK(find(ops, "mlp_reducescatter") == nullptr);
    CHECK(find(ops, "attn_allgather") != nullptr);  // attention keeps its TP collectives
    // The 16 TP groups' 16 tokens route over 128 experts: 4 whole experts a chip.
    const Op* up = find(ops, "expert_up");
    REQUIRE(up != nullptr);
    CHECK(up->shape.n == 2.0 * 1536);
}

TEST_CASE("folded expert layouts that cannot run are refused with the field and the rule") {
    const Model m = parse_model(*find_preset(PresetKind::model, "deepseek-v3"), "model");
    CHECK(rejection(layout(8, 16, 1), m, 8) ==
          "parallelism.ep: EP × moe_tp = 16 × 1 = 16 must divide TP × CP × DP = 8 (the experts are folded over the "
          "attention's chips)");
    CHECK(rejection(layout(8, 2, 1, 1, 1), m, 8) ==
          "parallelism.moe_tp: EP × moe_tp = 2 × 1 = 2 is less than TP = 8: the experts must cover the whole TP group "
          "(TensorRT-LLM: moe_tp × moe_ep = tp)");
    CHECK(rejection(layout(4, 2, 3, 1, 3), m, 12) ==
          "parallelism.moe_tp: EP × moe_tp = 2 × 3 = 6 and TP = 4: one must divide the other");
    CHECK(rejection(layout(8, 8, 1), m, 8) == "accepted");
    CHECK(rejection(layout(2, 32, 16), parse_model(*find_preset(PresetKind::model, "qwen3-235b-a22b"), "model"), 32) ==
          "accepted");
    const Model dense = test::tiny_model();
    CHECK(rejection(layout(2, 1, 1, 1, 2), dense, 2).rfind("parallelism.moe_tp: moe_tp = 2 needs a mixture", 0) == 0);
}
