#include "explore/space_values.hpp"

#include <algorithm>

namespace envelope {

std::vector<int64_t> divisors_up_to(int64_t n, int64_t cap) {
    std::vector<int64_t> out;
    for (int64_t d = 1; d <= std::min(n, cap); ++d) {
        if (n % d == 0) out.push_back(d);
    }
    return out;
}

int64_t model_experts(const Model& m) {
    int64_t e = 0;
    for (const LayerGroup& g : m.groups) e = std::max(e, g.layer.ffn.moe.experts);
    return e;
}

int64_t model_heads(const Model& m) {
    int64_t h = 0;
    for (const LayerGroup& g : m.groups) h = std::max(h, g.layer.attention.heads);
    return h;
}

}  // namespace envelope
