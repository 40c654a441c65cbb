#pragma once
// JSON spellings of the core's enums: one table each (common/spelling.hpp), read by the JSON
// readers and written by to_string. Enums of one domain keep their table beside them
// (workload/peft.hpp, explore/trade_off.hpp, explore/, explore/sweep.hpp).
#include "common/spelling.hpp"
#include "model/model.hpp"
#include "network/collective.hpp"
#include "network/collective_kind.hpp"
#include "network/network.hpp"
#include "parallel/parallelism.hpp"
#include "result.hpp"
#include "workload/inference.hpp"
#include "workload/peft.hpp"
#include "workload/training.hpp"
#include "workload/workload.hpp"

namespace envelope {

inline constexpr Spelling<NormKind> kNormKindNames[] = {{NormKind::rmsnorm, "rmsnorm"},
                                                        {NormKind::layernorm, "layernorm"}};

inline constexpr Spelling<Topology> kTopologyNames[] = {
    {Topology::switch_, "switch"}, {Topology::fully_connected, "fully_connected"},
    {Topology::ring, "ring"},      {Topology::torus, "torus"},
    {Topology::fat_tree, "fat_tree"}, {Topology::dragonfly, "dragonfly"},
};

inline constexpr Spelling<CollectiveKind> kCollectiveKindNames[] = {
    {CollectiveKind::none, "none"},
    {CollectiveKind::all_reduce, "all_reduce"},
    {CollectiveKind::all_gather, "all_gather"},
    {CollectiveKind::reduce_scatter, "reduce_scatter"},
    {CollectiveKind::all_to_all, "all_to_all"},
    {CollectiveKind::broadcast, "broadcast"},
    {CollectiveKind::send_recv, "send_recv"},
};

// The algorithm a collective request may force (`envelope collective`'s "algorithm").
inline constexpr Spelling<CollectiveOptions::Force> kCollectiveForceNames[] = {
    {CollectiveOptions::Force::none, "auto"},
    {CollectiveOptions::Force::ring, "ring"},
    {CollectiveOptions::Force::in_network, "in_network"}};

inline constexpr Spelling<PipelineSchedule> kPipelineScheduleNames[] = {
    {PipelineSchedule::gpipe, "gpipe"},
    {PipelineSchedule::one_f_one_b, "1f1b"},
    {PipelineSchedule::interleaved_1f1b, "interleaved_1f1b"},
    {PipelineSchedule::zero_bubble, "zb_h1"},
};

inline constexpr Spelling<Recompute> kRecomputeNames[] = {
    {Recompute::none, "none"}, {Recompute::selective, "selective"}, {Recompute::full, "full"}};

inline constexpr Spelling<OffloadTarget> kOffloadTargetNames[] = {
    {OffloadTarget::none, "none"}, {OffloadTarget::cpu, "cpu"}, {OffloadTarget::nvme, "nvme"}};

inline constexpr Spelling<WorkloadKind> kWorkloadKindNames[] = {{WorkloadKind::inference, "inference"},
                                                                {WorkloadKind::training, "training"}};

inline constexpr Spelling<ServingMode> kServingModeNames[] = {
    {ServingMode::static_batch, "static"}, {ServingMode::concurrency, "concurrency"}, {ServingMode::server, "server"}};

inline constexpr Spelling<OpClass> kOpClassNames[] = {
    {OpClass::matmul, "matmul"}, {OpClass::attention, "attention"},   {OpClass::vector, "vector"},
    {OpClass::lookup, "lookup"}, {OpClass::collective, "collective"}, {OpClass::host, "host"},
};

inline constexpr Spelling<Bound> kBoundNames[] = {
    {Bound::compute, "compute"}, {Bound::memory, "memory"}, {Bound::network, "network"}, {Bound::overhead, "overhead"}};

inline const char* to_string(NormKind k) { return spelling_of(kNormKindNames, k); }
inline const char* to_string(Topology t) { return spelling_of(kTopologyNames, t); }
inline const char* to_string(CollectiveKind k) { return spelling_of(kCollectiveKindNames, k); }
inline const char* to_string(CollectiveOptions::Force f) { return spelling_of(kCollectiveForceNames, f); }
inline const char* to_string(PipelineSchedule s) { return spelling_of(kPipelineScheduleNames, s); }
inline const char* to_string(Recompute r) { return spelling_of(kRecomputeNames, r); }
inline const char* to_string(OffloadTarget t) { return spelling_of(kOffloadTargetNames, t); }
inline const char* to_string(WorkloadKind k) { return spelling_of(kWorkloadKindNames, k); }
inline const char* to_string(ServingMode m) { return spelling_of(kServingModeNames, m); }
inline const char* to_string(OpClass c) { return spelling_of(kOpClassNames, c); }
inline const char* to_string(Bound b) { return spelling_of(kBoundNames, b); }
inline const char* to_string(LoraTarget t) { return spelling_of(kLoraTargetNames, t); }  // the first of its names

}  // namespace envelope
