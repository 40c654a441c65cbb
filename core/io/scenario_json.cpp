#include "io/scenario_json.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "io/cost_json.hpp"
#include "io/disaggregated_json.hpp"
#include "io/json_reader.hpp"

namespace envelope {

Scenario parse_scenario(const Json& doc) {
    JsonReader r(doc, "");
    Scenario s;
    s.name = r.string_or("name", "");
    s.description = r.string_or("description", "");
    s.model = parse_model(r.value("model"), "model");
    s.system = parse_system(r.value("system"), "system");
    std::optional<Parallelism> legacy;
    s.workload = parse_workload(r.value("workload"), "workload", &legacy);
    if (const Json* dis = r.optional_value("disaggregated")) {
        // Each pool gives its workers' layout; the scenario's own mapping stays unused.
        if (legacy || r.has("parallelism")) {
            throw InputError("parallelism", "a disaggregated scenario gives each pool's layout in "
                                            "disaggregated.prefill / decode.parallelism, not a top-level one");
        }
        s.disaggregated = parse_disaggregated(*dis, "disaggregated");
    } else if (const Json* par = r.optional_value("parallelism")) {
        if (legacy) {
            throw InputError("workload.parallelism", "give the mapping once, as the top-level parallelism");
        }
        s.parallelism = parse_parallelism(*par, "parallelism");
    } else if (legacy) {
        s.parallelism = *legacy;
    } else {
        s.parallelism.dp = 0;
    }
    if (s.parallelism.dp == 0) {
        // Not given: as many replicas as the system holds (at least one).
        s.parallelism.dp = std::max<int64_t>(1, s.system.count / s.parallelism.chips_per_replica());
    }
    s.engine = parse_engine(r.has("engine") ? r.value("engine") : Json("default"), "engine");
    s.framework = parse_framework(r.has("framework") ? r.value("framework") : Json("current"), "framework");
    s.cost = parse_cost(r.optional_value("cost"), s.system, "cost");
    r.finish();
    return s;
}

// ---- writing ----

Json to_json(const Scenario& s) {
    Json j = Json::object();
    if (!s.name.empty()) j["name"] = s.name;
    if (!s.description.empty()) j["description"] = s.description;
    j["model"] = to_json(s.model);
    j["system"] = to_json(s.system);
    j["workload"] = to_json(s.workload);
    if (s.disaggregated) {
        j["disaggregated"] = to_json(*s.disaggregated);
    } else {
        j["parallelism"] = to_json(s.parallelism);
    }
    j["engine"] = to_json(s.engine);
    if (s.workload.kind == WorkloadKind::training) j["framework"] = to_json(s.framework);
    j["cost"] = to_json(s.cost);
    return j;
}

}  // namespace envelope
