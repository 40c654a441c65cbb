#pragma once
// Training search (issue 20): the layouts of one training workload over the chips given, each
// evaluated by the one training evaluation (evaluate.hpp), ranked by step time, MFU or cost.
//
// The space, per chip count C: every TP × CP × PP × EP with TP · CP · PP dividing C (DP the
// rest, so that every chip works), × sequence parallelism (tp > 1) × ZeRO stage × virtual
// stages × pipeline schedule × recomputation × micro-batch. Pruning (METHODOLOGY §38.2): the
// scenario checks (divisibility, the batch split), a lower bound on each layout's memory (its
// model state, which no inner choice changes) and each candidate's own memory; GPipe is
// dropped as never faster than 1F1B at no less memory. Nothing that fits is dropped.
#include <cstdint>
#include <vector>

#include "common/spelling.hpp"
#include "explore/search_counts.hpp"
#include "explore/search_point.hpp"
#include "scenario.hpp"

namespace envelope {

// Lists to search; an empty list takes its default (METHODOLOGY §38.1).
struct TrainingSpace {
    std::vector<int64_t> chips;            // chip counts; empty: the scenario's system count
    std::vector<int64_t> tp, cp, pp, ep;   // degrees; each must divide what it splits
    std::vector<int> sp;                   // 0 / 1
    std::vector<int64_t> micro_batch;
    std::vector<int64_t> virtual_stages;
    std::vector<PipelineSchedule> schedule;
    std::vector<Recompute> recompute;
    std::vector<int> zero;
};

enum class TrainingRank { step_time, mfu, cost };
inline constexpr Spelling<TrainingRank> kTrainingRankNames[] = {
    {TrainingRank::step_time, "step_time"}, {TrainingRank::mfu, "mfu"}, {TrainingRank::cost, "cost"}};

struct TrainingSearch {
    std::vector<SearchPoint> top;    // the best `top` by the rank, best first
    std::vector<SearchPoint> front;  // non-dominated in (step time, cost), over every chip count
    SearchCounts counts;
    bool priced = false;             // cost is USD per step; else chip-hours per step
};

// Precondition: base is a training scenario that parses (its own parallelism is replaced).
// Throws InputError (path "space...") for a space with no candidate at all.
TrainingSearch search_training(const Scenario& base, const TrainingSpace& space, TrainingRank rank, int top);

// The scenario a point describes: base with the point's settings.
Scenario apply_point(const Scenario& base, const SearchPoint& p, SearchKind kind);

}  // namespace envelope
