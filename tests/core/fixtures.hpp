#pragma once
// Small, round-numbered inputs whose results can be worked out by hand.
#include "hardware/system.hpp"
#include "model/model.hpp"
#include "scenario.hpp"

namespace envelope::test {

// 2 layers, hidden 1024, 8 query heads of 128, 2 KV heads (GQA), gated MLP of 4096.
inline Model tiny_model() {
    Model m;
    m.name = "tiny";
    m.layers = 2;
    m.hidden = 1024;
    m.heads = 8;
    m.kv_heads = 2;
    m.head_dim = 128;
    m.ffn = 4096;
    m.gated_ffn = true;
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
    c.scale_up_gbps = 100;
    c.scale_up_latency_us = 1;
    c.matrix_efficiency_default = 1;
    c.memory_efficiency = 1;
    c.scale_up_efficiency = 1;
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
    l.bandwidth_gbps = 100;
    l.latency_us = 1;
    l.efficiency = 1;
    s.network.levels.push_back(l);
    return s;
}

inline Scenario tiny_scenario(int64_t tp, int64_t batch, int64_t input, int64_t output) {
    Scenario s;
    s.model = tiny_model();
    s.system = round_system(tp);
    s.workload.batch = batch;
    s.workload.input_tokens = input;
    s.workload.output_tokens = output;
    s.workload.parallelism.tp = tp;
    return s;
}

}  // namespace envelope::test
