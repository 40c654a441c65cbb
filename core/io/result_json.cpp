#include "io/result_json.hpp"

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
        ops.push_back(std::move(op));
    }
    Json phase = Json::object();
    phase["steps"] = p.steps;
    phase["time_s"] = p.time_s;
    phase["flops"] = p.flops;
    phase["bytes"] = p.bytes;
    phase["ops"] = std::move(ops);
    return phase;
}

Json summary_json(const InferenceSummary& sum) {
    return Json{{"ttft_s", sum.ttft_s},
                {"tpot_s", sum.tpot_s ? Json(*sum.tpot_s) : Json(nullptr)},
                {"e2e_latency_s", sum.e2e_latency_s},
                {"output_tokens_per_s", sum.output_tokens_per_s},
                {"output_tokens_per_s_per_chip", sum.output_tokens_per_s_per_chip},
                {"prefill_tokens_per_s", sum.prefill_tokens_per_s}};
}

}  // namespace

Json to_json(const InferenceResult& r, const Scenario& s) {
    const InferenceMemory& m = r.memory;
    Json summary = Json{{"chips", r.summary.chips}, {"params", r.summary.params}};
    const Json expected = summary_json(r.summary);
    for (auto it = expected.begin(); it != expected.end(); ++it) summary[it.key()] = it.value();
    summary["roofline"] = summary_json(r.roofline);
    const auto band = [](const ResultErrorBand& b) {
        return Json{{"low", b.low}, {"high", b.high}, {"cases", b.cases}};
    };
    summary["error_band"] = {{"coverage", r.error_bands.coverage},
                             {"ttft", band(r.error_bands.ttft)},
                             {"generation", band(r.error_bands.generation)}};
    return Json{
        {"ok", true},
        {"version", kVersion},
        {"scenario", to_json(s)},
        {"summary", summary},
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
