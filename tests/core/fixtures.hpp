#pragma once
// Small, round-numbered inputs whose results can be worked out by hand.
#include <string>
#include <vector>

#include "common/error.hpp"
#include "evaluate.hpp"
#include "hardware/system.hpp"
#include "model/model.hpp"
#include "ops/op.hpp"
#include "parallel/placement.hpp"
#include "parallel/stages.hpp"
#include "scenario.hpp"

namespace envelope::test {

// Dense attention of `heads` query heads of `head_dim`, `kv_heads` KV heads.
inline AttentionSpec attention(int64_t heads, int64_t kv_heads, int64_t head_dim) {
    AttentionSpec a;
    a.heads = heads;
    a.kv_heads = kv_heads;
    a.head_dim = head_dim;
    return a;
}

// 2 layers, hidden 1024, 8 query heads of 128, 2 KV heads (GQA), gated MLP of 4096.
inline Model tiny_model() {
    Model m;
    m.name = "tiny";
    m.hidden = 1024;
    LayerSpec layer;
    layer.attention = attention(8, 2, 128);
    layer.ffn.ffn = 4096;
    layer.ffn.gated = true;
    m.groups = {LayerGroup{layer, 2}};
    m.vocab = 1000;
    m.max_seq_len = 4096;
    return m;
}

// 10 TFLOP/s bf16 (and fp32 vector), 1 TB/s HBM, every efficiency 1: roofs are round.
inline Chip round_chip() {
    Chip c;
    c.name = "round";
    c.peak_tflops[static_cast<std::size_t>(Precision::bf16)] = 10;
    c.peak_tflops[static_cast<std::size_t>(Precision::fp32)] = 10;
    c.hbm_gb = 100;
    c.hbm_tb_s = 1;
    c.matrix_efficiency_default = 1;
    c.memory_efficiency = 1;
    return c;
}

// `count` round chips on one switch: 100 GB/s per direction, α = 1 µs, efficiency 1.
inline System round_system(int64_t count) {
    System s;
    s.name = "round system";
    s.chip = round_chip();
    s.count = count;
    NetworkLevel l;
    l.name = "switch";
    l.size = count;
    l.links_per_chip = 1;
    l.link_gbps = 100;
    l.latency_us = 1;
    l.efficiency = 1;
    s.network.levels.push_back(l);
    return s;
}

inline Scenario tiny_scenario(int64_t tp, int64_t batch, int64_t input, int64_t output) {
    Scenario s;
    s.model = tiny_model();
    s.system = round_system(tp);
    s.workload.inference.batch = batch;
    s.workload.inference.input_tokens = input;
    s.workload.inference.output_tokens = output;
    s.parallelism.tp = tp;
    return s;
}

// The spans of the group that runs a collective op in this scenario (empty for other ops).
inline Spans spans_of(const Scenario& s, const Op& op) {
    if (op.cls != OpClass::collective) return {};
    return place(s.parallelism, s.system.network).of(op.dim).spans;
}

// The path of the field check_scenario names for s, or "no error".
inline std::string error_path(const Scenario& s) {
    try {
        check_scenario(s);
    } catch (const InputError& e) {
        return e.path();
    }
    return "no error";
}

// The scenario's only pipeline stage (pp = 1): the whole model.
inline Stage whole_model(const Scenario& s) { return split_stages(s.model, s.parallelism).front(); }

}  // namespace envelope::test

namespace envelope::build_for_test {

// An elementwise op that only streams `bytes` through HBM (1 ms per GB on the round chip).
inline Op streaming_op(double bytes) {
    Op op;
    op.name = "stream";
    op.cls = OpClass::vector;
    op.traffic.activations_read = constant(bytes);
    return op;
}

}  // namespace envelope::build_for_test
