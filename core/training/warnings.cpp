#include "training/warnings.hpp"

#include <algorithm>

#include "common/format.hpp"

namespace envelope {

namespace {

std::string describe(const FitAdvice& a) {
    std::string out;
    for (const Setting& set : a.settings) out += (out.empty() ? "" : " and ") + set.field + " = " + set.value;
    return out + " (" + format_gb(a.peak_bytes) + " per chip)";
}

// Settings that run but help nothing, or that Megatron-LM would refuse.
void add_layout_warnings(const Scenario& s, const TrainingSummary& t, std::vector<std::string>& out) {
    const TrainingWorkload& w = s.workload.training;
    const Parallelism& p = s.parallelism;
    if (w.recompute == Recompute::selective && w.flash_attention) {
        out.push_back("selective recomputation re-runs each layer's attention core, but under FlashAttention that "
                      "core keeps nothing of size s² to drop (Korthikanti et al. 2022 save the 5·a·s²·b bytes of "
                      "unfused attention): it costs compute and saves no memory; use none or full");
    }
    if (p.schedule == PipelineSchedule::interleaved_1f1b) {
        const int64_t m = t.micro_batches, layers = s.model.layers(), chunks = p.pp * p.virtual_stages;
        if (m < p.pp) {
            out.push_back(std::to_string(m) + " micro-batches for " + std::to_string(p.pp) +
                          " pipeline stages: Megatron-core runs the interleaved schedule's micro-batches in groups of "
                          "pp and refuses fewer than pp");
        } else if (m % p.pp != 0) {
            out.push_back(std::to_string(m) + " micro-batches are not a multiple of pp = " + std::to_string(p.pp) +
                          ": Megatron-LM's interleaved schedule required that before its 2024 versions");
        }
        if (layers % chunks != 0) {
            out.push_back(std::to_string(layers) + " layers do not split evenly into " + std::to_string(p.pp) +
                          " stages × " + std::to_string(p.virtual_stages) +
                          " chunks: Megatron-LM's interleaved schedule needs them to (the step here takes the "
                          "fullest stage)");
        }
    }
    if (t.mfu > 1) {
        out.push_back("MFU is above 100 %: model FLOPs count attention over the whole sequence (the convention, "
                      "METHODOLOGY.md §32) where the causal mask lets FlashAttention run about half of it; HFU counts "
                      "what runs");
    }
}

}  // namespace

void add_training_warnings(const Scenario& s, const TrainingSummary& summary, const std::vector<TrainingMemory>& memory,
                           const std::optional<FitAdvice>& advice, std::vector<std::string>& out) {
    const TrainingMemory& worst = *std::max_element(memory.begin(), memory.end(), [](const auto& a, const auto& b) {
        return a.total_bytes - a.capacity_bytes < b.total_bytes - b.capacity_bytes;
    });
    if (!worst.fits) {
        const std::pair<const char*, double> parts[] = {{"activations", worst.activation_bytes},
                                                        {"optimizer states", worst.optimizer_bytes},
                                                        {"gradients", worst.gradient_bytes},
                                                        {"weights", worst.weights_bytes}};
        const auto biggest = *std::max_element(std::begin(parts), std::end(parts),
                                               [](const auto& a, const auto& b) { return a.second < b.second; });
        out.push_back("does not fit: " + format_gb(worst.total_bytes) + " needed per chip on pipeline stage " +
                      std::to_string(worst.stage) + ", " + format_gb(worst.capacity_bytes) + " available; the largest part is " +
                      biggest.first + " (" + format_gb(biggest.second) + "); " +
                      (advice ? "it fits with " + describe(*advice) : std::string("no single change of ZeRO stage, recomputation, micro-batch, PP, TP or offload makes it fit")));
    }
    for (const TrainingMemory& m : memory) {
        if (m.host_fits) continue;
        out.push_back("does not fit in host memory: offloaded state needs " + format_gb(m.host_bytes) +
                      " per chip on pipeline stage " + std::to_string(m.stage) + ", the host has " +
                      format_gb(m.host_capacity_bytes) + " per chip (system.host.memory_gb)");
        break;
    }
    if (!s.system.network_note.empty()) out.push_back(s.system.network_note);
    const int64_t used = s.parallelism.chips();
    if (s.system.count > used) {
        out.push_back(std::to_string(s.system.count - used) + " of " + std::to_string(s.system.count) +
                      " chips are idle: tp × cp × dp × pp = " + std::to_string(used));
    }
    if (s.model.max_seq_len > 0 && s.workload.training.seq_len > s.model.max_seq_len) {
        out.push_back("seq_len " + std::to_string(s.workload.training.seq_len) + " exceeds the context " + s.model.name +
                      " was trained for (" + std::to_string(s.model.max_seq_len) + ")");
    }
    add_layout_warnings(s, summary, out);
}

}  // namespace envelope
