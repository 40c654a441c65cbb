#pragma once
// The one JSON schema for scenarios: parse (with validation) and write back.
//
// A scenario is {"model": M, "system": S, "workload": W, "parallelism": P} plus optional
// "engine", "framework" (training), "name" and "description". M and S (and a system's "chip") are each a preset key ("llama-2-70b"),
// an inline object, or an object with "preset" plus fields that override the preset's.
// Every field, its unit, range and default is listed in core/SCHEMA.md.
#include <optional>

#include "io/json.hpp"
#include "io/json_parse.hpp"
#include "scenario.hpp"

namespace envelope {

// Parse and validate a whole scenario, resolving presets. Throws InputError naming the
// field. Whether the parts fit together is evaluate.hpp's check_scenario.
Scenario parse_scenario(const Json& doc);

Model parse_model(const Json& value, const std::string& path);
Chip parse_chip(const Json& value, const std::string& path);
System parse_system(const Json& value, const std::string& path);
// `legacy`: where to put a parallelism given inside the workload (the schema before the
// mapping moved to the top level); nullptr: reject it.
Workload parse_workload(const Json& value, const std::string& path, std::optional<Parallelism>* legacy);
// dp = 0 when not given (the scenario fills the system with replicas).
Parallelism parse_parallelism(const Json& value, const std::string& path);
Engine parse_engine(const Json& value, const std::string& path);
Framework parse_framework(const Json& value, const std::string& path);

// The resolved scenario as JSON: every default filled in, presets expanded. Parsing
// the output again gives the same scenario.
Json to_json(const Scenario& s);
Json to_json(const Model& m);
Json to_json(const Chip& c);
Json to_json(const System& s);
Json to_json(const Workload& w);
Json to_json(const Peft& p);
Json to_json(const Parallelism& p);
Json to_json(const NetworkLevel& l);
Json to_json(const Engine& e);
Json to_json(const Framework& f);

}  // namespace envelope
