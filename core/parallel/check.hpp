#pragma once
// A parallel mapping that cannot run on this model and system, reported as InputError
// with the path of the field to change ("parallelism.tp", ...).
#include "hardware/system.hpp"
#include "model/model.hpp"
#include "parallel/parallelism.hpp"

namespace envelope {

// Throws for: TP not dividing some layer's query heads, or TP and its KV heads where
// neither divides the other; EP not dividing a mixture's experts, or EP > 1 without a
// mixture of experts; a folded expert layout (parallel/expert_layout.hpp) whose ep · moe_tp
// does not divide tp · cp · dp, is less than tp or not a multiple of it, or whose moe_tp
// and tp do not divide one another; moe_tp > 1 without a mixture; more chips than the system has
// (tp · cp · dp · pp > count); more stages than layers; stage_layers that do not give
// each of the pp stages at least one layer or do not add up to the model's layers.
void check_parallelism(const Parallelism& p, const Model& m, const System& sys);

}  // namespace envelope
