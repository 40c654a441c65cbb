#pragma once
// Everything one evaluation needs, with presets already resolved.
#include <string>

#include "engine/engine.hpp"
#include "hardware/system.hpp"
#include "model/model.hpp"
#include "workload/inference.hpp"

namespace envelope {

struct Scenario {
    std::string name;         // optional labels, echoed in results
    std::string description;
    Model model;
    System system;
    InferenceWorkload workload;
    Engine engine;            // the serving software (preset "default" when not given)
};

}  // namespace envelope
