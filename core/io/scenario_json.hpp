#pragma once
// The one JSON schema for scenarios: parse (with validation) and write back.
//
// A scenario is {"model": M, "system": S, "workload": W} plus optional "name" and
// "description". M and S (and a system's "chip") are each a preset key ("llama-2-70b"),
// an inline object, or an object with "preset" plus fields that override the preset's.
// Every field, its unit, range and default is listed in core/SCHEMA.md.
#include "io/json.hpp"
#include "io/json_parse.hpp"
#include "scenario.hpp"

namespace envelope {

// Parse and validate a whole scenario, resolving presets and checking that the parts
// fit together (inference/check.hpp). Throws InputError naming the field.
Scenario parse_scenario(const Json& doc);

Model parse_model(const Json& value, const std::string& path);
Chip parse_chip(const Json& value, const std::string& path);
System parse_system(const Json& value, const std::string& path);
InferenceWorkload parse_workload(const Json& value, const std::string& path);
Engine parse_engine(const Json& value, const std::string& path);

// The resolved scenario as JSON: every default filled in, presets expanded. Parsing
// the output again gives the same scenario.
Json to_json(const Scenario& s);
Json to_json(const Model& m);
Json to_json(const Chip& c);
Json to_json(const System& s);
Json to_json(const InferenceWorkload& w);
Json to_json(const Engine& e);

}  // namespace envelope
