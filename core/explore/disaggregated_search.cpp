#include "explore/disaggregated_search.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "common/error.hpp"
#include "evaluate.hpp"
#include "explore/space_values.hpp"
#include "inference/evaluate.hpp"
#include "explore/sweep.hpp"
#include "io/schema_limits.hpp"

namespace envelope {

namespace {

template <typename T>
std::vector<T> or_default(const std::vector<T>& given, std::vector<T> fallback) {
    return given.empty() ? fallback : given;
}

struct PoolLayouts {
    std::vector<int64_t> prefill_tp, decode_tp, decode_dp, decode_ep;
};

PoolLayouts layouts_for(const Scenario& base, const ServingSpace& space, int64_t max_chips) {
    const int64_t domain = base.system.network.levels.empty()
                               ? max_chips
                               : std::max<int64_t>(1, base.system.network.levels.front().size);
    const int64_t experts = model_experts(base.model);
    PoolLayouts l;
    l.prefill_tp = or_default(space.prefill_tp, divisors_up_to(max_chips, domain));
    l.decode_tp = or_default(space.decode_tp, divisors_up_to(max_chips, domain));
    l.decode_dp = or_default(space.decode_dp, experts > 0 ? divisors_up_to(max_chips, domain) : std::vector<int64_t>{1});
    // EP 0: the worker's own chips (ep = tp · dp: wide expert parallelism over the worker, the
    // engines' practice for a mixture; the check refuses it where it does not divide the experts).
    l.decode_ep = or_default(space.ep, std::vector<int64_t>{experts > 0 ? 0 : 1});
    return l;
}

// Calls f(prefill tp, decode tp, decode dp, decode ep, prefill workers, decode workers) for
// every pair of pools within the chips.
template <typename F>
void for_each_pools(const PoolLayouts& l, int64_t max_chips, F&& f) {
    for (int64_t ptp : l.prefill_tp) {
        for (int64_t dtp : l.decode_tp) {
            for (int64_t ddp : l.decode_dp) {
                const int64_t worker_d = dtp * ddp;
                for (int64_t listed_ep : l.decode_ep) {
                    const int64_t dep = listed_ep == 0 ? worker_d : listed_ep;
                    for (int64_t xp = 1; xp * ptp + worker_d <= max_chips; ++xp) {
                        for (int64_t xd = 1; xp * ptp + xd * worker_d <= max_chips; ++xd) f(ptp, dtp, ddp, dep, xp, xd);
                    }
                }
            }
        }
    }
}

int64_t per_pools(const ServingSpace& space) {
    const auto formats = static_cast<int64_t>(std::max<std::size_t>(space.weights.size(), 1) *
                                              std::max<std::size_t>(space.kv_cache.size(), 1));
    return formats * static_cast<int64_t>(space.batch.empty() ? space.batch_points : space.batch.size());
}

// One worker of a pool, alone: its layout on its own chips (the prefill worker generating one
// token). Its weights per chip are in every pool's memory whatever its batch, chunks or
// clients (inference_memory.hpp: total = weights + KV cache + activations), so a worker whose
// weights alone exceed the chip fits in no pool: every candidate with it is pruned by that bound.
// Returns 0: its weights fit, 1: they do not, 2: refused by the checks.
int worker_state(const Scenario& base, const Parallelism& layout, bool prefill) {
    Scenario w = base;
    w.disaggregated.reset();
    w.parallelism = layout;
    w.system.count = layout.chips();
    w.workload.inference.mode = ServingMode::static_batch;
    w.workload.inference.batch = 1;
    if (prefill) w.workload.inference.output_tokens = 1;
    try {
        check_scenario(w);
    } catch (const InputError&) {
        return 2;
    }
    for (const InferenceMemory& m : inference_memory_of(w)) {
        if (m.weights_bytes > m.capacity_bytes) return 1;
    }
    return 0;
}

}  // namespace

int64_t disaggregated_space_size(const Scenario& base, const ServingSpace& space, int64_t max_chips) {
    int64_t pools = 0;
    for_each_pools(layouts_for(base, space, max_chips), max_chips, [&](auto...) { ++pools; });
    return pools * per_pools(space);
}

void search_disaggregated(const Scenario& base, const ServingSpace& space, const Slo& slo, int64_t max_chips,
                          std::vector<SearchPoint>& found, SearchCounts& counts) {
    const std::vector<Precision> ws = or_default(space.weights, {base.workload.inference.precision.weights});
    const std::vector<Precision> kvs = or_default(space.kv_cache, {base.workload.inference.precision.kv_cache});
    const InferenceWorkload& bw = base.workload.inference;
    const double out_tokens = bw.lengths.output_mean > 0 ? bw.lengths.output_mean : static_cast<double>(bw.output_tokens);
    const int64_t size = static_cast<int64_t>(space.batch.empty() ? space.batch_points : space.batch.size());
    Scenario s = base;
    s.system.count = std::max(base.system.count, max_chips);
    s.cost.charge_idle_chips = false;  // each candidate priced for the chips it uses
    s.parallelism = Parallelism{};
    std::map<std::tuple<bool, int64_t, int64_t, int64_t, int, int>, int> workers;
    for_each_pools(layouts_for(base, space, max_chips), max_chips,
                   [&](int64_t ptp, int64_t dtp, int64_t ddp, int64_t dep, int64_t xp, int64_t xd) {
        Disaggregated d;
        d.prefill.workers = xp;
        d.prefill.layout.tp = ptp;
        // A mixture's prefill worker spreads its experts over its TP chips (folded EP).
        d.prefill.layout.ep = model_experts(base.model) > 0 && model_experts(base.model) % ptp == 0 ? ptp : 1;
        d.decode.workers = xd;
        d.decode.layout.tp = dtp;
        d.decode.layout.dp = ddp;
        d.decode.layout.ep = dep;
        s.disaggregated = d;
        for (Precision w : ws) {
            for (Precision kv : kvs) {
                InferenceWorkload& iw = s.workload.inference;
                iw.precision.weights = w;
                iw.precision.kv_cache = kv;
                // Each worker layout alone, once per format (cached): the bound above.
                const auto state_of = [&](const Parallelism& layout, bool prefill) {
                    const auto key = std::make_tuple(prefill, layout.tp, layout.dp, layout.ep, static_cast<int>(w),
                                                     static_cast<int>(kv));
                    auto it = workers.find(key);
                    if (it == workers.end()) it = workers.emplace(key, worker_state(s, layout, prefill)).first;
                    return it->second;
                };
                const int ps = state_of(d.prefill.layout, true), ds = state_of(d.decode.layout, false);
                if (ps == 2 || ds == 2) {
                    counts.enumerated += size;
                    counts.invalid += size;
                    continue;
                }
                if (ps == 1 || ds == 1) {
                    counts.enumerated += size;
                    counts.pruned_bound += size;
                    continue;
                }
                // The probe: more clients than any pool admits, so that its decode slots are the
                // KV cache's and the batch limit's, not the clients'.
                iw.batch = limits::kMaxBatch;
                counts.enumerated += size;
                Result first;
                try {
                    check_scenario(s);
                    first = evaluate(s);
                } catch (const InputError&) {
                    counts.invalid += size;
                    continue;
                }
                if (!first.memory.fits || !first.disaggregated) {
                    counts.over_memory += size;
                    continue;
                }
                // Clients past every decode slot only wait for one (the same rate, a longer
                // TTFT): the clients run from 1 to the decode pool's slots.
                const int64_t slots = first.disaggregated->decode.ranks * first.disaggregated->decode.slots_per_rank;
                std::vector<int64_t> clients;
                if (!space.batch.empty()) {
                    clients = space.batch;
                } else {
                    clients = geometric_values(1, std::max<int64_t>(slots, 1), space.batch_points);
                    counts.dominated += size - static_cast<int64_t>(clients.size());
                }
                for (int64_t n : clients) {
                    iw.batch = n;
                    Result r;
                    try {
                        check_scenario(s);
                        r = evaluate(s);
                    } catch (const InputError&) {
                        ++counts.invalid;
                        continue;
                    }
                    if (!r.memory.fits) {
                        ++counts.over_memory;
                        continue;
                    }
                    ++counts.evaluated;
                    SearchPoint p;
                    p.pools = d;
                    p.batch = n;
                    p.precision = iw.precision;
                    p.chips = d.chips();
                    p.memory_bytes = r.memory.total_bytes;
                    p.output_tokens_per_s_per_chip = r.summary.output_tokens_per_s_per_chip;
                    p.tpot_s = r.summary.tpot_s.value_or(0);
                    p.output_tokens_per_s_per_user = p.tpot_s > 0 ? 1 / p.tpot_s : 0;
                    p.ttft_s = r.summary.ttft_s;
                    p.requests_per_s = r.summary.output_tokens_per_s / out_tokens;
                    p.usd_per_m_output_tokens = r.cost.usd_per_m_output_tokens;
                    p.meets_slo = meets(slo, p);
                    found.push_back(p);
                }
            }
        }
    });
}

}  // namespace envelope
