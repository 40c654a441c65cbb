#pragma once
// JSON spellings of the core's enums.
#include "model/model.hpp"
#include "network/collective_kind.hpp"
#include "network/network.hpp"
#include "parallel/parallelism.hpp"
#include "result.hpp"
#include "workload/training.hpp"

namespace envelope {

const char* to_string(NormKind k);
const char* to_string(Topology t);
const char* to_string(CollectiveKind k);
const char* to_string(PipelineSchedule s);
const char* to_string(Recompute r);
const char* to_string(OffloadTarget t);
const char* to_string(OpClass c);
const char* to_string(Bound b);
const char* to_string(LoraTarget t);  // the first of its spellings in kLoraTargetNames

}  // namespace envelope
