#pragma once
// Small helpers the searches share to build their default lists.
#include <cstdint>
#include <vector>

#include "model/model.hpp"

namespace envelope {

// Divisors of n in [1, cap], ascending.
std::vector<int64_t> divisors_up_to(int64_t n, int64_t cap);

// The experts of the model's widest mixture of experts; 0 for a dense model.
int64_t model_experts(const Model& m);

// The largest query-head count of the model's attention layers (TP splits heads).
int64_t model_heads(const Model& m);

}  // namespace envelope
