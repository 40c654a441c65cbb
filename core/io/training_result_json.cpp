#include <algorithm>

#include "io/result_json.hpp"

namespace envelope {

Json training_summary_json(const TrainingSummary& t) {
    const TrainingBreakdown& b = t.breakdown;
    Json j = Json::object();
    j["chips"] = t.chips;
    j["replicas"] = t.replicas;
    j["micro_batches"] = t.micro_batches;
    j["params"] = t.params;
    j["step_time_s"] = t.step_time_s;
    j["framework"] = t.framework;
    j["tokens_per_step"] = t.tokens_per_step;
    j["tokens_per_s"] = t.tokens_per_s;
    j["tokens_per_s_per_chip"] = t.tokens_per_s_per_chip;
    j["model_flops_per_step"] = t.model_flops;
    j["hardware_flops_per_step"] = t.hardware_flops;
    j["model_tflops_per_chip"] = t.model_tflops_per_chip;
    j["hardware_tflops_per_chip"] = t.hardware_tflops_per_chip;
    j["mfu"] = t.mfu;
    j["hfu"] = t.hfu;
    j["train_time_s"] = t.train_time_s ? Json(*t.train_time_s) : Json(nullptr);
    j["chip_hours"] = t.chip_hours ? Json(*t.chip_hours) : Json(nullptr);
    j["critical_stage"] = t.critical_stage;
    j["breakdown"] = {{"compute_s", b.compute_s},     {"tp_s", b.tp_s},         {"cp_s", b.cp_s},
                      {"pp_s", b.pp_s},               {"ep_s", b.ep_s},         {"zero3_s", b.zero3_s},
                      {"bubble_s", b.bubble_s},
                      {"dp_s", b.dp_s},               {"optimizer_s", b.optimizer_s},
                      {"offload_s", b.offload_s}};
    return j;
}

namespace {

Json parts(const TrainingMemory& m) {
    return {{"stage", m.stage},
            {"weights_bytes", m.weights_bytes},
            {"gradient_bytes", m.gradient_bytes},
            {"optimizer_bytes", m.optimizer_bytes},
            {"activation_bytes", m.activation_bytes},
            {"activations_per_micro_batch", m.activations_per_micro_batch},
            {"micro_batches_in_flight", m.in_flight},
            {"total_bytes", m.total_bytes},
            {"capacity_bytes", m.capacity_bytes},
            {"fits", m.fits},
            {"host_bytes", m.host_bytes},
            {"host_capacity_bytes", m.host_capacity_bytes},
            {"host_fits", m.host_fits}};
}

}  // namespace

Json training_memory_json(const std::vector<TrainingMemory>& stages, const std::optional<FitAdvice>& advice) {
    const auto largest = std::max_element(stages.begin(), stages.end(), [](const auto& a, const auto& b) {
        return a.total_bytes < b.total_bytes;
    });
    Json j = parts(*largest);
    Json all = Json::array();
    for (const TrainingMemory& m : stages) all.push_back(parts(m));
    j["stages"] = std::move(all);
    j["fit_advice"] = nullptr;
    if (advice) {
        Json settings = Json::array();
        for (const Setting& set : advice->settings) {
            settings.push_back({{"field", set.field}, {"value", Json::parse(set.value)}});
        }
        j["fit_advice"] = {{"settings", settings},
                           {"peak_bytes", advice->peak_bytes},
                           {"capacity_bytes", advice->capacity_bytes}};
    }
    return j;
}

}  // namespace envelope
