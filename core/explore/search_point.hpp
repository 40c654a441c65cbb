#pragma once
// One candidate of a configuration search (explore/training_search.hpp,
// explore/serving_search.hpp): the settings that make it, as scenario fields, and the numbers
// its evaluation (evaluate.hpp) gave. One shape for both searches; each fills its own part.
#include <cstdint>
#include <optional>

#include "workload/disaggregated.hpp"

#include "common/precision.hpp"
#include "workload/inference.hpp"
#include "parallel/parallelism.hpp"
#include "workload/training.hpp"

namespace envelope {

enum class SearchKind { training, serving };

struct SearchPoint {
    // The settings: the scenario's parallelism, and the workload fields the search moves.
    Parallelism parallelism;
    int64_t micro_batch = 1;                    // training: workload.micro_batch
    Recompute recompute = Recompute::none;      // training: workload.recompute
    int64_t batch = 1;                          // serving: workload.batch (the concurrency per replica)
    PrecisionPlan precision;                    // serving: workload.precision (the search moves
                                                // weights and kv_cache; the rest is the scenario's)

    // serving, disaggregated: the two pools (parallelism is then unused); batch holds the
    // deployment's clients
    std::optional<Disaggregated> pools;

    int64_t chips = 1;             // chips one copy of the configuration uses
    double memory_bytes = 0;       // per chip, the stage that needs the most

    // training
    double step_time_s = 0;
    double mfu = 0;
    double tokens_per_s = 0;
    std::optional<double> usd_per_step;   // where the cost inputs give a price
    double chip_hours_per_step = 0;       // step_time_s · chips / 3600

    // serving (the closed loop at `batch` clients per replica, or the scenario's mode)
    double output_tokens_per_s_per_chip = 0;
    double output_tokens_per_s_per_user = 0;   // 1 / TPOT; 0 when one token is generated
    double ttft_s = 0;
    double tpot_s = 0;
    double requests_per_s = 0;                 // one copy: output tokens/s ÷ output tokens
    std::optional<double> usd_per_m_output_tokens;
    bool meets_slo = true;
};

}  // namespace envelope
