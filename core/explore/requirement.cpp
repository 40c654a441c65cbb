#include "explore/requirement.hpp"

#include <cmath>
#include <optional>

#include "common/error.hpp"
#include "evaluate.hpp"

namespace envelope {

namespace {

constexpr double kMaxFactor = 1024;
constexpr double kTolerance = 1e-3;  // relative, on the factor

// The scenario's result when it evaluates and fits (every training stage, device and host;
// inference memory), else nothing: both tests below start from it.
std::optional<Result> fitting_result(const Scenario& s) {
    Result r;
    try {
        r = evaluate(s);
    } catch (const InputError&) {
        return std::nullopt;
    }
    if (s.workload.kind == WorkloadKind::training) {
        for (const TrainingMemory& m : r.training_memory) {
            if (!m.fits || !m.host_fits) return std::nullopt;
        }
    } else if (!r.memory.fits) {
        return std::nullopt;
    }
    return r;
}

bool met_by(const Scenario& s, const Target& t) {
    const std::optional<Result> fitting = fitting_result(s);
    if (!fitting) return false;
    const Result& r = *fitting;
    if (s.workload.kind == WorkloadKind::training) {
        if (t.step_time_s && r.training.step_time_s > *t.step_time_s) return false;
        if (t.tokens_per_s && r.training.tokens_per_s < *t.tokens_per_s) return false;
        return true;
    }
    SearchPoint p;
    p.ttft_s = r.summary.ttft_s;
    p.tpot_s = r.summary.tpot_s.value_or(0);
    p.output_tokens_per_s_per_user = p.tpot_s > 0 ? 1 / p.tpot_s : 0;
    if (!meets(t.slo, p)) return false;
    if (t.output_tokens_per_s_per_chip && r.summary.output_tokens_per_s_per_chip < *t.output_tokens_per_s_per_chip) {
        return false;
    }
    return true;
}

// Capacity: it fits, and the engine admits every sequence the scenario runs at once (a closed
// loop's slots reach its clients), so that no time depends on the capacity any more
// (METHODOLOGY §38.7): monotone in the capacity.
bool unconstrained_at(const Scenario& s) {
    const std::optional<Result> r = fitting_result(s);
    if (!r) return false;
    if (s.workload.kind == WorkloadKind::training) return true;
    if (r->loop && r->loop->slots < r->loop->clients) return false;
    return !(r->open_loop && r->open_loop->slots < s.workload.inference.batch);
}

// The chips the scenario uses: one copy of the layout, or both pools.
int64_t chips_used(const Scenario& s) {
    return s.disaggregated ? s.disaggregated->chips() : s.parallelism.chips();
}

// Whether the scenario's chips use the resource at all: one chip has no scale-up traffic,
// chips within one unit of the first level no scale-out.
bool reaches(const Scenario& s, Resource r) {
    const auto& levels = s.system.network.levels;
    const int64_t chips = chips_used(s);
    if (r == Resource::scale_up_bandwidth) return chips > 1 && !levels.empty();
    if (r == Resource::scale_out_bandwidth) return levels.size() >= 2 && chips > levels.front().size;
    return true;
}

// The chip's value of a resource (0: the system has no such level).
double current_of(const Scenario& s, Resource r) {
    const Chip& c = s.system.chip;
    const auto& levels = s.system.network.levels;
    switch (r) {
        case Resource::peak_flops: {
            const Precision p = s.workload.kind == WorkloadKind::training
                                    ? s.workload.training.precision
                                    : wider(s.workload.inference.precision.weights, s.workload.inference.precision.activations);
            return c.peak(p).value_or(0);
        }
        case Resource::hbm_bandwidth: return c.hbm_tb_s;
        case Resource::hbm_capacity: return c.hbm_gb;
        case Resource::scale_up_bandwidth: return levels.empty() ? 0 : levels.front().bandwidth_gbps();
        case Resource::scale_out_bandwidth: return levels.size() < 2 ? 0 : levels[1].bandwidth_gbps();
    }
    return 0;
}

}  // namespace

Scenario with_resource_scaled(const Scenario& s, Resource r, double k) {
    Scenario out = s;
    Chip& c = out.system.chip;
    auto& levels = out.system.network.levels;
    const auto scale_level = [k](NetworkLevel& l) {
        l.link_gbps *= k;
        l.ll_bandwidth_gbps *= k;  // the protocol's cap is a share of the same links
    };
    switch (r) {
        case Resource::peak_flops:
            for (auto& p : c.peak_tflops) {
                if (p) *p *= k;
            }
            break;
        case Resource::hbm_bandwidth: c.hbm_tb_s *= k; break;
        case Resource::hbm_capacity: c.hbm_gb *= k; break;
        case Resource::scale_up_bandwidth:
            if (!levels.empty()) scale_level(levels.front());
            break;
        case Resource::scale_out_bandwidth:
            for (std::size_t i = 1; i < levels.size(); ++i) scale_level(levels[i]);
            break;
    }
    return out;
}

RequirementAnalysis analyze_requirements(const Scenario& s, const Target& t) {
    RequirementAnalysis out;
    out.met = met_by(s, t);
    for (int i = 0; i < 5; ++i) {
        const auto res = static_cast<Resource>(i);
        Requirement q;
        q.resource = res;
        q.current = current_of(s, res);
        if (q.current <= 0 || !reaches(s, res)) {
            q.status = RequirementStatus::not_applicable;
            out.resources.push_back(q);
            continue;
        }
        // Capacity: where it no longer limits, with the target met there (at any larger
        // capacity the times are the same).
        const bool met_unconstrained = res != Resource::hbm_capacity || met_by(with_resource_scaled(s, res, kMaxFactor), t);
        const auto ok = [&](double k) {
            const Scenario at = with_resource_scaled(s, res, k);
            return res == Resource::hbm_capacity ? met_unconstrained && unconstrained_at(at) : met_by(at, t);
        };
        // Bisection in log k on [lo, hi] with ok(hi) and not ok(lo).
        double lo = 1 / kMaxFactor, hi = kMaxFactor;
        if (ok(1)) hi = 1;
        else lo = 1;
        if (!ok(hi)) {
            q.status = RequirementStatus::above_range;
            out.resources.push_back(q);
            continue;
        }
        if (ok(lo)) {
            hi = lo;  // met even at the least factor searched: the requirement is at most that
            q.status = RequirementStatus::below_range;
        } else {
            while (hi / lo > 1 + kTolerance) {
                const double mid = std::sqrt(lo * hi);
                (ok(mid) ? hi : lo) = mid;
            }
        }
        q.required = q.current * hi;
        q.ratio = hi;
        out.resources.push_back(q);
    }
    for (const Requirement& q : out.resources) {
        if (q.status == RequirementStatus::found && (!out.binds || *q.ratio > *out.resources[static_cast<std::size_t>(*out.binds)].ratio)) {
            out.binds = q.resource;
        }
    }
    return out;
}

}  // namespace envelope
