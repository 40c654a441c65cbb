#include "ops/pass.hpp"

namespace envelope {

Pass prefill_pass(int64_t batch, int64_t input_tokens, int64_t allocated_tokens, int64_t cached_tokens) {
    return Pass{batch, input_tokens - cached_tokens, constant(static_cast<double>(cached_tokens)), 1, allocated_tokens,
                false};
}

Pass decode_pass(int64_t batch, int64_t allocated_tokens) {
    return Pass{batch, 1, Affine{-1.0, 1.0}, 1, allocated_tokens, true};  // cached = L − 1
}

Pass chunk_pass(int64_t batch, int64_t chunk, int64_t cached, int64_t allocated_tokens) {
    return Pass{batch, chunk, Affine{static_cast<double>(cached), static_cast<double>(chunk)}, 0, allocated_tokens, false};
}

Pass verify_pass(int64_t batch, int64_t allocated_tokens, int64_t tokens) {
    return Pass{batch, tokens, Affine{-1.0, 1.0}, tokens, allocated_tokens, true};  // cached = L − 1
}

Pass training_pass(int64_t batch, int64_t seq_len, int64_t cp) {
    const int64_t local = seq_len / cp;
    const double earlier = static_cast<double>(seq_len - local) / 2;
    Pass p{batch, local, constant(earlier), local, 0, false};
    p.training = true;
    return p;
}

}  // namespace envelope
