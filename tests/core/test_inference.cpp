// Whole-evaluation behaviour: headline definitions, scaling laws the roofline implies.
#include <doctest/doctest.h>

#include <string>

#include "fixtures.hpp"
#include "inference/evaluate.hpp"
#include "io/scenario_json.hpp"
#include "model/params.hpp"
#include "presets/registry.hpp"

using namespace envelope;

namespace {

const OpReport& op_named(const PhaseReport& p, const std::string& name) {
    for (const OpReport& op : p.ops) {
        if (name == op.name) return op;
    }
    FAIL("no op named " << name);
    return p.ops.front();
}

bool has_op(const PhaseReport& p, const std::string& name) {
    for (const OpReport& op : p.ops) {
        if (name == op.name) return true;
    }
    return false;
}

Scenario preset_scenario(const char* key) { return parse_scenario(*find_preset(PresetKind::scenario, key)); }

}  // namespace

TEST_CASE("headline numbers follow their definitions") {
    const Scenario s = test::tiny_scenario(2, 4, 128, 33);
    const Result r = evaluate_inference(s);
    const InferenceSummary& sum = r.summary;
    CHECK(sum.chips == 2);
    CHECK(r.phase("decode").steps == 32);
    CHECK(sum.ttft_s == r.phase("prefill").time_s);
    CHECK(*sum.tpot_s == doctest::Approx(r.phase("decode").time_s / 32));
    CHECK(sum.e2e_latency_s == doctest::Approx(sum.ttft_s + 32 * *sum.tpot_s));
    CHECK(sum.output_tokens_per_s == doctest::Approx(4 * 33 / sum.e2e_latency_s));
    CHECK(sum.output_tokens_per_s_per_chip == doctest::Approx(sum.output_tokens_per_s / 2));
    CHECK(sum.prefill_tokens_per_s == doctest::Approx(4 * 128 / sum.ttft_s));
}

TEST_CASE("one output token: no decode steps and no TPOT") {
    const Result r = evaluate_inference(test::tiny_scenario(1, 1, 64, 1));
    CHECK(r.phase("decode").steps == 0);
    CHECK_FALSE(r.summary.tpot_s.has_value());
    CHECK(r.phase("decode").time_s == 0);
    CHECK(r.phase("decode").ops.empty());  // nothing ran, so there is no per-op bound to report
    CHECK(r.summary.e2e_latency_s == r.summary.ttft_s);
}

TEST_CASE("TPOT mean over the generation grows with the KV cache read") {
    // Same prompt, longer generation: later tokens read a longer cache, so the mean rises.
    const double short_gen = *evaluate_inference(test::tiny_scenario(1, 64, 1000, 10)).summary.tpot_s;
    const double long_gen = *evaluate_inference(test::tiny_scenario(1, 64, 1000, 4000)).summary.tpot_s;
    CHECK(long_gen > short_gen);
}

TEST_CASE("hand check: Llama-2-70B on 8x H100, TP=8, bf16, batch 1, 2048 + 256") {
    const Scenario s = preset_scenario("llama2-70b-dgx-h100-tp8");
    const Result r = evaluate_inference(s);

    // Decode at batch 1 reads every weight once per token: 68.98e9 params · 2 B / 8 chips
    // (plus 1.2M norm scales replicated on each chip) at 3.35 TB/s · 0.89 = 5.78 ms per token ...
    const double weight_bytes = count_params(s.model, 8).total() * 2;
    CHECK(weight_bytes == doctest::Approx(68'976'648'192.0 * 2 / 8).epsilon(2e-4));
    const double weight_time = weight_bytes / (3.35e12 * 0.89);
    CHECK(weight_time == doctest::Approx(5.78e-3).epsilon(0.002));
    // ... plus 2 all-reduces per layer and one after the embedding, each of one token's
    // 8192 bf16 values. The bound counts their bytes at the best algorithm's bandwidth,
    // NVLS (16384 B / (450 GB/s · 0.61) = 0.0597 µs) rather than the ring
    // (2·(7/8)·16384 B / (450 GB/s · 0.81) = 0.0787 µs), and no latency: 9.6 µs in all.
    const double comm_time = (2 * 80 + 1) * 16384 / (450e9 * 0.61);
    CHECK(comm_time == doctest::Approx(9.61e-6).epsilon(0.001));

    // The rest (KV-cache reads, norms, the logits all-gather) is small: within 2%. That is
    // the roofline bound; the expected value adds the realism layer (kernel overheads, the
    // collective's latency), and is slower.
    const double tpot = *r.roofline.tpot_s;
    CHECK(tpot > weight_time + comm_time);
    CHECK(tpot < (weight_time + comm_time) * 1.02);
    CHECK(*r.summary.tpot_s > tpot);

    // Decode GEMMs are memory-bound, the all-reduces network-bound; prefill GEMMs are
    // compute-bound (2048 tokens per weight read, far above H100's ~270 FLOP/B ridge).
    CHECK(op_named(r.phase("decode"), "mlp_up").bound == Bound::memory);
    CHECK(op_named(r.phase("decode"), "attn_allreduce").bound == Bound::network);
    CHECK(op_named(r.phase("prefill"), "mlp_up").bound == Bound::compute);
    CHECK(r.memory.fits);
    CHECK(r.warnings.empty());

    // Prefill attention per layer (METHODOLOGY.md §21, §9.4): 4·8 heads·128·2048·2049/2 =
    // 8 594 128 896 FLOPs, plus 302.5 keys of row work for each of its 8·2048 rows
    // (302.5 · 4·128 · 16 384 = 2 537 553 920), at 989e12 · 0.662, plus the 5.7 µs kernel cost.
    CHECK(op_named(r.phase("prefill"), "attention").time_s ==
          doctest::Approx((8'594'128'896.0 + 2'537'553'920.0) / (989e12 * 0.662) + 5.7e-6).epsilon(1e-9));
    // The expected TTFT summed by hand in §21: 82.729 ms.
    CHECK(r.summary.ttft_s == doctest::Approx(82.729e-3).epsilon(2e-5));
}

TEST_CASE("causal masking halves attention work in prefill — unfused attention writes scores") {
    Scenario s = test::tiny_scenario(1, 1, 1000, 2);
    const Result fused = evaluate_inference(s);
    // 4 · 8 heads · 128 · 1000·1001/2 pairs
    CHECK(op_named(fused.phase("prefill"), "attention").flops == 4.0 * 8 * 128 * 1000 * 1001 / 2);
    CHECK_FALSE(has_op(fused.phase("prefill"), "softmax"));

    s.workload.inference.flash_attention = false;
    const Result unfused = evaluate_inference(s);
    CHECK_FALSE(has_op(unfused.phase("prefill"), "attention"));
    // Unfused kernels compute the full 1000 × 1000 rectangle and store S and P in HBM.
    CHECK(op_named(unfused.phase("prefill"), "attn_scores").flops == 2.0 * 8 * 128 * 1000 * 1000);
    CHECK(op_named(unfused.phase("prefill"), "softmax").bytes_read == 8.0 * 1000 * 1000 * 2);
    CHECK(unfused.summary.ttft_s > fused.summary.ttft_s);
}

TEST_CASE("tensor parallelism: more chips, faster decode, all-reduces appear") {
    const Result one = evaluate_inference(test::tiny_scenario(1, 1, 512, 64));
    const Result two = evaluate_inference(test::tiny_scenario(2, 1, 512, 64));
    CHECK_FALSE(has_op(one.phase("decode"), "attn_allreduce"));
    CHECK(has_op(two.phase("decode"), "attn_allreduce"));
    // A collective carries values in the activations' format.
    const Scenario gpt3 = preset_scenario("gpt3-175b-dgx-a100-tp8");  // fp16
    CHECK(op_named(evaluate_inference(gpt3).phase("decode"), "mlp_allreduce").precision == Precision::fp16);
    CHECK(two.memory.weights_bytes < one.memory.weights_bytes);
    CHECK(op_named(two.phase("decode"), "mlp_up").time_s == doctest::Approx(op_named(one.phase("decode"), "mlp_up").time_s / 2).epsilon(0.01));
}

TEST_CASE("precisions: fp8 weights halve weight bytes — KV format sizes the cache") {
    Scenario s = preset_scenario("llama2-70b-dgx-h100-tp8");
    const Result bf16 = evaluate_inference(s);
    s.workload.inference.precision.weights = Precision::fp8;
    s.workload.inference.precision.kv_cache = Precision::fp8;
    const Result fp8 = evaluate_inference(s);
    CHECK(fp8.memory.weights_bytes == doctest::Approx(bf16.memory.weights_bytes / 2));
    CHECK(fp8.memory.kv_cache_bytes == doctest::Approx(bf16.memory.kv_cache_bytes / 2));
    CHECK(*fp8.summary.tpot_s < *bf16.summary.tpot_s);
    // fp8 weights with bf16 activations still run bf16 matmuls (weight-only quantization).
    CHECK(std::string(to_string(op_named(fp8.phase("prefill"), "mlp_up").precision)) == "bf16");
}

TEST_CASE("warnings: memory overflow, context beyond training, idle chips") {
    Scenario s = preset_scenario("llama2-70b-dgx-h100-tp8");
    s.parallelism.tp = 1;
    s.workload.inference.input_tokens = 8000;
    const Result r = evaluate_inference(s);
    CHECK_FALSE(r.memory.fits);
    REQUIRE(r.warnings.size() == 3);
    CHECK(r.warnings[0].find("exceeds the context") != std::string::npos);
    CHECK(r.warnings[1].find("does not fit") != std::string::npos);
    CHECK(r.warnings[2].find("7 of 8 chips are idle") != std::string::npos);
}

TEST_CASE("a model without a vocabulary is its layers alone: no embedding, final norm or LM head") {
    Scenario s = test::tiny_scenario(1, 1, 16, 4);
    s.model.vocab = 0;
    const Result r = evaluate_inference(s);
    for (const PhaseReport& phase : r.phases) {
        for (const OpReport& o : phase.ops) {
            CHECK(std::string(o.name) != "embedding");
            CHECK(std::string(o.name) != "final_norm");
            CHECK(std::string(o.name) != "lm_head");
        }
    }
    // Two layers of 1024·1536 + 1024·1024 + 1024·8192 + 4096·1024 weights and two norms of
    // 1024 = 15,206,400 parameters each, in bf16; no final norm.
    CHECK(count_params(s.model).total() == 2 * 15'206'400);
    CHECK(r.memory.weights_bytes == doctest::Approx(2 * 2 * 15'206'400));
}

TEST_CASE("a prefix-cache hit: prefill computes the rest of the prompt, attending over all of it") {
    // 100 prompt tokens, half cached: 50 computed, each attending over the 50 cached and the
    // new ones up to itself: 50·50 + 50·51/2 = 3775 pairs per head (5050 without the cache).
    Scenario s = test::tiny_scenario(1, 1, 100, 2);
    const Result full = evaluate_inference(s);
    s.workload.inference.prefix_cache_hit = 0.5;
    const Result hit = evaluate_inference(s);
    const auto flops = [](const Result& r, const char* name) {
        for (const OpReport& o : r.phase("prefill").ops) {
            if (std::string(o.name) == name) return o.flops;
        }
        return -1.0;
    };
    CHECK(flops(hit, "attention") == doctest::Approx(4.0 * 8 * 128 * 3775));
    CHECK(flops(full, "attention") == doctest::Approx(4.0 * 8 * 128 * 5050));
    CHECK(flops(hit, "qkv_proj") == doctest::Approx(flops(full, "qkv_proj") / 2));  // half the tokens
    CHECK(hit.summary.ttft_s < full.summary.ttft_s);
    // The decode steps and the cache are the same: the whole prompt is in it either way.
    CHECK(*hit.summary.tpot_s == doctest::Approx(*full.summary.tpot_s));
    CHECK(hit.memory.kv_cache_bytes == doctest::Approx(full.memory.kv_cache_bytes));
    s.workload.inference.prefix_cache_hit = 0.9999;  // never all of it: the last token is computed
    CHECK(s.workload.inference.cached_prompt_tokens() == 99);
}

TEST_CASE("a parallel block reduces once per layer and adds both branches to the residual at once") {
    Scenario s = test::tiny_scenario(2, 1, 16, 2);
    const Result sequential = evaluate_inference(s);
    s.model.groups[0].layer.parallel_block = true;
    const Result parallel = evaluate_inference(s);
    const auto find = [](const Result& r, const char* name) -> const OpReport* {
        for (const OpReport& o : r.phase("prefill").ops) {
            if (std::string(o.name) == name) return &o;
        }
        return nullptr;
    };
    CHECK(find(sequential, "attn_allreduce") != nullptr);
    CHECK(find(parallel, "attn_allreduce") == nullptr);   // the attention's partial sums wait
    CHECK(find(parallel, "attn_residual") == nullptr);
    REQUIRE(find(parallel, "mlp_allreduce") != nullptr);
    // x + attention + MLP: three [16 × 1024] bf16 streams read, one written.
    CHECK(find(parallel, "mlp_residual")->bytes_read == doctest::Approx(3.0 * 16 * 1024 * 2));
    CHECK(parallel.summary.ttft_s < sequential.summary.ttft_s);
    CHECK(count_params(s.model).total() == doctest::Approx(sequential.summary.params));  // the same weights
}

TEST_CASE("beam search: every beam decodes, the prompt's cache is shared, one beam's tokens count") {
    Scenario s = test::tiny_scenario(1, 2, 100, 28);
    const Result one = evaluate_inference(s);
    s.workload.inference.beams = 4;
    const Result beams = evaluate_inference(s);
    Scenario eight = test::tiny_scenario(1, 8, 100, 28);
    const Result batch8 = evaluate_inference(eight);
    // A decode step of 2 requests × 4 beams is a decode step of 8 sequences.
    CHECK(*beams.summary.tpot_s == doctest::Approx(*batch8.summary.tpot_s));
    CHECK(beams.summary.ttft_s == doctest::Approx(one.summary.ttft_s));  // prompts prefilled once
    // 2 requests × 28 tokens each, whatever the beams.
    CHECK(beams.summary.output_tokens_per_s == doctest::Approx(2 * 28 / beams.summary.e2e_latency_s));
    // Cache per request: the 128 tokens of the first beam, 28 more for each of the 3 others;
    // 2048 B a token (2 layers × 2 KV heads × 128 × K and V × 2 B).
    CHECK(beams.memory.kv_cache_bytes == doctest::Approx(2 * 2048.0 * (128 + 3 * 28)));
    CHECK(one.memory.kv_cache_bytes == doctest::Approx(2 * 2048.0 * 128));
}

TEST_CASE("an offloaded KV cache: its share streams over the host link at every decode step") {
    // Half of the cache on a host behind a 10 GB/s link. The attention reads 2 KV heads × 128
    // × K and V × 2 B = 1024 B per attended token and layer, half of it from the host: at
    // contexts 101 … 127 (mean 114), 512 · 114 B / 10 GB/s = 5.8368 µs a step, far above its
    // HBM and compute time on the round chip.
    Scenario s = test::tiny_scenario(1, 1, 100, 28);
    s.system.host = HostResources{10, 100, 100, 0, "test"};
    const Result resident = evaluate_inference(s);
    s.workload.inference.kv_offload = 0.5;
    const Result offloaded = evaluate_inference(s);
    for (const OpReport& o : offloaded.phase("decode").ops) {
        if (std::string(o.name) != "attention") continue;
        CHECK(o.bound == Bound::network);
        CHECK(o.time_s == doctest::Approx(512.0 * 114 / 10e9));
    }
    CHECK(offloaded.memory.kv_cache_bytes == doctest::Approx(resident.memory.kv_cache_bytes / 2));
    CHECK(offloaded.memory.host_kv_bytes == doctest::Approx(resident.memory.kv_cache_bytes / 2));
    CHECK(*offloaded.summary.tpot_s > *resident.summary.tpot_s);
    s.system.host = HostResources{};
    CHECK(test::error_path(s) == "system.host.link_gbps");
}

TEST_CASE("weight-only quantization pays its dequantization on the vector units") {
    // The up projection of 16 prompt tokens, [16 × 1024]·[1024 × 8192], with int4 weights and
    // bf16 activations on the round chip: 268,435,456 tensor FLOPs at 10 TFLOP/s = 26.84 µs,
    // plus each of the 8,388,608 weights dequantized once (16 rows ≤ one 128-row tile) at 4
    // vector operations, 33,554,432 at the 10 TFLOP/s fp32 roof = 3.36 µs; its 4.2 MB of
    // weights stream in 4.2 µs, so compute binds.
    Scenario s = test::tiny_scenario(1, 1, 16, 2);
    s.workload.inference.precision.weights = Precision::int4;
    const Result r = evaluate_inference(s);
    for (const OpReport& o : r.phase("prefill").ops) {
        if (std::string(o.name) != "mlp_up") continue;
        CHECK(o.time_s == doctest::Approx(268'435'456 / 1e13 + 33'554'432 / 1e13));
        CHECK(o.bound == Bound::compute);
    }
    s.workload.inference.precision.weights = Precision::bf16;  // no conversion
    const Result plain = evaluate_inference(s);  // kept: the loop reads into it
    for (const OpReport& o : plain.phase("prefill").ops) {
        if (std::string(o.name) == "mlp_up") CHECK(o.time_s == doctest::Approx(268'435'456 / 1e13));
    }
}

TEST_CASE("chunked prefill: the same attention pairs in all, every weight read again per chunk") {
    // 100 prompt tokens in chunks of 32: three full chunks after 0, 32 and 64 cached tokens,
    // then the last 4 after 96, which yields the first token. Pairs: Σ_j (32·32j + 528) +
    // (4·96 + 10) = 3072 + 1584 + 394 = 5050 = 100·101/2, as in one pass.
    Scenario s = test::tiny_scenario(1, 1, 100, 2);
    const Result whole = evaluate_inference(s);
    s.workload.inference.prefill_chunk = 32;
    const Result chunked = evaluate_inference(s);
    const auto total = [](const Result& r, const char* name, bool weights) {
        double sum = 0;
        for (const OpReport& o : r.phase("prefill").ops) {
            if (std::string(o.name) != name) continue;
            const bool chunk = std::string(op_variant_name(o.variant)) == "chunk";
            const double runs = chunk ? 3 : 1;  // per-execution numbers are averaged over the chunks
            sum += runs * (weights ? o.bytes_read : o.flops) * o.count;
        }
        return sum;
    };
    CHECK(total(chunked, "attention", false) == doctest::Approx(total(whole, "attention", false)));
    CHECK(total(whole, "attention", false) == doctest::Approx(2 * 4.0 * 8 * 128 * 5050));  // two layers
    CHECK(total(chunked, "qkv_proj", false) == doctest::Approx(total(whole, "qkv_proj", false)));
    // The QKV weights (1024 × 1536 × 2 B per layer) are read by each of the four passes.
    const double qkv_weights = 2 * 1024.0 * 1536 * 2;
    CHECK(total(chunked, "qkv_proj", true) - total(whole, "qkv_proj", true) == doctest::Approx(3 * qkv_weights).epsilon(0.02));
    CHECK(chunked.summary.ttft_s > whole.summary.ttft_s);
    CHECK(*chunked.summary.tpot_s == doctest::Approx(*whole.summary.tpot_s));
}
