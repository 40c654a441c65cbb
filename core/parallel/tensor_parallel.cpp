#include "parallel/tensor_parallel.hpp"

#include <algorithm>

namespace envelope {

namespace {
int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
}  // namespace

TpShard shard_for_tp(const Model& m, int64_t tp) {
    TpShard s;
    s.tp = tp;
    s.heads = m.heads / tp;
    s.kv_heads = std::max<int64_t>(1, m.kv_heads / tp);
    s.ffn = ceil_div(m.ffn, tp);
    s.vocab = ceil_div(m.vocab, tp);
    return s;
}

}  // namespace envelope
