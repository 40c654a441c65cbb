#include "io/sweep_json.hpp"

#include "common/error.hpp"
#include "io/json_reader.hpp"
#include "io/result_json.hpp"
#include "io/schema_limits.hpp"
#include "version.hpp"

namespace envelope {

int64_t sweep_axis_max(SweepAxis axis) {
    switch (axis) {
        case SweepAxis::batch: return limits::kMaxBatch;
        case SweepAxis::input_tokens:
        case SweepAxis::output_tokens: return limits::kMaxTokens;
        case SweepAxis::tp: return limits::kMaxChips;
    }
    return 1;
}

SweepRequest parse_sweep_request(const Json& request) {
    JsonReader r(request, "");
    SweepRequest q;
    q.scenario = &r.value("scenario");
    q.axis = r.choice("axis", kSweepAxisNames);
    const int64_t max = sweep_axis_max(q.axis);
    const Json* values = r.optional_value("values");
    const Json* range = r.optional_value("range");
    if ((values == nullptr) == (range == nullptr)) {
        throw InputError(values ? "range" : "values", "give the values to sweep either as \"values\": [...] or as "
                                                      "\"range\": {\"from\", \"to\", \"points\"}, one of the two");
    }
    if (values) {
        if (!values->is_array()) {
            throw InputError("values", std::string("must be an array of integers, got ") + json_type_name(*values));
        }
        if (values->empty() || values->size() > static_cast<std::size_t>(kMaxSweepPoints)) {
            throw InputError("values", "must hold 1 to " + std::to_string(kMaxSweepPoints) + " values, got " +
                                           std::to_string(values->size()));
        }
        for (std::size_t i = 0; i < values->size(); ++i) {
            q.values.push_back(read_integer((*values)[i], "values[" + std::to_string(i) + "]", 1, max));
        }
    } else {
        JsonReader rr(*range, "range");
        q.from = rr.integer("from", 1, max);
        q.to = rr.integer("to", q.from, max);
        const int points = static_cast<int>(rr.integer("points", 2, kMaxSweepPoints));
        rr.finish();
        q.values = geometric_values(q.from, q.to, points);
        q.range = true;
    }
    r.finish();
    return q;
}

Json sweep_answer_json(SweepAxis axis, int64_t current, const std::vector<SweepPoint>& points) {
    Json list = Json::array();
    for (const SweepPoint& p : points) {
        if (!p.ok()) {
            list.push_back({{"value", p.value}, {"ok", false}, {"error", error_json(p.error_path, p.error)["error"]}});
            continue;
        }
        list.push_back({{"value", p.value},
                        {"ok", true},
                        {"fits", p.fits},
                        {"chips", p.chips},
                        {"output_tokens_per_s", p.output_tokens_per_s},
                        {"output_tokens_per_s_per_chip", p.output_tokens_per_s_per_chip},
                        {"output_tokens_per_s_per_user", p.output_tokens_per_s_per_user},
                        {"ttft_s", p.ttft_s},
                        {"tpot_s", p.tpot_s ? Json(*p.tpot_s) : Json(nullptr)},
                        {"e2e_latency_s", p.e2e_latency_s},
                        {"memory_bytes", p.memory_bytes},
                        {"capacity_bytes", p.capacity_bytes},
                        {"weights_bytes", p.weights_bytes},
                        {"kv_cache_bytes", p.kv_cache_bytes},
                        {"activation_bytes", p.activation_bytes}});
    }
    return {{"ok", true}, {"version", kVersion}, {"axis", to_string(axis)}, {"current", current}, {"points", std::move(list)}};
}

}  // namespace envelope
