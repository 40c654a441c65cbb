#pragma once
// The disaggregated half of the serving search (explore/serving_search.hpp): a prefill pool
// and a decode pool (workload/disaggregated.hpp) of workers on the same chips, each pool's
// worker layout and worker count, and the clients of the closed loop; each candidate the
// scenario's own disaggregated evaluation (inference/disaggregated.hpp). METHODOLOGY §38.3.
#include <vector>

#include "explore/search_counts.hpp"
#include "explore/search_point.hpp"
#include "explore/serving_search.hpp"
#include "scenario.hpp"

namespace envelope {

// Appends every fitting candidate to `found` and counts the space in `counts`. Precondition:
// base is an inference scenario in the concurrency mode without pools of its own.
void search_disaggregated(const Scenario& base, const ServingSpace& space, const Slo& slo, int64_t max_chips,
                          std::vector<SearchPoint>& found, SearchCounts& counts);

// The number of candidates search_disaggregated enumerates.
int64_t disaggregated_space_size(const Scenario& base, const ServingSpace& space, int64_t max_chips);

}  // namespace envelope
