#pragma once
// The scenario's "cost" block and the result's "cost" section (core/SCHEMA.md § Cost).
#include <string>

#include "cost/inputs.hpp"
#include "cost/package.hpp"
#include "cost/report.hpp"
#include "hardware/system.hpp"
#include "io/json.hpp"

namespace envelope {

// `block` may be null (no cost block): every input then takes its documented default
// (cost/resolve.hpp), each listed in the result's assumptions. Throws InputError naming the field.
CostInputs parse_cost(const Json* block, const System& system, const std::string& path);

// An accelerator package description (cost.package, or the package-cost entry point).
PackageSpec parse_package(const Json& value, const std::string& path);

// A process node: a presets/costs/process-nodes.json id, or {"wafer_usd",
// "defect_density_per_cm2", "critical_level"?, "nre_usd"?}; `nre_usd` gets the node's NRE
// of a 300 mm² design (0 when not known). `base` gives the wafer's geometry and yield model.
Wafer read_node(const Json& v, const std::string& path, const Wafer& base, double& nre_usd);

Json to_json(const CostInputs& c);
Json to_json(const CostReport& c);
Json to_json(const PackageCost& c);

}  // namespace envelope
