#include "explore/serving_search.hpp"

#include <algorithm>
#include <cmath>

#include "common/error.hpp"
#include "evaluate.hpp"
#include "explore/disaggregated_search.hpp"
#include "explore/pareto.hpp"
#include "explore/space_values.hpp"
#include "inference/max_batch.hpp"
#include "explore/sweep.hpp"

namespace envelope {

namespace {

template <typename T>
std::vector<T> or_default(const std::vector<T>& given, std::vector<T> fallback) {
    return given.empty() ? fallback : given;
}

double output_tokens_of(const InferenceWorkload& w) {
    return w.lengths.output_mean > 0 ? w.lengths.output_mean : static_cast<double>(w.output_tokens);
}

}  // namespace

bool meets(const Slo& slo, const SearchPoint& p) {
    if (slo.ttft_s && p.ttft_s > *slo.ttft_s) return false;
    if (slo.tpot_s && p.tpot_s > *slo.tpot_s) return false;
    if (slo.tokens_per_s_per_user && p.output_tokens_per_s_per_user < *slo.tokens_per_s_per_user) return false;
    return true;
}

ServingSearch search_serving(const Scenario& base, const ServingSpace& space, const Slo& slo, double request_rate,
                             int top) {
    ServingSearch out;
    const int64_t max_chips = space.max_chips > 0 ? space.max_chips : base.system.count;
    const int64_t domain = base.system.network.levels.empty()
                               ? max_chips
                               : std::max<int64_t>(1, base.system.network.levels.front().size);
    const int64_t experts = model_experts(base.model);
    const std::vector<int64_t> tps = or_default(space.tp, divisors_up_to(max_chips, domain));
    const std::vector<int64_t> pps = or_default(space.pp, divisors_up_to(max_chips, base.model.layers()));
    const std::vector<int64_t> eps = or_default(space.ep, experts > 0 ? divisors_up_to(experts, max_chips) : std::vector<int64_t>{1});
    const std::vector<int64_t> mtps = or_default(space.moe_tp, std::vector<int64_t>{0});
    const std::vector<Precision> ws = or_default(space.weights, {base.workload.inference.precision.weights});
    const std::vector<Precision> kvs = or_default(space.kv_cache, {base.workload.inference.precision.kv_cache});
    const double out_tokens = output_tokens_of(base.workload.inference);

    // Attention-DP ranks matter to a mixture of experts (the experts spread over them); a dense
    // model's replicas only multiply its throughput: the fewest-chips answer counts them.
    const auto dps_for = [&](int64_t tp, int64_t pp) {
        return or_default(space.dp, experts > 0 ? divisors_up_to(max_chips / (tp * pp), max_chips) : std::vector<int64_t>{1});
    };
    const auto per_layout = static_cast<int64_t>(space.batch.empty() ? space.batch_points : space.batch.size());
    const bool aggregated = space.layouts != ServingLayouts::disaggregated;
    const bool disaggregated = space.layouts != ServingLayouts::aggregated;
    int64_t total = disaggregated ? disaggregated_space_size(base, space, max_chips) : 0;
    if (total > kMaxSearchCandidates) {
        throw InputError("space", "holds more than " + std::to_string(kMaxSearchCandidates) + " candidates; give shorter lists");
    }
    for (int64_t tp : aggregated ? tps : std::vector<int64_t>{}) {
        for (int64_t pp : pps) {
            if (tp * pp > max_chips) continue;
            for (int64_t dp : dps_for(tp, pp)) {
                if (tp * pp * dp > max_chips) continue;
                total += static_cast<int64_t>(eps.size() * mtps.size() * ws.size() * kvs.size()) * per_layout;
                if (total > kMaxSearchCandidates) {
                    throw InputError("space", "holds more than " + std::to_string(kMaxSearchCandidates) +
                                                  " candidates; give shorter lists");
                }
            }
        }
    }

    std::vector<SearchPoint> found;
    Scenario s = base;
    s.system.count = std::max(base.system.count, max_chips);
    s.cost.charge_idle_chips = false;  // each candidate priced for the chips it uses
    s.parallelism.stage_layers.clear();
    if (disaggregated) search_disaggregated(base, space, slo, max_chips, found, out.counts);
    for (int64_t tp : aggregated ? tps : std::vector<int64_t>{}) {
        for (int64_t pp : pps) {
            if (tp * pp > max_chips) continue;
            for (int64_t dp : dps_for(tp, pp)) {
                if (tp * pp * dp > max_chips) continue;
                for (int64_t ep : eps) {
                    for (int64_t mtp : mtps) {
                        for (Precision w : ws) {
                            for (Precision kv : kvs) {
                                Parallelism& par = s.parallelism;
                                par.tp = tp, par.pp = pp, par.dp = dp, par.ep = ep, par.moe_tp = mtp;
                                par.micro_batches = 0;
                                InferenceWorkload& iw = s.workload.inference;
                                iw.precision.weights = w;
                                iw.precision.kv_cache = kv;
                                iw.batch = 1;
                                const int64_t listed = static_cast<int64_t>(space.batch.size());
                                const int64_t size = listed > 0 ? listed : space.batch_points;
                                out.counts.enumerated += size;
                                try {
                                    check_scenario(s);
                                } catch (const InputError&) {
                                    out.counts.invalid += size;
                                    continue;
                                }
                                // The KV cache grows with the batch and its budget does not: no
                                // batch above the largest that fits fits.
                                const int64_t most = largest_batch_that_fits(s);
                                std::vector<int64_t> batches;
                                if (listed > 0) {
                                    for (int64_t b : space.batch) {
                                        if (b <= most) batches.push_back(b);
                                        else ++out.counts.over_memory;
                                    }
                                } else if (most == 0) {
                                    out.counts.over_memory += size;
                                } else {
                                    batches = geometric_values(1, most, space.batch_points);
                                    out.counts.over_memory += size - static_cast<int64_t>(batches.size());
                                }
                                for (int64_t b : batches) {
                                    iw.batch = b;
                                    Result r;
                                    try {
                                        check_scenario(s);
                                        r = evaluate(s);
                                    } catch (const InputError&) {
                                        ++out.counts.invalid;
                                        continue;
                                    }
                                    if (!r.memory.fits) {
                                        ++out.counts.over_memory;
                                        continue;
                                    }
                                    ++out.counts.evaluated;
                                    SearchPoint p;
                                    p.parallelism = par;
                                    p.batch = b;
                                    p.precision = iw.precision;
                                    p.chips = r.summary.chips;
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
                    }
                }
            }
        }
    }
    if (out.counts.enumerated == 0) {
        throw InputError("space", "holds no candidate: no TP · PP of the lists fits in " + std::to_string(max_chips) +
                                      " chips");
    }
    for (std::size_t i : pareto_front(
             found.size(), [&](std::size_t i) { return -found[i].output_tokens_per_s_per_user; },
             [&](std::size_t i) { return -found[i].output_tokens_per_s_per_chip; })) {
        out.front.push_back(found[i]);
    }
    std::vector<SearchPoint> ok;
    for (const SearchPoint& p : found) {
        if (p.meets_slo) ok.push_back(p);
    }
    std::stable_sort(ok.begin(), ok.end(), [](const SearchPoint& a, const SearchPoint& b) {
        return a.output_tokens_per_s_per_chip > b.output_tokens_per_s_per_chip;
    });
    if (!ok.empty()) out.best = ok.front();
    for (const SearchPoint& p : ok) {
        if (p.usd_per_m_output_tokens && (!out.cheapest || *p.usd_per_m_output_tokens < *out.cheapest->usd_per_m_output_tokens)) {
            out.cheapest = p;
        }
        if (request_rate > 0 && p.requests_per_s > 0) {
            const double copies = std::ceil(request_rate / p.requests_per_s);
            if (copies > 1e12) continue;
            const auto n = static_cast<int64_t>(copies);
            if (!out.fewest_chips || n * p.chips < out.fewest_chips->chips) out.fewest_chips = FewestChips{p, n, n * p.chips};
        }
    }
    ok.resize(std::min(ok.size(), static_cast<std::size_t>(std::max(top, 0))));
    out.top = std::move(ok);
    return out;
}

}  // namespace envelope
