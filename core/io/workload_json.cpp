#include "io/scenario_json.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/error.hpp"
#include "io/json_reader.hpp"
#include "io/names.hpp"
#include "io/preset_ref.hpp"
#include "io/schema_limits.hpp"

namespace envelope {

using namespace limits;

namespace {

PrecisionPlan read_precision_plan(JsonReader& r) {
    PrecisionPlan plan;
    const Json& prec = r.value("precision");
    if (prec.is_string()) {
        // Shorthand: one format for weights, KV cache and activations.
        plan.weights = read_precision(prec, r.path_of("precision"));
        plan.kv_cache = plan.activations = plan.weights;
        plan.residual = default_residual(plan.activations);
        return plan;
    }
    JsonReader pr(prec, r.path_of("precision"));
    plan.weights = read_precision(pr.value("weights"), pr.path_of("weights"));
    plan.kv_cache = read_precision(pr.value("kv_cache"), pr.path_of("kv_cache"));
    plan.activations = read_precision(pr.value("activations"), pr.path_of("activations"));
    plan.residual = pr.has("residual") ? read_precision(pr.value("residual"), pr.path_of("residual"))
                                       : default_residual(plan.activations);
    pr.finish();
    return plan;
}

Speculative read_speculative(JsonReader& r) {
    Speculative sp;
    const Json* v = r.optional_value("speculative");
    if (!v) return sp;
    JsonReader sr(*v, r.path_of("speculative"));
    sp.draft_tokens = sr.integer("draft_tokens", 1, 64);
    sp.acceptance = sr.number("acceptance_rate", 0, 1);
    if (const Json* draft = sr.optional_value("draft_model")) {
        sp.draft = std::make_shared<const Model>(parse_model(*draft, sr.path_of("draft_model")));
    }
    sr.finish();
    return sp;
}

// input_tokens / output_tokens: an integer, or a mean (inference/lengths.hpp) that needs not
// be one; length_distribution says how the lengths spread around it.
void read_lengths(JsonReader& r, InferenceWorkload& w) {
    const double input = r.number("input_tokens", 1, kMaxTokens);
    const double output = r.number("output_tokens", 1, kMaxTokens);
    RequestLengths& l = w.lengths;
    if (const Json* d = r.optional_value("length_distribution")) {
        JsonReader dr(*d, r.path_of("length_distribution"));
        if (dr.choice("kind", {"fixed", "uniform"}) == 1) l.range_ratio = dr.number("range_ratio", 0, 1);
        dr.finish();
    }
    const bool varies = l.range_ratio < 1 || input != std::floor(input) || output != std::floor(output);
    if (varies) {
        l.input_mean = input;
        l.output_mean = output;
    }
    // The longest request, which memory is sized for.
    const auto longest = [&](double mean) {
        return static_cast<int64_t>(std::ceil(varies ? l.max_of(mean) - 1e-9 : mean));
    };
    w.input_tokens = std::clamp<int64_t>(longest(input), 1, kMaxTokens);
    w.output_tokens = std::clamp<int64_t>(longest(output), 1, kMaxTokens);
}

InferenceWorkload read_inference(JsonReader& r) {
    InferenceWorkload w;
    w.mode = r.choice_or("mode", kServingModeNames, ServingMode::static_batch);
    w.batch = r.integer("batch", 1, kMaxBatch);
    read_lengths(r, w);
    if (w.mode == ServingMode::server) w.request_rate = r.number("request_rate", 1e-9, 1e9);
    if (w.mode != ServingMode::static_batch) w.requests = r.integer_or("requests", 1, kMaxBatch, 0);
    w.precision = read_precision_plan(r);
    w.flash_attention = r.boolean_or("flash_attention", true);
    w.speculative = read_speculative(r);
    w.prefix_cache_hit = r.number_or("prefix_cache_hit", 0, 0.999999, 0);
    w.beams = r.integer_or("beams", 1, 64, 1);
    w.kv_offload = r.number_or("kv_offload", 0, 0.999999, 0);
    w.prefill_chunk = r.integer_or("prefill_chunk", 0, kMaxTokens, 0);
    return w;
}

Offload read_offload(JsonReader& r) {
    Offload o;
    const Json* v = r.optional_value("offload");
    if (!v) return o;
    JsonReader orr(*v, r.path_of("offload"));
    o.optimizer = orr.choice_or("optimizer", kOffloadTargetNames, OffloadTarget::none);
    o.parameters = orr.choice_or("parameters", kOffloadTargetNames, OffloadTarget::none);
    orr.finish();
    return o;
}

// workload.peft (workload/peft.hpp): the checks that need no model; the rank against the
// model's widths and the targets against its layers are training/check.cpp's.
Peft read_peft(JsonReader& r) {
    Peft p;
    const Json* v = r.optional_value("peft");
    if (!v) return p;
    JsonReader pr(*v, r.path_of("peft"));
    p.method = pr.choice("method", kPeftMethodNames);
    p.rank = pr.integer("rank", 1, kMaxAdapterRank);
    p.alpha = pr.number_or("alpha", 0, 1e6, 0);
    p.dropout = pr.number_or("dropout", 0, 0.99, 0);
    const Json& targets = pr.value("targets");
    const std::string tpath = pr.path_of("targets");
    std::string listed;
    for (const Spelling<LoraTarget>& n : kLoraTargetNames) listed += (listed.empty() ? "" : ", ") + std::string(n.name);
    if (!targets.is_array() || targets.empty()) {
        throw InputError(tpath, "must be a non-empty list of the matrices the adapters sit beside, from: " + listed);
    }
    for (std::size_t i = 0; i < targets.size(); ++i) {
        const std::string path = tpath + "[" + std::to_string(i) + "]";
        const LoraTarget t = read_spelling(targets[i], path, kLoraTargetNames);
        if (std::find(p.targets.begin(), p.targets.end(), t) != p.targets.end()) {
            throw InputError(path, "names a matrix already in the list (" + targets[i].get<std::string>() + ")");
        }
        p.targets.push_back(t);
    }
    const bool qlora = p.method == PeftMethod::qlora;
    p.base = pr.choice_or("base_precision", kBaseFormatNames, qlora ? BaseFormat::nf4 : BaseFormat::bf16);
    if (qlora != (p.base == BaseFormat::nf4)) {
        throw InputError(pr.path_of("base_precision"),
                         qlora ? "QLoRA's base is NF4: base_precision must be \"nf4\" (or absent)"
                               : "an NF4 base is QLoRA: set method to \"qlora\" (lora takes bf16, fp16, fp8 or fp4)");
    }
    if (pr.has("double_quantization")) {
        if (!qlora) throw InputError(pr.path_of("double_quantization"), "applies to QLoRA's NF4 base only (method \"qlora\")");
        p.double_quantization = pr.boolean("double_quantization");
    }
    pr.finish();
    return p;
}

TrainingWorkload read_training(JsonReader& r) {
    TrainingWorkload t;
    t.seq_len = r.integer("seq_len", 1, kMaxTokens);
    t.global_batch = r.integer("global_batch", 1, kMaxBatch);
    t.micro_batch = r.integer("micro_batch", 1, t.global_batch);
    t.recompute = r.choice_or("recompute", kRecomputeNames, Recompute::none);
    t.precision = read_precision(r.value("precision"), r.path_of("precision"));
    t.flash_attention = r.boolean_or("flash_attention", true);
    t.dropout = r.boolean_or("dropout", false);
    t.overlap_grad_reduce = r.boolean_or("overlap_grad_reduce", true);
    t.overlap_param_gather = r.boolean_or("overlap_param_gather", true);
    t.tp_comm_overlap = r.boolean_or("tp_comm_overlap", false);
    t.train_tokens = r.number_or("train_tokens", 0, 1e18, 0);
    t.offload = read_offload(r);
    t.peft = read_peft(r);
    return t;
}

}  // namespace

Workload parse_workload(const Json& value, const std::string& path, std::optional<Parallelism>* legacy) {
    JsonReader r(value, path);
    Workload w;
    w.kind = r.choice_or("kind", kWorkloadKindNames, WorkloadKind::inference);
    if (w.kind == WorkloadKind::training) {
        w.training = read_training(r);
    } else {
        w.inference = read_inference(r);
    }
    // Scenarios written before the mapping moved to the top level kept it here.
    if (const Json* par = r.optional_value("parallelism")) {
        if (legacy) *legacy = parse_parallelism(*par, r.path_of("parallelism"));
    }
    r.finish();
    return w;
}

// ---- writing ----

Json to_json(const Peft& p) {
    Json targets = Json::array();
    for (LoraTarget t : p.targets) targets.push_back(to_string(t));
    Json j{{"method", spelling_of(kPeftMethodNames, p.method)},
           {"rank", p.rank},
           {"targets", targets},
           {"base_precision", spelling_of(kBaseFormatNames, p.base)}};
    if (p.alpha > 0) j["alpha"] = p.alpha;
    if (p.dropout > 0) j["dropout"] = p.dropout;
    if (p.method == PeftMethod::qlora) j["double_quantization"] = p.double_quantization;
    return j;
}

Json to_json(const Workload& w) {
    if (w.kind == WorkloadKind::training) {
        const TrainingWorkload& t = w.training;
        Json j{{"kind", to_string(WorkloadKind::training)},
                    {"seq_len", t.seq_len},
                    {"global_batch", t.global_batch},
                    {"micro_batch", t.micro_batch},
                    {"recompute", to_string(t.recompute)},
                    {"precision", std::string(to_string(t.precision))},
                    {"flash_attention", t.flash_attention},
                    {"dropout", t.dropout},
                    {"overlap_grad_reduce", t.overlap_grad_reduce},
                    {"overlap_param_gather", t.overlap_param_gather},
                    {"tp_comm_overlap", t.tp_comm_overlap},
                    {"offload",
                     {{"optimizer", to_string(t.offload.optimizer)}, {"parameters", to_string(t.offload.parameters)}}},
                    {"train_tokens", t.train_tokens}};
        if (t.peft.on()) j["peft"] = to_json(t.peft);
        return j;
    }
    const InferenceWorkload& i = w.inference;
    Json j{{"kind", to_string(WorkloadKind::inference)},
           {"mode", to_string(i.mode)},
                {"batch", i.batch},
                {"input_tokens", i.lengths.on() ? Json(i.lengths.input_mean) : Json(i.input_tokens)},
                {"output_tokens", i.lengths.on() ? Json(i.lengths.output_mean) : Json(i.output_tokens)},
                {"precision",
                 {{"weights", std::string(to_string(i.precision.weights))},
                  {"kv_cache", std::string(to_string(i.precision.kv_cache))},
                  {"activations", std::string(to_string(i.precision.activations))},
                  {"residual", std::string(to_string(i.precision.residual))}}},
                {"flash_attention", i.flash_attention}};
    if (i.prefix_cache_hit > 0) j["prefix_cache_hit"] = i.prefix_cache_hit;
    if (i.beams > 1) j["beams"] = i.beams;
    if (i.kv_offload > 0) j["kv_offload"] = i.kv_offload;
    if (i.prefill_chunk > 0) j["prefill_chunk"] = i.prefill_chunk;
    if (i.lengths.range_ratio < 1) j["length_distribution"] = {{"kind", "uniform"}, {"range_ratio", i.lengths.range_ratio}};
    if (i.mode == ServingMode::server) j["request_rate"] = i.request_rate;
    if (i.mode != ServingMode::static_batch && i.requests > 0) j["requests"] = i.requests;
    if (i.speculative.on()) {
        j["speculative"] = {{"draft_tokens", i.speculative.draft_tokens}, {"acceptance_rate", i.speculative.acceptance}};
        if (i.speculative.draft) j["speculative"]["draft_model"] = to_json(*i.speculative.draft);
    }
    return j;
}

}  // namespace envelope
