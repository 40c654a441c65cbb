#pragma once
// What the chips are asked to do: serve (inference) or learn (training).
#include "workload/inference.hpp"
#include "workload/training.hpp"

namespace envelope {

enum class WorkloadKind { inference, training };

struct Workload {
    WorkloadKind kind = WorkloadKind::inference;
    InferenceWorkload inference;  // kind == inference
    TrainingWorkload training;    // kind == training
};

}  // namespace envelope
