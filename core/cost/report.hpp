#pragma once
// The cost section of a result (cost/workload_cost.hpp). Dollars in USD; power in W;
// energy in J or kWh as named. Optional values are absent when their inputs are (no
// price known, no decode step, no training length).
#include <optional>
#include <string>
#include <vector>

#include "cost/inputs.hpp"
#include "cost/package.hpp"

namespace envelope {

struct PowerReport {
    double chip_w = 0;       // the accelerator, mean over the period costed
    double system_w = 0;     // its share of hosts, fans, scale-up switches
    double network_w = 0;    // its share of the scale-out fabric
    double it_w() const { return chip_w + system_w + network_w; }
    double facility_w = 0;   // it_w × PUE
};

struct CostReport {
    bool training = false;                      // which of the two groups below is filled
    Pricing pricing = Pricing::unknown;
    int64_t chips = 0;                          // chips the mapping runs on
    // The system's other chips: paid for too (a node is rented or bought whole) and drawing
    // their idle power with their share of the hosts and network, as idle_power_per_chip.
    int64_t idle_chips = 0;
    std::optional<double> usd_per_chip_hour;    // all-in, a chip that runs
    std::optional<double> usd_per_idle_chip_hour;     // all-in, an idle one (cloud: the same price)
    std::optional<PowerReport> idle_power_per_chip;   // when idle_chips > 0 and the power is known
    std::optional<double> capex_usd_per_chip_hour;   // owned
    std::optional<double> energy_usd_per_chip_hour;  // owned
    // Absent when the chip's power is not known (no tdp_w in its preset or cost.tdp_w 0): then
    // every energy figure is absent too, never a silent 0 J.
    std::optional<PowerReport> power_per_chip;

    // inference
    std::optional<double> usd_per_m_input_tokens;
    std::optional<double> usd_per_m_output_tokens;
    std::optional<double> usd_per_request;
    std::optional<double> output_tokens_per_usd;
    std::optional<double> joules_per_output_token;   // IT energy (chips, hosts, network) ÷ output tokens
    std::optional<double> joules_per_request;

    // training
    std::optional<double> usd_per_step;
    std::optional<double> energy_kwh_per_step;       // IT energy
    // The run of workload.train_tokens; all four absent when it is not given.
    std::optional<double> steps;
    std::optional<double> usd_total;
    std::optional<double> energy_kwh;                // IT energy of the run
    std::optional<double> facility_energy_kwh;       // × PUE
    std::optional<double> chip_hours;
    std::optional<double> tokens_per_usd;

    std::optional<PackageCost> package;
    std::vector<std::string> assumptions;
};

}  // namespace envelope
