#include "cost/workload_cost.hpp"

#include <algorithm>

#include "cost/power.hpp"

namespace envelope {

namespace {

constexpr double kHoursPerYear = 365.25 * 24;

// A chip drawing `chip_w` with its share of the hosts and network, and all of it at the facility.
PowerReport with_hosts(double chip_w, const CostInputs& in) {
    PowerReport p;
    p.chip_w = chip_w;
    p.system_w = in.system_w_per_chip;
    p.network_w = in.network_w_per_chip;
    p.facility_w = p.it_w() * in.pue;
    return p;
}

// The chip's mean power over a period of `period_s` in which the phases run `weights`
// times; the system and network shares are constant. None without the chip's TDP: a
// TPU's preset has none (Google publishes no TDP), and 0 W would read as free energy.
std::optional<PowerReport> power_over(const Scenario& s, const Result& r, const std::vector<double>& weights,
                                      double period_s) {
    const CostInputs& in = s.cost;
    if (in.tdp_w <= 0) return std::nullopt;
    const ChipPower chip{in.tdp_w, in.idle_w, in.memory_power_share};
    const double stages = static_cast<double>(s.parallelism.pp);
    const double dynamic = period_s > 0 ? dynamic_energy_j(r.phases, weights, s.system.chip, chip, stages) / period_s : 0;
    return with_hosts(std::min(in.idle_w + dynamic, std::max(in.tdp_w, in.idle_w)), in);
}

void price(const Scenario& s, CostReport& c) {
    const CostInputs& in = s.cost;
    c.idle_chips = in.charge_idle_chips ? std::max<int64_t>(0, s.system.count - c.chips) : 0;
    // An idle chip draws its idle power; its share of the hosts and network stays on.
    if (c.idle_chips > 0 && c.power_per_chip) c.idle_power_per_chip = with_hosts(in.idle_w, in);
    if (in.pricing == Pricing::cloud) {
        c.usd_per_chip_hour = in.usd_per_chip_hour;
        if (c.idle_chips > 0) c.usd_per_idle_chip_hour = in.usd_per_chip_hour;
    } else if (in.pricing == Pricing::owned) {
        const double capex = in.chip_usd + in.system_usd_per_chip + in.network_usd_per_chip;
        c.capex_usd_per_chip_hour = capex / (in.amortization_years * kHoursPerYear);
        // An owned chip's hour is its write-off plus its electricity: without the power the
        // all-in price is unknown, not the write-off alone.
        if (!c.power_per_chip) return;
        c.energy_usd_per_chip_hour = c.power_per_chip->facility_w / 1000 * in.usd_per_kwh;
        c.usd_per_chip_hour = *c.capex_usd_per_chip_hour + *c.energy_usd_per_chip_hour;
        if (c.idle_power_per_chip) {
            c.usd_per_idle_chip_hour = *c.capex_usd_per_chip_hour + c.idle_power_per_chip->facility_w / 1000 * in.usd_per_kwh;
        }
    }
}

// Dollars a second for the whole system: the running chips and the idle ones.
double usd_per_s(const CostReport& c) {
    return (static_cast<double>(c.chips) * *c.usd_per_chip_hour +
            static_cast<double>(c.idle_chips) * c.usd_per_idle_chip_hour.value_or(0)) / 3600;
}

// IT watts for the whole system.
double it_w(const CostReport& c) {
    return static_cast<double>(c.chips) * c.power_per_chip->it_w() +
           (c.idle_power_per_chip ? static_cast<double>(c.idle_chips) * c.idle_power_per_chip->it_w() : 0.0);
}

void inference_cost(const Scenario& s, const Result& r, CostReport& c) {
    const InferenceWorkload& w = s.workload.inference;
    const InferenceSummary& sum = r.summary;
    const double requests = static_cast<double>(s.parallelism.dp) * static_cast<double>(w.batch);
    const double out = static_cast<double>(w.output_tokens);
    const double output_per_cycle = requests * out;
    if (sum.output_tokens_per_s <= 0) return;
    const double cycle = output_per_cycle / sum.output_tokens_per_s;
    // A closed loop's N requests a cycle run its prefill phase (k prompts) N/k times and its
    // decode phase (n sequences) N/n times (inference/serving.hpp); a static batch runs each once.
    const double n = static_cast<double>(w.batch);
    const double prefills = r.loop ? n / static_cast<double>(r.loop->prompts_per_step) : 1.0;
    const double decodes = r.loop ? n / static_cast<double>(r.loop->slots) : 1.0;
    std::vector<double> weights;
    double prefill_s = 0;
    for (const PhaseReport& p : r.phases) {
        const bool prefill = p.kind == PhaseKind::prefill;
        weights.push_back(prefill ? prefills : decodes);
        if (prefill) prefill_s = prefills * p.time_s;
    }
    c.chips = sum.chips;
    c.power_per_chip = power_over(s, r, weights, cycle);
    price(s, c);

    if (c.power_per_chip) {
        const double it_j = it_w(c) * cycle;
        c.joules_per_output_token = it_j / output_per_cycle;
        c.joules_per_request = it_j / requests;
    }
    if (!c.usd_per_chip_hour) return;
    const double usd = usd_per_s(c) * cycle;
    const double prefill_share = std::min(1.0, prefill_s / cycle);
    const double input_tokens = requests * static_cast<double>(w.input_tokens);
    const double decode_tokens = output_per_cycle * (out - 1) / out;
    if (input_tokens > 0) c.usd_per_m_input_tokens = usd * prefill_share / input_tokens * 1e6;
    if (decode_tokens > 0) c.usd_per_m_output_tokens = usd * (1 - prefill_share) / decode_tokens * 1e6;
    c.usd_per_request = usd / requests;
    c.output_tokens_per_usd = output_per_cycle / usd;
}

void training_cost(const Scenario& s, const Result& r, CostReport& c) {
    const TrainingSummary& t = r.training;
    const double step = t.step_time_s;
    if (step <= 0) return;
    c.chips = t.chips;
    c.power_per_chip = power_over(s, r, std::vector<double>(r.phases.size(), 1.0), step);
    price(s, c);

    if (c.power_per_chip) c.energy_kwh_per_step = it_w(c) * step / 3.6e6;
    if (c.usd_per_chip_hour) {
        c.usd_per_step = usd_per_s(c) * step;
        c.tokens_per_usd = t.tokens_per_step / *c.usd_per_step;
    }
    // The whole run only for the tokens given: without them there is no run to total.
    if (s.workload.training.train_tokens <= 0) return;
    const double steps = s.workload.training.train_tokens / t.tokens_per_step;
    c.steps = steps;
    if (c.energy_kwh_per_step) {
        c.energy_kwh = *c.energy_kwh_per_step * steps;
        c.facility_energy_kwh = *c.energy_kwh * s.cost.pue;
    }
    c.chip_hours = static_cast<double>(c.chips + c.idle_chips) * step * steps / 3600;
    if (c.usd_per_step) c.usd_total = *c.usd_per_step * steps;
}

}  // namespace

CostReport workload_cost(const Scenario& s, const Result& r) {
    CostReport c;
    c.pricing = s.cost.pricing;
    c.assumptions = s.cost.assumptions;
    c.training = s.workload.kind == WorkloadKind::training;
    if (s.workload.kind == WorkloadKind::training) {
        training_cost(s, r, c);
    } else {
        inference_cost(s, r, c);
    }
    if (s.cost.package) c.package = package_cost(*s.cost.package);
    return c;
}

}  // namespace envelope
