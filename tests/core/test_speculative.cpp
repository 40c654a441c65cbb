// Speculative decoding (workload/inference.hpp Speculative, inference/speculative.hpp): the
// expected tokens per target pass of Leviathan et al. 2023 by hand, and how the per-token time
// follows from it.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "common/error.hpp"
#include "evaluate.hpp"
#include "fixtures.hpp"
#include "inference/evaluate.hpp"
#include "model/params.hpp"

using namespace envelope;

namespace {

Scenario speculating(int64_t k, double alpha) {
    Scenario s = test::tiny_scenario(1, 1, 100, 41);
    s.workload.inference.speculative.draft_tokens = k;
    s.workload.inference.speculative.acceptance = alpha;
    return s;
}


}  // namespace

TEST_CASE("tokens per target pass: (1 − α^(k+1)) / (1 − α), Leviathan et al. 2023 eq. 1") {
    Speculative sp;
    sp.draft_tokens = 4;
    sp.acceptance = 0.8;
    CHECK(sp.tokens_per_step() == doctest::Approx(3.3616));  // 1 + .8 + .64 + .512 + .4096
    sp.acceptance = 0;
    CHECK(sp.tokens_per_step() == 1);  // only the target's own token
    sp.acceptance = 1;
    CHECK(sp.tokens_per_step() == 5);  // every draft, and one more
    sp.draft_tokens = 0;
    CHECK(sp.tokens_per_step() == 1);  // no speculation
}

TEST_CASE("a pass that accepts everything costs the same per k + 1 tokens as one that accepts nothing per token") {
    // At α = 1 each pass (one check + k drafts) yields k + 1 tokens, at α = 0 one: the time per
    // token differs by exactly k + 1.
    const Result all = evaluate_inference(speculating(3, 1));
    const Result none = evaluate_inference(speculating(3, 0));
    CHECK(*none.summary.tpot_s == doctest::Approx(4 * *all.summary.tpot_s));
    CHECK(*all.summary.tokens_per_step == 4);
    // The check of 3 drafts attends 4 new tokens: 4·(L − 1) + 10 pairs per head at context L,
    // L = 101 … 140 (mean 120.5): 4 · 119.5 + 10 = 488 pairs × 8 heads × 128 × 4 FLOPs.
    double attention = -1;
    for (const OpReport& o : none.phase("decode").ops) {
        if (std::string(o.name) == "attention" && std::string(op_variant_name(o.variant)).empty()) attention = o.flops;
    }
    CHECK(attention == doctest::Approx(488.0 * 8 * 128 * 4));
}

TEST_CASE("a draft model's weights and cache join the target's on the chip") {
    Scenario s = speculating(4, 0.7);
    const Result plain = evaluate_inference(test::tiny_scenario(1, 1, 100, 41));
    auto draft = std::make_shared<Model>(test::tiny_model());
    draft->groups[0].count = 1;  // half the tiny model: one layer
    s.workload.inference.speculative.draft = draft;
    const Result r = evaluate_inference(s);
    // One layer's 15,206,400 parameters + the embedding's 1000 · 1024 + the LM head's, bf16.
    const double draft_params = count_params(*draft).total();
    CHECK(draft_params == doctest::Approx(15'206'400 + 2 * 1'024'000 + 1024));
    CHECK(r.memory.weights_bytes - plain.memory.weights_bytes == doctest::Approx(2 * draft_params));
    // Its cache: one layer, 2 KV heads × 128, K and V, bf16, 141 tokens.
    CHECK(r.memory.kv_cache_bytes - plain.memory.kv_cache_bytes == doctest::Approx(2.0 * 256 * 2 * 141));
}

TEST_CASE("speculation checks name the field") {
    Scenario s = speculating(2, 0.5);
    s.system = test::round_system(2);
    s.parallelism.pp = 2;
    CHECK(test::error_path(s) == "workload.speculative");
    s = speculating(2, 0.5);
    s.system = test::round_system(16);
    s.parallelism.tp = 8;
    auto draft = std::make_shared<Model>(test::tiny_model());
    draft->groups[0].layer.attention.heads = 4;  // TP 8 cannot split 4 heads
    draft->groups[0].layer.attention.kv_heads = 4;
    s.workload.inference.speculative.draft = draft;
    CHECK(test::error_path(s) == "workload.speculative.draft_model");
}
