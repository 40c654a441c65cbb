// The whole forward pass in execution order: model head, one entry per distinct layer
// type (each op carries its own count), model tail.
#include "ops/lower.hpp"

namespace envelope {

std::vector<Op> lower_forward(const LowerInput& in) {
    std::vector<Op> ops;
    ops.reserve(24);
    lower_model_head(in, ops);
    lower_dense_layer(in, ops);
    lower_model_tail(in, ops);
    return ops;
}

}  // namespace envelope
