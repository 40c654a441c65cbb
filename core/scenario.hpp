#pragma once
// Everything one evaluation needs, with presets already resolved.
#include "hardware/system.hpp"
#include "model/model.hpp"
#include "workload/inference.hpp"

namespace envelope {

struct Scenario {
    Model model;
    System system;
    InferenceWorkload workload;
};

}  // namespace envelope
