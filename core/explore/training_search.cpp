#include "explore/training_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/error.hpp"
#include "evaluate.hpp"
#include "explore/pareto.hpp"
#include "explore/space_values.hpp"
#include "memory/training_memory.hpp"
#include "parallel/check.hpp"
#include "parallel/stages.hpp"
#include "training/check.hpp"
#include "training/fit_advice.hpp"

namespace envelope {

namespace {

template <typename T>
std::vector<T> or_default(const std::vector<T>& given, std::vector<T> fallback) {
    return given.empty() ? fallback : given;
}

// Keep the values of `list` that divide n.
std::vector<int64_t> dividing(const std::vector<int64_t>& list, int64_t n) {
    std::vector<int64_t> out;
    for (int64_t v : list) {
        if (v >= 1 && n % v == 0) out.push_back(v);
    }
    return out;
}

// The largest stage's model state per chip (weights, gradients, optimizer state): what no
// choice of micro-batch, recomputation, schedule, virtual stages or SP changes (memory/
// training_memory.hpp: they move only the activations), so a lower bound of every candidate
// of the layout and ZeRO stage.
// Returns how far the state exceeds the capacity on the worst stage (≤ 0: within).
double model_state_excess(const Scenario& s) {
    double most = -std::numeric_limits<double>::infinity();
    for (const Stage& stage : split_stages(s.model, s.parallelism)) {
        const TrainingMemory m = training_memory(
            TrainingMemoryInput{s.model, stage, s.parallelism, s.workload.training, s.system.chip, 1, s.system.host.memory_gb});
        most = std::max(most, m.weights_bytes + m.gradient_bytes + m.optimizer_bytes - m.capacity_bytes);
    }
    return most;
}

double cost_of(const SearchPoint& p, bool priced) { return priced ? p.usd_per_step.value_or(0) : p.chip_hours_per_step; }

double rank_key(const SearchPoint& p, TrainingRank rank, bool priced) {
    switch (rank) {
        case TrainingRank::step_time: return p.step_time_s;
        case TrainingRank::mfu: return -p.mfu;
        case TrainingRank::cost: return cost_of(p, priced);
    }
    return p.step_time_s;
}

struct Lists {
    std::vector<int64_t> tp, cp, pp, ep, micro_batch, virtual_stages;
    std::vector<int> sp, zero;
    std::vector<PipelineSchedule> schedule;
    std::vector<Recompute> recompute;
};

Lists lists_for(const Scenario& base, const TrainingSpace& space, int64_t chips) {
    const Model& m = base.model;
    const int64_t domain = base.system.network.levels.empty()
                               ? chips
                               : std::max<int64_t>(1, base.system.network.levels.front().size);
    const int64_t experts = model_experts(m);
    const int64_t seq = base.workload.training.seq_len;
    Lists l;
    l.tp = or_default(space.tp, divisors_up_to(chips, domain));
    l.cp = or_default(space.cp, std::vector<int64_t>{1});
    if (space.cp.empty()) {
        // Context parallelism splits a sequence of at least 8,192 tokens per chip group
        // (METHODOLOGY §38.1: shorter ones are not split in practice; give cp to search them).
        for (int64_t c = 2; c <= chips && seq / c >= 4096 && seq % c == 0; c *= 2) l.cp.push_back(c);
    }
    l.pp = or_default(space.pp, divisors_up_to(chips, m.layers()));
    l.ep = or_default(space.ep, experts > 0 ? divisors_up_to(experts, chips) : std::vector<int64_t>{1});
    l.micro_batch = or_default(space.micro_batch, std::vector<int64_t>{1, 2, 4, 8});
    l.virtual_stages = space.virtual_stages;  // empty: per pp, below
    l.sp = or_default(space.sp, std::vector<int>{0, 1});
    l.zero = or_default(space.zero, std::vector<int>{0, 1, 2, 3});
    l.schedule = or_default(space.schedule, std::vector<PipelineSchedule>{PipelineSchedule::one_f_one_b,
                                                                          PipelineSchedule::interleaved_1f1b,
                                                                          PipelineSchedule::zero_bubble});
    l.recompute = or_default(space.recompute, std::vector<Recompute>{Recompute::none, Recompute::selective, Recompute::full});
    return l;
}

// The pipeline settings one PP degree allows: (virtual stages, schedule) pairs, and how many
// listed ones are dropped as dominated (GPipe beside 1F1B).
struct PipelineChoices {
    std::vector<std::pair<int64_t, PipelineSchedule>> searched;
    int64_t dominated = 0;
};

PipelineChoices pipeline_choices(const Lists& l, int64_t pp, int64_t layers) {
    PipelineChoices choices;
    auto& out = choices.searched;
    if (pp == 1) return {{{1, PipelineSchedule::one_f_one_b}}, 0};  // no pipeline: the schedule is moot
    const std::vector<int64_t> vs =
        !l.virtual_stages.empty() ? l.virtual_stages : divisors_up_to(layers % pp == 0 ? layers / pp : 1, 8);
    for (PipelineSchedule sch : l.schedule) {
        if (sch == PipelineSchedule::interleaved_1f1b) {
            for (int64_t v : vs) {
                if (v > 1) out.push_back({v, sch});
            }
        } else if (sch == PipelineSchedule::gpipe) {
            // GPipe: 1F1B's time (training/step.hpp times both with bubble (p−1)·T) and all m
            // micro-batches in flight against min(p−i, m): never better; searched only when
            // listed without 1F1B.
            if (std::find(l.schedule.begin(), l.schedule.end(), PipelineSchedule::one_f_one_b) == l.schedule.end()) {
                out.push_back({1, sch});
            } else {
                ++choices.dominated;
            }
        } else {
            out.push_back({1, sch});
        }
    }
    return choices;
}

}  // namespace

Scenario apply_point(const Scenario& base, const SearchPoint& p, SearchKind kind) {
    Scenario s = base;
    s.parallelism = p.parallelism;
    if (kind == SearchKind::training) {
        s.workload.training.micro_batch = p.micro_batch;
        s.workload.training.recompute = p.recompute;
        s.system.count = std::max(s.system.count, p.chips);
    } else {
        if (p.pools) {
            s.disaggregated = p.pools;
            s.system.count = std::max(s.system.count, p.chips);
        }
        s.workload.inference.batch = p.batch;
        s.workload.inference.precision = p.precision;
    }
    return s;
}

namespace {

// One TP × CP × PP × EP layout of one chip count, with the inner lists it searches.
struct Layout {
    int64_t chips = 1, tp = 1, cp = 1, pp = 1, dp = 1, ep = 1;
    std::size_t lists = 0;   // the chip count's lists
    PipelineChoices pipes;
    std::vector<int> sps, zeros;
    int64_t inner = 0;       // candidates per ZeRO stage
    int64_t dominated = 0;   // dropped GPipe candidates, all ZeRO stages
    int64_t size() const { return inner * static_cast<int64_t>(zeros.size()) + dominated; }
};

std::vector<Layout> layouts_of(const Scenario& base, const TrainingSpace& space, std::vector<Lists>& lists) {
    std::vector<Layout> out;
    const std::vector<int64_t> counts = space.chips.empty() ? std::vector<int64_t>{base.system.count} : space.chips;
    int64_t total = 0;
    for (int64_t chips : counts) {
        lists.push_back(lists_for(base, space, chips));
        const Lists& l = lists.back();
        for (int64_t tp : dividing(l.tp, chips)) {
            for (int64_t cp : dividing(l.cp, chips / tp)) {
                for (int64_t pp : dividing(l.pp, chips / (tp * cp))) {
                    for (int64_t ep : l.ep) {
                        Layout y;
                        y.lists = lists.size() - 1;
                        y.chips = chips, y.tp = tp, y.cp = cp, y.pp = pp, y.dp = chips / (tp * cp * pp), y.ep = ep;
                        y.pipes = pipeline_choices(l, pp, base.model.layers());
                        y.sps = tp > 1 ? l.sp : std::vector<int>{0};
                        y.zeros = y.dp * cp > 1 ? l.zero : std::vector<int>{0};
                        const auto per_pipe = static_cast<int64_t>(y.sps.size() * l.recompute.size() * l.micro_batch.size());
                        y.inner = per_pipe * static_cast<int64_t>(y.pipes.searched.size());
                        y.dominated = per_pipe * y.pipes.dominated * static_cast<int64_t>(y.zeros.size());
                        total += y.size();
                        if (total > kMaxSearchCandidates) {
                            throw InputError("space", "holds more than " + std::to_string(kMaxSearchCandidates) +
                                                          " candidates; give shorter lists or fewer chip counts");
                        }
                        out.push_back(std::move(y));
                    }
                }
            }
        }
    }
    return out;
}

}  // namespace

TrainingSearch search_training(const Scenario& base, const TrainingSpace& space, TrainingRank rank, int top) {
    TrainingSearch out;
    std::vector<SearchPoint> found;
    std::vector<Lists> lists;  // one per chip count, in order
    const std::vector<Layout> layouts = layouts_of(base, space, lists);
    const int64_t gb = base.workload.training.global_batch;
    Scenario s = base;  // the working candidate, changed in place
    s.parallelism.stage_layers.clear();
    s.parallelism.micro_batches = 0;
    s.parallelism.moe_tp = 0;
    bool any_priced = true;
    for (const Layout& y : layouts) {
        const Lists& l = lists[y.lists];
        const int64_t chips = y.chips, dp = y.dp;
        const auto& pipes = y.pipes.searched;
        s.system.count = chips;
        const int64_t layout_size = y.size();
        out.counts.enumerated += layout_size;
        Parallelism& par = s.parallelism;
        par.tp = y.tp, par.cp = y.cp, par.pp = y.pp, par.dp = dp, par.ep = y.ep;
        par.sp = false, par.virtual_stages = 1, par.schedule = PipelineSchedule::one_f_one_b, par.zero = 0;
        try {
            check_parallelism(par, s.model, s.system);
        } catch (const InputError&) {
            out.counts.invalid += layout_size;
            continue;
        }
        out.counts.dominated += y.dominated;
        for (int zero : y.zeros) {
            par.zero = zero;
            // The bound of every virtual-stage count the layout searches (the chunks move
            // layers between stages only when they split unevenly).
            double excess = std::numeric_limits<double>::infinity();
            for (const auto& pipe : pipes) {
                par.virtual_stages = pipe.first;
                excess = std::min(excess, model_state_excess(s));
            }
            if (excess > 0) {
                out.counts.pruned_bound += y.inner;
                continue;
            }
            for (int sp : y.sps) {
                par.sp = sp != 0;
                for (const auto& [v, sch] : pipes) {
                    par.virtual_stages = v;
                    par.schedule = sch;
                    for (Recompute rc : l.recompute) {
                        s.workload.training.recompute = rc;
                        for (int64_t mb : l.micro_batch) {
                            s.workload.training.micro_batch = mb;
                            if (mb < 1 || gb % (mb * dp) != 0) {
                                ++out.counts.invalid;
                                continue;
                            }
                            try {
                                check_training(s);
                            } catch (const InputError&) {
                                ++out.counts.invalid;
                                continue;
                            }
                            const PeakMemory peak = peak_training_memory(s);
                            if (!peak.fits) {
                                ++out.counts.over_memory;
                                continue;
                            }
                            const Result r = evaluate(s);
                            ++out.counts.evaluated;
                            SearchPoint p;
                            p.parallelism = par;
                            p.micro_batch = mb;
                            p.recompute = rc;
                            p.chips = chips;
                            p.memory_bytes = peak.bytes;
                            p.step_time_s = r.training.step_time_s;
                            p.mfu = r.training.mfu;
                            p.tokens_per_s = r.training.tokens_per_s;
                            p.usd_per_step = r.cost.usd_per_step;
                            p.chip_hours_per_step = p.step_time_s * static_cast<double>(chips) / 3600;
                            any_priced = any_priced && p.usd_per_step.has_value();
                            found.push_back(p);
                        }
                    }
                }
            }
        }
    }
    if (out.counts.enumerated == 0) {
        throw InputError("space", "holds no candidate: no TP · CP · PP of the lists divides the chip count");
    }
    out.priced = any_priced && !found.empty();
    const bool priced = out.priced;
    std::stable_sort(found.begin(), found.end(), [&](const SearchPoint& a, const SearchPoint& b) {
        return rank_key(a, rank, priced) < rank_key(b, rank, priced);
    });
    for (std::size_t i : pareto_front(
             found.size(), [&](std::size_t i) { return found[i].step_time_s; },
             [&](std::size_t i) { return cost_of(found[i], priced); })) {
        out.front.push_back(found[i]);
    }
    found.resize(std::min(found.size(), static_cast<std::size_t>(std::max(top, 0))));
    out.top = std::move(found);
    return out;
}

}  // namespace envelope
