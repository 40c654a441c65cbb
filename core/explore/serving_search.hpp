#pragma once
// Serving search (issue 20): the aggregated layouts of one inference workload on up to a
// number of chips, each at a range of concurrencies and formats, evaluated by the one
// inference evaluation (evaluate.hpp). Out: the Pareto front of output tokens/s per chip
// against tokens/s per user, the best configuration under an SLO by throughput per chip (and
// by $ per million output tokens where priced), and the fewest chips that serve a request rate.
//
// Space: TP × PP × attention-DP (DP ranks, for a mixture of experts: the experts spread over
// EP of them) × EP × MoE-TP, × weight format × KV-cache format, × the batch (concurrency per
// replica) from 1 to the largest the KV cache admits (inference/max_batch.hpp). Pruning
// (METHODOLOGY §38.3): the scenario checks and that largest batch; nothing that fits is dropped.
#include <cstdint>
#include <optional>
#include <vector>

#include "common/spelling.hpp"
#include "explore/search_counts.hpp"
#include "explore/search_point.hpp"
#include "scenario.hpp"

namespace envelope {

// Which serving layouts to search: one engine per replica, separate prefill and decode pools
// (the concurrency mode only), or both.
enum class ServingLayouts { aggregated, disaggregated, both };
inline constexpr Spelling<ServingLayouts> kServingLayoutNames[] = {{ServingLayouts::aggregated, "aggregated"},
                                                                   {ServingLayouts::disaggregated, "disaggregated"},
                                                                   {ServingLayouts::both, "both"}};

struct ServingSpace {
    int64_t max_chips = 0;                 // 0: the scenario's system count
    ServingLayouts layouts = ServingLayouts::aggregated;
    // disaggregated: the prefill worker's TP, the decode worker's TP and attention-DP ranks
    // (a mixture of experts; EP from `ep`); workers of each pool from 1 up to the chips
    std::vector<int64_t> prefill_tp, decode_tp, decode_dp;
    std::vector<int64_t> tp, pp, dp, ep, moe_tp;   // empty: defaults (METHODOLOGY §38.3)
    std::vector<int64_t> batch;            // empty: `batch_points` geometric values up to the largest that fits
    int batch_points = 12;
    std::vector<Precision> weights, kv_cache;  // empty: the scenario's
};

// Service-level objective; each limit unset is no limit. The model gives means (TTFT, TPOT
// of the mean request), so the limits apply to means.
struct Slo {
    std::optional<double> ttft_s;
    std::optional<double> tpot_s;
    std::optional<double> tokens_per_s_per_user;   // at least
};

struct FewestChips {
    SearchPoint point;
    int64_t copies = 1;     // of the point's configuration
    int64_t chips = 1;      // copies · point.chips
};

struct ServingSearch {
    std::vector<SearchPoint> front;          // non-dominated (per chip, per user), per user descending
    std::vector<SearchPoint> top;            // under the SLO, by output tokens/s per chip
    std::optional<SearchPoint> best;         // top[0]
    std::optional<SearchPoint> cheapest;     // under the SLO, by USD per million output tokens (priced only)
    std::optional<FewestChips> fewest_chips; // for the request rate, when given
    SearchCounts counts;
};

// Precondition: base is an inference scenario that parses, aggregated (no disaggregated
// pools); disaggregated layouts need its concurrency mode. request_rate: requests per second to serve, 0: not asked.
ServingSearch search_serving(const Scenario& base, const ServingSpace& space, const Slo& slo, double request_rate,
                             int top);

bool meets(const Slo& slo, const SearchPoint& p);

}  // namespace envelope
