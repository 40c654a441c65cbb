#include "parallel/expert_layout.hpp"

#include <algorithm>

namespace envelope {

ExpertLayout expert_layout(const Parallelism& p) {
    ExpertLayout e;
    e.ep = std::max<int64_t>(1, p.ep);
    const int64_t attention = p.tp * p.cp * std::max<int64_t>(1, p.dp);
    const bool carved = (p.moe_tp == 0 || p.moe_tp == p.tp) && p.dp % e.ep == 0;
    if (carved) {
        e.etp = p.tp;
        e.token_sets = e.ep;
        e.dispatch_share = 1;
    } else {
        e.folded = true;
        e.etp = p.moe_tp > 0 ? p.moe_tp : (e.ep < p.tp ? std::max<int64_t>(1, p.tp / e.ep) : 1);
        e.token_sets = std::max<int64_t>(1, e.group() / p.tp);
        e.dispatch_share = static_cast<double>(e.etp) / static_cast<double>(p.tp);
    }
    e.expert_dp = std::max<int64_t>(1, attention / e.group());
    return e;
}

}  // namespace envelope
