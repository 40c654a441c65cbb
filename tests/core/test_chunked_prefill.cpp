// Chunked prefill (METHODOLOGY.md §15.1) worked out by hand chunk by chunk, and a hybrid's
// interleaved layers lowered once per kind of layer (inference/evaluate.cpp by_layer_kind).
#include <doctest/doctest.h>

#include <string>

#include "fixtures.hpp"
#include "inference/evaluate.hpp"
#include "io/scenario_json.hpp"
#include "presets/registry.hpp"

using namespace envelope;

namespace {

// Σ of `count` over the phase's entries of op `name` with this variant ("" or "chunk"), and
// how many entries there are.
struct Listed {
    double count = 0;
    int entries = 0;
};
Listed listed(const PhaseReport& p, const char* name, const char* variant) {
    Listed l;
    for (const OpReport& o : p.ops) {
        if (std::string(o.name) != name || std::string(op_variant_name(o.variant)) != variant) continue;
        l.count += o.count;
        ++l.entries;
    }
    return l;
}

// The tiny model's layer, and a Mamba layer with a mixture of experts in place of its MLP.
LayerSpec attention_layer() { return test::tiny_model().groups[0].layer; }
LayerSpec mamba_moe_layer() {
    LayerSpec l;
    l.mamba.d_inner = 2048;
    l.mamba.d_state = 16;
    l.mamba.d_conv = 4;
    l.mamba.dt_rank = 64;
    l.ffn.gated = true;
    l.ffn.moe.experts = 4;
    l.ffn.moe.top_k = 2;
    l.ffn.moe.expert_ffn = 1024;
    return l;
}

// `pairs` × (attention, Mamba+MoE), interleaved one layer at a time (Jamba's pattern) or not.
Scenario hybrid(int64_t pairs, bool interleaved) {
    Scenario s = test::tiny_scenario(1, 2, 100, 8);
    s.workload.inference.prefill_chunk = 32;
    s.model.groups.clear();
    if (interleaved) {
        for (int64_t i = 0; i < pairs; ++i) {
            s.model.groups.push_back(LayerGroup{attention_layer(), 1});
            s.model.groups.push_back(LayerGroup{mamba_moe_layer(), 1});
        }
    } else {
        s.model.groups = {LayerGroup{attention_layer(), pairs}, LayerGroup{mamba_moe_layer(), pairs}};
    }
    return s;
}

}  // namespace

TEST_CASE("hand check: a chunked prefill's TTFT is the sum of its chunks' passes, 661.0382368 µs") {
    // The tiny model (2 layers, hidden 1024, 8 heads of 128, 2 KV heads, gated MLP 4096, vocab
    // 1000) on one round chip (1e13 FLOP/s, 1e12 B/s, no fixed costs), bf16, batch 1: 100
    // prompt tokens in chunks of 32 are chunks j = 0, 1, 2 after 32·j cached tokens, then the
    // last 4 tokens after 96, which yield the first token. Each op: max(FLOPs/1e13, bytes/1e12).
    Scenario s = test::tiny_scenario(1, 1, 100, 2);
    s.workload.inference.prefill_chunk = 32;
    const Result r = evaluate_inference(s);

    // One chunk of 32 tokens, µs (c = compute, m = memory):
    //   embedding      32 rows read and written: 2·65,536 B                         0.131072 m
    //   per layer:
    //   attn_norm      65,536 + 2,048 scale read, 65,536 written                     0.13312  m
    //   qkv_proj       2·32·1024·1536 = 100,663,296 FLOP                             10.0663296 c
    //   kv_append      32 tokens · 2·2 heads·128 · 2 B = 32,768 B read and written    0.065536 m
    //   out_proj       2·32·1024·1024 = 67,108,864 FLOP                              6.7108864 c
    //   attn_residual  2·65,536 read, 65,536 written                                 0.196608 m
    //   mlp_norm       as attn_norm                                                  0.13312  m
    //   mlp_up         2·32·1024·8192 = 536,870,912 FLOP                             53.6870912 c
    //   mlp_act        32·8192·2 B read, 32·4096·2 B written = 786,432 B             0.786432 m
    //   mlp_down       2·32·4096·1024 = 268,435,456 FLOP                             26.8435456 c
    //   mlp_residual   as attn_residual                                              0.196608 m
    //   = 98.8192768 per layer; the chunk 0.131072 + 2·98.8192768 = 197.7696256 besides attention.
    const double chunk_us = 0.131072 + 2 * 98.8192768;
    // Attention of chunk j: 32·32j + 32·33/2 (query, key) pairs, 4·8 heads·128 = 4096 FLOP each,
    // compute-bound (FLOPs/1e13 above the bytes of Q, O and the 32(j+1) cached tokens' K, V):
    //   j = 0: 528 pairs 0.2162688, j = 1: 1552 pairs 0.6356992, j = 2: 2576 pairs 1.0551296.
    const double attention_us = 0.2162688 + 0.6356992 + 1.0551296;
    // The last pass, 4 tokens: every GEMM reads its weights, memory-bound:
    //   embedding 0.016384; per layer: attn_norm 0.018432, qkv_proj (3,145,728 + 8,192 +
    //   12,288 B) 3.166208, kv_append 0.008192, attention (394 pairs · 4096 FLOP) 0.1613824 c,
    //   out_proj (2,097,152 + 2·8,192 B) 2.113536, attn_residual 0.024576, mlp_norm 0.018432,
    //   mlp_up (16,777,216 + 8,192 + 65,536 B) 16.850944, mlp_act 0.098304, mlp_down
    //   (8,388,608 + 32,768 + 8,192 B) 8.429568, mlp_residual 0.024576 = 30.9141504;
    //   final_norm 0.018432, lm_head for the last token (2,048,000 + 2,048 + 2,000 B) 2.052048.
    const double last_us = 0.016384 + 2 * 30.9141504 + 0.018432 + 2.052048;
    // TTFT = 3 · 197.7696256 + 2 layers · 1.907098 + 63.9151648 = 661.0382368 µs.
    CHECK(3 * chunk_us + 2 * attention_us + last_us == doctest::Approx(661.0382368).epsilon(1e-12));
    CHECK(r.summary.ttft_s == doctest::Approx(661.0382368e-6).epsilon(1e-12));
    // The chunks are one entry per op (variant "chunk", its time the mean over the 3 chunks):
    // the attention's total is the three chunks' sum, 2 layers · 1.907098 µs.
    for (const OpReport& o : r.phase("prefill").ops) {
        if (std::string(o.name) == "attention" && std::string(op_variant_name(o.variant)) == "chunk") {
            CHECK(o.total_time_s == doctest::Approx(2 * 1.9070976e-6).epsilon(1e-12));
            CHECK(o.time_s == doctest::Approx(1.9070976e-6 / 3).epsilon(1e-12));
        }
    }
}

TEST_CASE("a hybrid's interleaved layers are listed once per kind, each op counting all its layers") {
    // Attention and Mamba+MoE layers alternating one by one cost what the same layers in two
    // groups do; the result lists each op once per kind of layer (count = its layers), in the
    // last pass, the chunks and decode alike.
    const Result interleaved = evaluate_inference(hybrid(3, true));
    const Result grouped = evaluate_inference(hybrid(3, false));
    CHECK(interleaved.summary.ttft_s == doctest::Approx(grouped.summary.ttft_s).epsilon(1e-12));
    CHECK(*interleaved.summary.tpot_s == doctest::Approx(*grouped.summary.tpot_s).epsilon(1e-12));
    CHECK(interleaved.memory.total_bytes == doctest::Approx(grouped.memory.total_bytes).epsilon(1e-12));
    for (const char* phase : {"prefill", "decode"}) {
        CHECK(interleaved.phase(phase).ops.size() == grouped.phase(phase).ops.size());
    }
    for (const char* variant : {"", "chunk"}) {
        const Listed norm = listed(interleaved.phase("prefill"), "attn_norm", variant);
        CHECK(norm.entries == 2);  // one per kind
        CHECK(norm.count == 6);    // every layer
        CHECK(listed(interleaved.phase("prefill"), "ssm_scan", variant).count == 3);
        CHECK(listed(interleaved.phase("prefill"), "attention", variant).count == 3);
    }
    CHECK(listed(interleaved.phase("decode"), "attn_norm", "").entries == 2);

    // So the op list, and the time to evaluate and serialize it, do not grow with the layers.
    const Result deep = evaluate_inference(hybrid(500, true));  // 1000 layers
    CHECK(deep.phase("prefill").ops.size() == interleaved.phase("prefill").ops.size());
    CHECK(deep.phase("decode").ops.size() == interleaved.phase("decode").ops.size());
    CHECK(listed(deep.phase("prefill"), "attn_norm", "chunk").count == 1000);
}

TEST_CASE("Jamba-v0.1, 64k-token prompt in chunks of 8192: three kinds of layer, 32 layers") {
    // Attention in layers 4, 12, 20, 28 (one in 8, offset 4), Mamba in the rest; a mixture in
    // the odd layers (one in 2, offset 1): Mamba + MLP, Mamba + mixture, attention + MLP.
    const Scenario s = parse_scenario(*find_preset(PresetKind::scenario, "jamba-dgx-h100-long-context"));
    const Result r = evaluate_inference(s);
    for (const char* variant : {"", "chunk"}) {
        const Listed norm = listed(r.phase("prefill"), "attn_norm", variant);
        CHECK(norm.entries == 3);
        CHECK(norm.count == 32);
        CHECK(listed(r.phase("prefill"), "moe_router", variant).count == 16);
        CHECK(listed(r.phase("prefill"), "attention", variant).count == 4);
        CHECK(listed(r.phase("prefill"), "ssm_scan", variant).count == 28);
    }
    CHECK(listed(r.phase("decode"), "attn_norm", "").count == 32);
    CHECK(r.phase("prefill").ops.size() < 120);  // was 1,105: one entry per layer per pass
}
