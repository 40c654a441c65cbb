#include "io/scenario_json.hpp"

#include "inference/check.hpp"
#include "io/json_reader.hpp"

namespace envelope {

Scenario parse_scenario(const Json& doc) {
    JsonReader r(doc, "");
    Scenario s;
    s.name = r.string_or("name", "");
    s.description = r.string_or("description", "");
    s.model = parse_model(r.value("model"), "model");
    s.system = parse_system(r.value("system"), "system");
    s.workload = parse_workload(r.value("workload"), "workload");
    s.engine = parse_engine(r.has("engine") ? r.value("engine") : Json("default"), "engine");
    r.finish();
    check_inference(s);
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
    j["engine"] = to_json(s.engine);
    return j;
}

}  // namespace envelope
