#pragma once
// When a training step does not fit in the chips' memory: the smallest single change that
// makes every pipeline stage fit, tried in the order of what it costs in step time — a higher
// ZeRO stage (more communication), recomputation (more compute), a smaller micro-batch
// (smaller GEMMs), twice the pipeline or tensor parallelism on the same chips (fewer
// replicas), offloading the optimizer to the host.
#include <optional>
#include <string>
#include <vector>

#include "memory/training_memory.hpp"
#include "scenario.hpp"

namespace envelope {

// nullopt when the scenario already fits, or when no single change makes it fit.
std::optional<FitAdvice> fit_advice(const Scenario& s);

// Peak memory per chip over the pipeline stages, and whether every stage fits on the chip
// and in the host's memory.
struct PeakMemory {
    double bytes = 0;
    bool fits = true;
};
PeakMemory peak_training_memory(const Scenario& s);

}  // namespace envelope
