// The backward pass follows an op's typed role and backward kind, never its name: an op
// renamed keeps its treatment, and an op that borrows a special op's name does not get it.
// Byte counts by hand from the rules in ops/backward.hpp.
#include <doctest/doctest.h>

#include <string>

#include "ops/backward.hpp"
#include "ops/builders.hpp"
#include "result.hpp"

using namespace envelope;

namespace {

// 1,000 bf16 elements in, 1,000 out, 1 FLOP each, inside a decoder layer.
Op layer_vector(const char* name) {
    Op op = build::vector(name, 1, constant(1000), constant(1000), 1, Precision::bf16);
    op.layer = true;
    return op;
}

int count_variant(const std::vector<Op>& ops, OpVariant v) {
    int n = 0;
    for (const Op& op : ops) n += op.variant == v ? 1 : 0;
    return n;
}

}  // namespace

TEST_CASE("selective recomputation replays the ops whose role is the attention core, whatever their names") {
    Op core = layer_vector("renamed_softmax");
    core.role = OpRole::attention_core;
    const Op impostor = layer_vector("attn_scores");  // the unfused Q·Kᵀ's name, but role other
    const std::vector<Op> back = lower_backward({core, impostor}, Recompute::selective, Precision::bf16);
    REQUIRE(count_variant(back, OpVariant::recompute) == 1);
    CHECK(std::string(back.front().name) == "renamed_softmax");
    // Full recomputation replays every layer op; none replays nothing.
    CHECK(count_variant(lower_backward({core, impostor}, Recompute::full, Precision::bf16), OpVariant::recompute) == 2);
    CHECK(count_variant(lower_backward({core, impostor}, Recompute::none, Precision::bf16), OpVariant::recompute) == 0);
}

TEST_CASE("a dropout's backward reads the gradient and the 1-byte mask by its kind, not by the name attn_dropout") {
    Op drop = layer_vector("p_drop");
    drop.backward = Backward::dropout_mask;
    const std::vector<Op> b = lower_backward({drop}, Recompute::none, Precision::bf16);
    REQUIRE(b.size() == 1);
    // 1,000 gradients (2 B) and masks (1 B) read, 1,000 gradients written, one FLOP each.
    CHECK(b[0].traffic.read().base == doctest::Approx(3000));
    CHECK(b[0].traffic.written().base == doctest::Approx(2000));
    CHECK(b[0].flops.base == doctest::Approx(1000));

    // The same op named attn_dropout but of the plain kind: its traffic mirrored (gradient
    // and saved input read, 2 B each; the input gradient written) at twice the FLOPs.
    const std::vector<Op> plain = lower_backward({layer_vector("attn_dropout")}, Recompute::none, Precision::bf16);
    REQUIRE(plain.size() == 1);
    CHECK(plain[0].traffic.read().base == doctest::Approx(4000));
    CHECK(plain[0].traffic.written().base == doctest::Approx(2000));
    CHECK(plain[0].flops.base == doctest::Approx(2000));
}

TEST_CASE("a softmax cross-entropy's backward is one in-place product by its kind") {
    // 100 logit tokens over a vocabulary of 10: 1,000 logits, bf16 gradients. The forward
    // reads the logits once in bf16 and five times in fp32 (cross_entropy.py's passes:
    // max, subtraction, exp, sum, division): 2 + 5·4 = 22 B a logit.
    Op ce = build::vector("loss_by_another_name", 1, constant(1000), constant(100), 5.0 * 10, Precision::bf16);  // softmax: 5 FLOPs a logit
    ce.traffic.activations_read = constant(1000 * 22.0);
    ce.backward = Backward::softmax_loss;
    const std::vector<Op> b = lower_backward({ce}, Recompute::none, Precision::bf16);
    REQUIRE(b.size() == 1);
    CHECK(b[0].traffic.read().base == doctest::Approx(8000));           // 4 + 4 B a logit
    CHECK(b[0].traffic.written().base == doctest::Approx(6000));        // 4 + 2 B a logit
    CHECK(b[0].flops.base == doctest::Approx(100 * 10.0));              // one product a logit
}

TEST_CASE("collectives: an identity backward has none, a regather runs twice, whatever the names") {
    const Op reduce = build::collective("embed_allreduce", 1, CollectiveKind::all_reduce, constant(1e6), ParallelDim::tp,
                                        2, Precision::bf16);
    // Named as the embedding's, but of the plain kind: its conjugate, an all-reduce, runs.
    const std::vector<Op> named = lower_backward({reduce}, Recompute::none, Precision::bf16);
    REQUIRE(named.size() == 1);
    CHECK(named[0].collective == CollectiveKind::all_reduce);

    Op identity = reduce;
    identity.name = "anything";
    identity.backward = Backward::identity;
    CHECK(lower_backward({identity}, Recompute::none, Precision::bf16).empty());

    Op gather = build::collective("kv_ring", 1, CollectiveKind::all_gather, constant(1e6), ParallelDim::cp, 2,
                                  Precision::bf16);
    gather.backward = Backward::regather;
    const std::vector<Op> again = lower_backward({gather}, Recompute::none, Precision::bf16);
    REQUIRE(again.size() == 2);
    CHECK(again[0].collective == CollectiveKind::all_gather);
    CHECK(again[1].collective == CollectiveKind::reduce_scatter);
    // A plain all-gather's gradient is one reduce-scatter.
    gather.backward = Backward::gradients;
    const std::vector<Op> once = lower_backward({gather}, Recompute::none, Precision::bf16);
    REQUIRE(once.size() == 1);
    CHECK(once[0].collective == CollectiveKind::reduce_scatter);
}

TEST_CASE("every variant and phase has one spelling") {
    CHECK(std::string(op_variant_name(OpVariant::forward)).empty());
    CHECK(std::string(op_variant_name(OpVariant::recompute)) == "recompute");
    CHECK(std::string(op_variant_name(OpVariant::dgrad)) == "dgrad");
    CHECK(std::string(op_variant_name(OpVariant::wgrad)) == "wgrad");
    CHECK(std::string(op_variant_name(OpVariant::backward)) == "backward");
    CHECK(std::string(op_variant_name(OpVariant::chunk)) == "chunk");
    CHECK(std::string(op_variant_name(OpVariant::draft)) == "draft");
    CHECK(std::string(phase_kind_name(PhaseKind::prefill)) == "prefill");
    CHECK(std::string(phase_kind_name(PhaseKind::decode)) == "decode");
    CHECK(std::string(phase_kind_name(PhaseKind::forward)) == "forward");
    CHECK(std::string(phase_kind_name(PhaseKind::backward)) == "backward");
}
