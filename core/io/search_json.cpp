#include "io/search_json.hpp"

#include <string>
#include <vector>

#include "common/error.hpp"
#include "evaluate.hpp"
#include "explore/serving_search.hpp"
#include "explore/training_search.hpp"
#include "io/disaggregated_json.hpp"
#include "io/json_reader.hpp"
#include "io/names.hpp"
#include "io/result_json.hpp"
#include "io/scenario_json.hpp"
#include "io/schema_limits.hpp"
#include "version.hpp"

namespace envelope {

namespace {

// A search is named by what it searches: training layouts, or serving ones (inference).
constexpr Spelling<WorkloadKind> kSearches[] = {{WorkloadKind::training, "training"},
                                                {WorkloadKind::inference, "serving"}};

constexpr std::size_t kMaxListValues = 64;
constexpr int64_t kMaxChipCounts = 16;
constexpr int kMaxTop = 100;

const Json& list_of(JsonReader& r, const char* key, std::size_t max_items = kMaxListValues) {
    const Json& v = r.value(key);
    if (!v.is_array() || v.empty() || v.size() > max_items) {
        throw InputError(r.path_of(key), "must be an array of 1 to " + std::to_string(max_items) + " values, got " +
                                             (v.is_array() ? std::to_string(v.size()) + " values" : json_type_name(v)));
    }
    return v;
}

std::vector<int64_t> integers(JsonReader& r, const char* key, int64_t min, int64_t max) {
    std::vector<int64_t> out;
    if (!r.has(key)) return out;
    const Json& v = list_of(r, key);
    for (std::size_t i = 0; i < v.size(); ++i) {
        out.push_back(read_integer(v[i], r.path_of(key) + "[" + std::to_string(i) + "]", min, max));
    }
    return out;
}

// A list of names from an enum's spelling table (io/names.hpp).
template <typename E, std::size_t N>
std::vector<E> choices(JsonReader& r, const char* key, const Spelling<E> (&table)[N]) {
    std::vector<E> out;
    if (!r.has(key)) return out;
    const Json& v = list_of(r, key);
    for (std::size_t i = 0; i < v.size(); ++i) {
        out.push_back(read_spelling(v[i], r.path_of(key) + "[" + std::to_string(i) + "]", table));
    }
    return out;
}

std::vector<Precision> precisions(JsonReader& r, const char* key) {
    std::vector<Precision> out;
    if (!r.has(key)) return out;
    std::vector<std::string> names;
    for (Precision p : kAllPrecisions) names.emplace_back(to_string(p));
    const Json& v = list_of(r, key);
    for (std::size_t i = 0; i < v.size(); ++i) {
        out.push_back(kAllPrecisions[read_choice(v[i], r.path_of(key) + "[" + std::to_string(i) + "]", names)]);
    }
    return out;
}

Scenario scenario_of(JsonReader& r, WorkloadKind kind) {
    const Json& doc = r.value("scenario");
    Scenario s;
    try {
        s = parse_scenario(doc);
    } catch (const InputError& e) {
        throw InputError(e.path().empty() ? "scenario" : "scenario." + e.path(), e.what());
    }
    if (s.workload.kind != kind) {
        throw InputError("scenario.workload.kind", std::string("must be \"") +
                                                       to_string(kind) +
                                                       "\" for this search");
    }
    return s;
}

Json settings_json(const SearchPoint& p, SearchKind kind) {
    Json par = to_json(p.parallelism);
    par.erase("order");
    par.erase("micro_batches");
    if (kind == SearchKind::training) {
        return {{"parallelism", par}, {"workload", {{"micro_batch", p.micro_batch}, {"recompute", to_string(p.recompute)}}}};
    }
    for (const char* k : {"cp", "sp", "virtual_stages", "schedule", "zero"}) par.erase(k);
    Json settings = p.pools ? Json{{"disaggregated", to_json(*p.pools)}} : Json{{"parallelism", par}};
    settings["workload"] = Json
             {{"batch", p.batch},
              {"precision",
               {{"weights", std::string(to_string(p.precision.weights))},
                {"kv_cache", std::string(to_string(p.precision.kv_cache))},
                {"activations", std::string(to_string(p.precision.activations))},
                {"residual", std::string(to_string(p.precision.residual))}}}};
    return settings;
}

Json optional_number(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

Json point_json(const SearchPoint& p, SearchKind kind) {
    Json j = {{"settings", settings_json(p, kind)}, {"chips", p.chips}, {"memory_bytes", p.memory_bytes}};
    if (kind == SearchKind::training) {
        j["step_time_s"] = p.step_time_s;
        j["mfu"] = p.mfu;
        j["tokens_per_s"] = p.tokens_per_s;
        j["usd_per_step"] = optional_number(p.usd_per_step);
        j["chip_hours_per_step"] = p.chip_hours_per_step;
    } else {
        j["output_tokens_per_s_per_chip"] = p.output_tokens_per_s_per_chip;
        j["output_tokens_per_s_per_user"] = p.output_tokens_per_s_per_user;
        j["ttft_s"] = p.ttft_s;
        j["tpot_s"] = p.tpot_s;
        j["requests_per_s"] = p.requests_per_s;
        j["usd_per_m_output_tokens"] = optional_number(p.usd_per_m_output_tokens);
        j["meets_slo"] = p.meets_slo;
    }
    return j;
}

// A point with the evaluated scenario's summary (the result's "summary", evaluate.hpp).
Json point_with_summary(const Scenario& base, const SearchPoint& p, SearchKind kind) {
    Json j = point_json(p, kind);
    const Scenario s = apply_point(base, p, kind);
    j["summary"] = to_json(evaluate(s), s)["summary"];
    return j;
}

Json counts_json(const SearchCounts& c) {
    return {{"enumerated", c.enumerated}, {"invalid", c.invalid},         {"pruned_by_bound", c.pruned_bound},
            {"over_memory", c.over_memory}, {"dominated", c.dominated}, {"evaluated", c.evaluated}};
}

Json training_search(JsonReader& r) {
    const Scenario base = scenario_of(r, WorkloadKind::training);
    TrainingSpace space;
    if (const Json* chips = r.optional_value("chips")) {
        if (chips->is_array()) {
            space.chips = integers(r, "chips", 1, limits::kMaxChips);
            if (space.chips.size() > static_cast<std::size_t>(kMaxChipCounts)) {
                throw InputError("chips", "must list at most " + std::to_string(kMaxChipCounts) + " chip counts");
            }
        } else {
            space.chips = {read_integer(*chips, "chips", 1, limits::kMaxChips)};
        }
    }
    const TrainingRank rank = r.choice_or("rank", kTrainingRankNames, TrainingRank::step_time);
    const int top = static_cast<int>(r.integer_or("top", 1, kMaxTop, 10));
    if (const Json* sp = r.optional_value("space")) {
        JsonReader q(*sp, "space");
        space.tp = integers(q, "tp", 1, limits::kMaxHeads);
        space.cp = integers(q, "cp", 1, limits::kMaxChips);
        space.pp = integers(q, "pp", 1, limits::kMaxLayers);
        space.ep = integers(q, "ep", 1, limits::kMaxChips);
        for (int64_t v : integers(q, "sp", 0, 1)) space.sp.push_back(static_cast<int>(v));
        space.micro_batch = integers(q, "micro_batch", 1, limits::kMaxBatch);
        space.virtual_stages = integers(q, "virtual_stages", 1, limits::kMaxLayers);
        space.schedule = choices(q, "schedule", kPipelineScheduleNames);
        space.recompute = choices(q, "recompute", kRecomputeNames);
        for (int64_t v : integers(q, "zero", 0, 3)) space.zero.push_back(static_cast<int>(v));
        q.finish();
    }
    r.finish();
    const TrainingSearch found = search_training(base, space, rank, top);
    Json topj = Json::array(), front = Json::array(), chips = Json::array();
    for (const SearchPoint& p : found.top) topj.push_back(point_with_summary(base, p, SearchKind::training));
    for (const SearchPoint& p : found.front) front.push_back(point_json(p, SearchKind::training));
    for (int64_t c : space.chips.empty() ? std::vector<int64_t>{base.system.count} : space.chips) chips.push_back(c);
    return {{"ok", true},
            {"version", kVersion},
            {"search", spelling_of(kSearches, WorkloadKind::training)},
            {"chips", chips},
            {"rank", spelling_of(kTrainingRankNames, rank)},
            {"cost", found.priced ? "usd_per_step" : "chip_hours_per_step"},
            {"counts", counts_json(found.counts)},
            {"top", std::move(topj)},
            {"front", std::move(front)}};
}

Json serving_search(JsonReader& r) {
    const Scenario base = scenario_of(r, WorkloadKind::inference);
    if (base.disaggregated) {
        throw InputError("scenario.disaggregated", "the serving search lays out the pools itself; give the scenario "
                                                   "without them (and \"layouts\": \"disaggregated\" to search pools)");
    }
    ServingSpace space;
    space.max_chips = r.integer_or("chips", 1, limits::kMaxChips, 0);
    space.layouts = r.choice_or("layouts", kServingLayoutNames, ServingLayouts::aggregated);
    if (space.layouts != ServingLayouts::aggregated && base.workload.inference.mode != ServingMode::concurrency) {
        throw InputError("layouts", "disaggregated pools are modelled in the concurrency mode (a closed loop of "
                                    "clients): give scenario.workload.mode \"concurrency\"");
    }
    const int top = static_cast<int>(r.integer_or("top", 1, kMaxTop, 10));
    const double rate = r.number_or("request_rate", 1e-9, 1e12, 0);
    Slo slo;
    if (const Json* sv = r.optional_value("slo")) {
        JsonReader q(*sv, "slo");
        if (auto v = q.optional_number("ttft_ms", 1e-6, 1e9)) slo.ttft_s = *v / 1e3;
        if (auto v = q.optional_number("tpot_ms", 1e-6, 1e9)) slo.tpot_s = *v / 1e3;
        slo.tokens_per_s_per_user = q.optional_number("tokens_per_s_per_user", 1e-9, 1e9);
        q.finish();
    }
    if (const Json* sp = r.optional_value("space")) {
        JsonReader q(*sp, "space");
        space.tp = integers(q, "tp", 1, limits::kMaxHeads);
        space.pp = integers(q, "pp", 1, limits::kMaxLayers);
        space.dp = integers(q, "dp", 1, limits::kMaxChips);
        space.ep = integers(q, "ep", 1, limits::kMaxChips);
        space.moe_tp = integers(q, "moe_tp", 1, limits::kMaxHeads);
        space.prefill_tp = integers(q, "prefill_tp", 1, limits::kMaxHeads);
        space.decode_tp = integers(q, "decode_tp", 1, limits::kMaxHeads);
        space.decode_dp = integers(q, "decode_dp", 1, limits::kMaxChips);
        space.batch = integers(q, "batch", 1, limits::kMaxBatch);
        space.batch_points = static_cast<int>(q.integer_or("batch_points", 2, 64, 12));
        space.weights = precisions(q, "weights");
        space.kv_cache = precisions(q, "kv_cache");
        q.finish();
    }
    r.finish();
    const ServingSearch found = search_serving(base, space, slo, rate, top);
    Json topj = Json::array(), front = Json::array();
    for (const SearchPoint& p : found.top) topj.push_back(point_with_summary(base, p, SearchKind::serving));
    for (const SearchPoint& p : found.front) front.push_back(point_json(p, SearchKind::serving));
    Json fewest = nullptr;
    if (found.fewest_chips) {
        fewest = {{"copies", found.fewest_chips->copies},
                  {"chips", found.fewest_chips->chips},
                  {"point", point_json(found.fewest_chips->point, SearchKind::serving)}};
    }
    return {{"ok", true},
            {"version", kVersion},
            {"search", spelling_of(kSearches, WorkloadKind::inference)},
            {"chips", space.max_chips > 0 ? space.max_chips : base.system.count},
            {"request_rate", rate > 0 ? Json(rate) : Json(nullptr)},
            {"counts", counts_json(found.counts)},
            {"best", found.best ? point_json(*found.best, SearchKind::serving) : Json(nullptr)},
            {"cheapest", found.cheapest ? point_json(*found.cheapest, SearchKind::serving) : Json(nullptr)},
            {"fewest_chips", fewest},
            {"top", std::move(topj)},
            {"front", std::move(front)}};
}

}  // namespace

Json search_document(const Json& request) {
    JsonReader r(request, "");
    return r.choice("search", kSearches) == WorkloadKind::training ? training_search(r) : serving_search(r);
}

}  // namespace envelope
