#include <string>

#include "common/error.hpp"
#include "io/json_reader.hpp"
#include "io/names.hpp"
#include "io/scenario_json.hpp"
#include "io/schema_limits.hpp"

namespace envelope {

using namespace limits;

namespace {

std::array<ParallelDim, kOrderedDims> read_order(const Json& v, const std::string& path) {
    if (!v.is_array() || v.size() != kOrderedDims) {
        throw InputError(path, "must list the five dimensions \"tp\", \"cp\", \"ep\", \"dp\", \"pp\" once each, "
                               "innermost first");
    }
    std::array<ParallelDim, kOrderedDims> order{};
    std::array<bool, kOrderedDims> seen{};
    const auto ordered = accepted_spellings(  // every dimension but etp, which `order` does not place
        kParallelDimNames, {ParallelDim::tp, ParallelDim::cp, ParallelDim::ep, ParallelDim::dp, ParallelDim::pp});
    for (std::size_t i = 0; i < kOrderedDims; ++i) {
        const std::string ip = path + "[" + std::to_string(i) + "]";
        const auto d = static_cast<std::size_t>(read_choice(v[i], ip, spelling_names(ordered)));
        if (seen[d]) throw InputError(ip, std::string("repeats \"") + ordered[d].name + "\"");
        seen[d] = true;
        order[i] = ordered[d].value;
    }
    return order;
}

}  // namespace

Parallelism parse_parallelism(const Json& value, const std::string& path) {
    JsonReader r(value, path);
    Parallelism p;
    p.tp = r.integer_or("tp", 1, kMaxHeads, 1);
    p.sp = r.boolean_or("sp", false);
    p.cp = r.integer_or("cp", 1, kMaxChips, 1);
    p.ep = r.integer_or("ep", 1, kMaxChips, 1);
    p.moe_tp = r.integer_or("moe_tp", 1, kMaxHeads, 0);  // 0: not given (parallel/expert_layout.hpp)
    p.dp = r.integer_or("dp", 1, kMaxChips, 0);  // 0: not given (parse_scenario fills the system)
    p.pp = r.integer_or("pp", 1, kMaxLayers, 1);
    p.virtual_stages = r.integer_or("virtual_stages", 1, kMaxLayers, 1);
    p.micro_batches = r.integer_or("micro_batches", 0, kMaxBatch, 0);
    p.schedule = r.choice_or("schedule", kPipelineScheduleNames, PipelineSchedule::one_f_one_b);
    p.zero = static_cast<int>(r.integer_or("zero", 0, 3, 0));
    if (const Json* order = r.optional_value("order")) p.order = read_order(*order, r.path_of("order"));
    if (const Json* stages = r.optional_value("stage_layers")) {
        const std::string sp = r.path_of("stage_layers");
        if (!stages->is_array() || stages->empty()) throw InputError(sp, "must be an array of layers per stage");
        if (stages->size() > static_cast<std::size_t>(kMaxLayers)) {
            throw InputError(sp, "has more than " + std::to_string(kMaxLayers) + " stages");
        }
        for (std::size_t i = 0; i < stages->size(); ++i) {
            p.stage_layers.push_back(read_integer((*stages)[i], sp + "[" + std::to_string(i) + "]", 1, kMaxLayers));
        }
    }
    r.finish();
    return p;
}

Json to_json(const Parallelism& p) {
    Json order = Json::array();
    for (ParallelDim d : p.order) order.push_back(to_string(d));
    Json j = {{"tp", p.tp}, {"sp", p.sp}, {"cp", p.cp}, {"ep", p.ep}, {"dp", p.dp}, {"pp", p.pp}};
    if (p.moe_tp > 0) j["moe_tp"] = p.moe_tp;  // echoed only when given
    j["virtual_stages"] = p.virtual_stages;
    j["micro_batches"] = p.micro_batches;
    j["schedule"] = to_string(p.schedule);
    j["zero"] = p.zero;
    j["order"] = std::move(order);
    if (!p.stage_layers.empty()) j["stage_layers"] = p.stage_layers;
    return j;
}

}  // namespace envelope
