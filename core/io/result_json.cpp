#include "io/result_json.hpp"

#include "io/cost_json.hpp"
#include "io/disaggregated_json.hpp"

#include "io/names.hpp"
#include "io/scenario_json.hpp"
#include "version.hpp"

namespace envelope {

namespace {

// Built field by field: nlohmann's initializer-list constructor copies every element
// and is several times slower, which matters in wasm where this is most of the cost.
Json phase_json(const PhaseReport& p) {
    Json ops = Json::array();
    ops.get_ref<Json::array_t&>().reserve(p.ops.size());
    for (const OpReport& o : p.ops) {
        Json op = Json::object();
        op["name"] = o.name;
        if (o.variant != OpVariant::forward) op["variant"] = op_variant_name(o.variant);
        op["class"] = to_string(o.cls);
        op["precision"] = std::string(to_string(o.precision));
        op["count"] = o.count;
        op["flops"] = o.flops;
        op["bytes_read"] = o.bytes_read;
        op["bytes_written"] = o.bytes_written;
        op["network_bytes"] = o.network_bytes;
        op["time_s"] = o.time_s;
        op["total_time_s"] = o.total_time_s;
        op["bound"] = to_string(o.bound);
        op["stage"] = o.stage;
        if (o.cls == OpClass::collective) {
            op["dimension"] = to_string(o.dim);
            op["algorithm"] = to_string(o.algorithm);
        }
        ops.push_back(std::move(op));
    }
    Json phase = Json::object();
    phase["steps"] = p.steps;
    phase["time_s"] = p.time_s;
    phase["flops"] = p.flops;
    phase["bytes"] = p.bytes;
    phase["communication_s"] = p.communication_s;
    phase["exposed_communication_s"] = p.exposed_communication_s;
    phase["ops"] = std::move(ops);
    return phase;
}

Json summary_json(const InferenceSummary& sum) {
    Json j{{"ttft_s", sum.ttft_s},
                {"tpot_s", sum.tpot_s ? Json(*sum.tpot_s) : Json(nullptr)},
                {"e2e_latency_s", sum.e2e_latency_s},
                {"output_tokens_per_s", sum.output_tokens_per_s},
                {"output_tokens_per_s_per_chip", sum.output_tokens_per_s_per_chip},
                {"prefill_tokens_per_s", sum.prefill_tokens_per_s}};
    if (sum.tokens_per_step) j["tokens_per_step"] = *sum.tokens_per_step;
    return j;
}

}  // namespace

Json spans_json(const Spans& spans) {
    Json out = Json::array();
    for (const Span& sp : spans) {
        Json j = {{"level", sp.level_index}, {"name", sp.level->name}, {"size", sp.size}};
        if (sp.dim >= 0) j["dim"] = sp.dim;
        out.push_back(std::move(j));
    }
    return out;
}

namespace {

Json inference_summary(const Result& r) {
    Json summary = Json{{"chips", r.summary.chips},
                        {"chips_per_replica", r.summary.chips_per_replica},
                        {"replicas", r.summary.replicas},
                        {"params", r.summary.params}};
    const Json expected = summary_json(r.summary);
    for (auto it = expected.begin(); it != expected.end(); ++it) summary[it.key()] = it.value();
    summary["roofline"] = summary_json(r.roofline);
    const auto band = [](const ResultErrorBand& b) {
        return Json{{"low", b.low}, {"high", b.high}, {"cases", b.cases}};
    };
    summary["error_band"] = {{"coverage", r.error_bands.coverage},
                             {"ttft", band(r.error_bands.ttft)},
                             {"generation", band(r.error_bands.generation)}};
    return summary;
}

Json inference_memory(const InferenceMemory& m) {
    Json j{{"stage", m.stage},
            {"weights_bytes", m.weights_bytes},
            {"kv_cache_bytes", m.kv_cache_bytes},
            {"activation_bytes", m.activation_bytes},
            {"total_bytes", m.total_bytes},
            {"capacity_bytes", m.capacity_bytes},
            {"fits", m.fits}};
    if (m.host_kv_bytes > 0) j["host_kv_bytes"] = m.host_kv_bytes;
    return j;
}

}  // namespace

Json to_json(const Result& r, const Scenario& s) {
    Json phases = Json::object();
    for (const PhaseReport& p : r.phases) phases[p.name()] = phase_json(p);
    Json network = Json::array();
    for (const DimensionReport& d : r.network) {
        network.push_back({{"dimension", to_string(d.dim)},
                           {"size", d.size},
                           {"stride", d.stride},
                           {"levels", spans_json(d.spans)},
                           {"bytes", d.bytes},
                           {"time_s", d.time_s}});
    }
    const bool training = r.kind == WorkloadKind::training;
    Json out = Json::object();
    out["ok"] = true;
    out["version"] = kVersion;
    out["workload"] = to_string(r.kind);
    out["scenario"] = to_json(s);
    out["summary"] = training ? training_summary_json(r.training) : inference_summary(r);
    if (training) {
        out["summary"]["error_band"] = {{"coverage", r.error_bands.coverage},
                                        {"step", {{"low", r.error_bands.step.low},
                                                  {"high", r.error_bands.step.high},
                                                  {"cases", r.error_bands.step.cases}}}};
    }
    out["pipeline"] = {{"stages", r.pipeline.stages},
                       {"micro_batches", r.pipeline.micro_batches},
                       {"micro_batch", r.pipeline.micro_batch},
                       {"stage_layers", r.pipeline.stage_layers},
                       {"virtual_stages", r.pipeline.virtual_stages},
                       {"schedule", to_string(r.pipeline.schedule)}};
    out["memory"] = training ? training_memory_json(r.training_memory, r.fit_advice) : inference_memory(r.memory);
    out["phases"] = std::move(phases);
    out["network"] = std::move(network);
    out["cost"] = to_json(r.cost);
    if (r.disaggregated) out["disaggregated"] = to_json(*r.disaggregated);
    if (r.open_loop) {
        const OpenLoopReport& o = *r.open_loop;
        out["open_loop"] = {{"offered_requests_per_s", o.offered_requests_per_s},
                            {"capacity_requests_per_s", o.capacity_requests_per_s},
                            {"slots", o.slots},
                            {"running_sequences", o.running_sequences},
                            {"prompt_load", o.prompt_load},
                            {"queue_wait_s", o.queue_wait_s},
                            {"saturated", o.saturated}};
    }
    out["warnings"] = r.warnings;
    return out;
}

Json error_json(const std::string& path, const std::string& message) {
    return Json{{"ok", false}, {"error", {{"path", path}, {"message", message}}}};
}

}  // namespace envelope
