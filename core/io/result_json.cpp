#include "io/result_json.hpp"

#include "io/names.hpp"
#include "io/scenario_json.hpp"
#include "version.hpp"

namespace envelope {

namespace {

Json phase_json(const PhaseReport& p) {
    Json ops = Json::array();
    for (const OpReport& o : p.ops) {
        ops.push_back({{"name", o.name},
                       {"class", to_string(o.cls)},
                       {"precision", std::string(to_string(o.precision))},
                       {"count", o.count},
                       {"flops", o.flops},
                       {"bytes_read", o.bytes_read},
                       {"bytes_written", o.bytes_written},
                       {"network_bytes", o.network_bytes},
                       {"time_s", o.time_s},
                       {"total_time_s", o.total_time_s},
                       {"bound", to_string(o.bound)}});
    }
    return Json{{"steps", p.steps},
                {"time_s", p.time_s},
                {"flops", p.flops},
                {"bytes", p.bytes},
                {"ops", ops}};
}

}  // namespace

Json to_json(const InferenceResult& r, const Scenario& s) {
    const InferenceSummary& sum = r.summary;
    const InferenceMemory& m = r.memory;
    return Json{
        {"ok", true},
        {"version", kVersion},
        {"scenario", to_json(s)},
        {"summary",
         {{"chips", sum.chips},
          {"params", sum.params},
          {"ttft_s", sum.ttft_s},
          {"tpot_s", sum.tpot_s ? Json(*sum.tpot_s) : Json(nullptr)},
          {"e2e_latency_s", sum.e2e_latency_s},
          {"output_tokens_per_s", sum.output_tokens_per_s},
          {"output_tokens_per_s_per_chip", sum.output_tokens_per_s_per_chip},
          {"prefill_tokens_per_s", sum.prefill_tokens_per_s}}},
        {"memory",
         {{"weights_bytes", m.weights_bytes},
          {"kv_cache_bytes", m.kv_cache_bytes},
          {"activation_bytes", m.activation_bytes},
          {"total_bytes", m.total_bytes},
          {"capacity_bytes", m.capacity_bytes},
          {"fits", m.fits}}},
        {"phases", {{"prefill", phase_json(r.prefill)}, {"decode", phase_json(r.decode)}}},
        {"warnings", r.warnings}};
}

Json error_json(const std::string& path, const std::string& message) {
    return Json{{"ok", false}, {"error", {{"path", path}, {"message", message}}}};
}

}  // namespace envelope
