#include "ops/pass.hpp"

namespace envelope {

Pass prefill_pass(int64_t batch, int64_t input_tokens, int64_t allocated_tokens) {
    return Pass{batch, input_tokens, constant(0.0), 1, allocated_tokens, false};
}

Pass decode_pass(int64_t batch, int64_t allocated_tokens) {
    return Pass{batch, 1, Affine{-1.0, 1.0}, 1, allocated_tokens, true};  // cached = L − 1
}

}  // namespace envelope
