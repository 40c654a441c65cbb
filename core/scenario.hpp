#pragma once
// Everything one evaluation needs, with presets already resolved: a model on a system,
// a workload, the parallel mapping, and the software that runs it.
#include <optional>
#include <string>

#include "cost/inputs.hpp"
#include "engine/engine.hpp"
#include "hardware/system.hpp"
#include "model/model.hpp"
#include "parallel/parallelism.hpp"
#include "training/framework.hpp"
#include "workload/disaggregated.hpp"
#include "workload/workload.hpp"

namespace envelope {

struct Scenario {
    std::string name;         // optional labels, echoed in results
    std::string description;
    Model model;
    System system;
    Workload workload;
    Parallelism parallelism;
    // Inference served by separate prefill and decode pools, each with its own layout
    // (parallelism is then unused: its default); none: aggregated serving.
    std::optional<Disaggregated> disaggregated;
    Engine engine;            // the serving software (preset "default" when not given)
    Framework framework;      // the training software (preset "current" when not given)
    CostInputs cost;          // prices and power, defaults resolved (io/cost_json.cpp)
};

}  // namespace envelope
