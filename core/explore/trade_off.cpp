#include "explore/trade_off.hpp"

#include <algorithm>
#include <cmath>

#include "common/error.hpp"
#include "common/format.hpp"
#include "cost/workload_cost.hpp"
#include "evaluate.hpp"

namespace envelope {

bool knob_needs_package(Knob k) {
    return k == Knob::hbm_stacks || k == Knob::die_area_mm2 || k == Knob::chiplets || k == Knob::process_node;
}

namespace {

double logic_area(const PackageSpec& p) {
    double a = 0;
    for (const DieSpec& d : p.dies) a += d.area_mm2 * static_cast<double>(d.count);
    return a;
}

// Chiplet Actuary's die NRE: 80 % scales with the area (per 300 mm²), 20 % is fixed.
double nre_shape(double area_mm2) { return 0.8 * area_mm2 / 300 + 0.2; }

void scale_die_area(PackageSpec& p, double ratio) {
    for (DieSpec& d : p.dies) {
        const double before = d.area_mm2;
        d.area_mm2 *= ratio;
        d.nre_usd *= nre_shape(d.area_mm2) / nre_shape(before);
    }
}

void apply(Scenario& s, const Scenario& base, Knob knob, const KnobValue& v) {
    Chip& chip = s.system.chip;
    PackageSpec* pkg = s.cost.package ? &*s.cost.package : nullptr;
    const PackageSpec* base_pkg = base.cost.package ? &*base.cost.package : nullptr;
    switch (knob) {
        case Knob::hbm_stacks: {
            const double ratio = v.number / static_cast<double>(base_pkg->hbm_stacks);
            chip.hbm_gb = base.system.chip.hbm_gb * ratio;
            chip.hbm_tb_s = base.system.chip.hbm_tb_s * ratio;
            pkg->hbm_stacks = static_cast<int64_t>(v.number);
            break;
        }
        case Knob::die_area_mm2: {
            const double ratio = v.number / logic_area(*base_pkg);
            for (Precision p : kMatrixFormats) {
                auto& peak = chip.peak_tflops[static_cast<std::size_t>(p)];
                if (peak) peak = *base.system.chip.peak(p) * ratio;
            }
            chip.compute_units = static_cast<int64_t>(std::llround(static_cast<double>(base.system.chip.compute_units) * ratio));
            scale_die_area(*pkg, v.number / logic_area(*pkg));
            break;
        }
        case Knob::chiplets: {
            const double area = logic_area(*pkg);
            DieSpec die = pkg->dies.front();
            die.count = static_cast<int64_t>(v.number);
            die.nre_usd *= nre_shape(area / v.number) / nre_shape(die.area_mm2);
            die.area_mm2 = area / v.number;
            // Each chiplet carries its share of the first die type's units and must have its
            // share working (binned on its own): of N = n·count units and K = k·count needed,
            // N/c and ⌈K/c⌉ on each of the c chiplets; fewer than two units: no salvage.
            if (die.redundancy.any()) {
                const int64_t was = pkg->dies.front().count;
                const auto c = static_cast<int64_t>(v.number);
                UnitRedundancy& u = die.redundancy;
                const int64_t units = u.units * was / c;
                const int64_t needed = (u.needed * was + c - 1) / c;
                u = units >= 2 ? UnitRedundancy{units, std::min(units, needed), u.area_share} : UnitRedundancy{};
            }
            pkg->dies = {die};
            break;
        }
        case Knob::process_node:
            for (DieSpec& d : pkg->dies) {
                d.wafer.usd = v.wafer.usd;
                d.wafer.defect_density_per_cm2 = v.wafer.defect_density_per_cm2;
                d.nre_usd = v.node_nre_usd * nre_shape(d.area_mm2);
            }
            break;
        case Knob::scale_up_gbps: {
            NetworkLevel& l = s.system.network.levels.front();
            l.link_gbps = v.number / static_cast<double>(l.links_per_chip);
            break;
        }
        case Knob::chips_per_system:
            s.system.network.levels.front().size = static_cast<int64_t>(v.number);
            break;
    }
}

// The chip's price follows its package cost.
void reprice(Scenario& s, double ratio) {
    if (s.cost.pricing == Pricing::owned) s.cost.chip_usd *= ratio;
    if (s.cost.pricing == Pricing::cloud) s.cost.usd_per_chip_hour *= ratio;
}

void evaluate_point(const Scenario& s, const std::optional<double>& base_usd, TradeOffPoint& p) {
    Scenario at = s;
    if (at.cost.package) {
        const PackageProblem problem = package_problem(*at.cost.package);
        if (!problem.none()) {
            p.error_path = "cost.package." + problem.field;
            p.error = problem.message;
            return;
        }
        p.package_usd = package_cost(*at.cost.package).total_usd();
        if (base_usd && *base_usd > 0) reprice(at, *p.package_usd / *base_usd);
    }
    try {
        if (at.system.network.chips() < static_cast<double>(at.system.count)) {
            throw InputError("system.count", "the network's levels join fewer chips than system.count");
        }
        check_scenario(at);
        const Result r = evaluate(at);
        p.usd_per_chip_hour = r.cost.usd_per_chip_hour;
        if (at.workload.kind == WorkloadKind::training) {
            p.step_time_s = r.training.step_time_s;
            p.fits = std::all_of(r.training_memory.begin(), r.training_memory.end(),
                                 [](const TrainingMemory& m) { return m.fits && m.host_fits; });
            p.usd_per_step = r.cost.usd_per_step;
            p.usd_total = r.cost.usd_total;
        } else {
            p.output_tokens_per_s = r.summary.output_tokens_per_s;
            p.output_tokens_per_s_per_chip = r.summary.output_tokens_per_s_per_chip;
            p.ttft_s = r.summary.ttft_s;
            p.tpot_s = r.summary.tpot_s;
            p.fits = r.memory.fits;
            p.usd_per_m_output_tokens = r.cost.usd_per_m_output_tokens;
            p.joules_per_output_token = r.cost.joules_per_output_token;
        }
    } catch (const InputError& e) {
        p.error_path = e.path();
        p.error = e.what();
    }
}

// Pareto: no other valid, fitting point is at least as fast and as cheap, and better in one.
void mark_front(TradeOff& t) {
    auto perf = [&](const TradeOffPoint& p) { return t.training ? -p.step_time_s : p.output_tokens_per_s_per_chip; };
    auto cost = [&](const TradeOffPoint& p) -> std::optional<double> {
        return t.training ? p.usd_per_step : p.usd_per_chip_hour;
    };
    for (TradeOffPoint& p : t.points) {
        if (!p.error.empty() || !p.fits || !cost(p)) continue;
        p.pareto = std::none_of(t.points.begin(), t.points.end(), [&](const TradeOffPoint& q) {
            if (&q == &p || !q.error.empty() || !q.fits || !cost(q)) return false;
            const bool no_worse = perf(q) >= perf(p) && *cost(q) <= *cost(p);
            return no_worse && (perf(q) > perf(p) || *cost(q) < *cost(p));
        });
    }
}

}  // namespace

TradeOff trade_off(const Scenario& s, const std::vector<KnobAxis>& axes) {
    TradeOff t;
    t.training = s.workload.kind == WorkloadKind::training;
    if (s.cost.package) t.base_package_usd = package_cost(*s.cost.package).total_usd();
    const std::size_t n0 = axes.empty() ? 1 : axes[0].values.size();
    const std::size_t n1 = axes.size() > 1 ? axes[1].values.size() : 1;
    for (std::size_t i = 0; i < n0; ++i) {
        for (std::size_t j = 0; j < n1; ++j) {
            Scenario at = s;
            TradeOffPoint p;
            const std::size_t index[] = {i, j};
            for (std::size_t a = 0; a < axes.size(); ++a) {
                const KnobValue& v = axes[a].values[index[a]];
                apply(at, s, axes[a].knob, v);
                p.setting.push_back(v.label.empty() ? format_number(v.number, 6) : v.label);
                p.values.push_back(v.label.empty() ? v.number : static_cast<double>(index[a]));
            }
            evaluate_point(at, t.base_package_usd, p);
            t.points.push_back(std::move(p));
        }
    }
    mark_front(t);
    return t;
}

}  // namespace envelope
