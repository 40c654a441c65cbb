#pragma once
// Everything one evaluation needs, with presets already resolved.
#include <string>

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
};

}  // namespace envelope
