#pragma once
// The electrical power a chip draws while it runs the modelled operators.
//
// Between its idle power and its board limit (TDP), a chip's draw grows with how hard its
// matrix units and its memory are driven:
//
//   P = P_idle + (P_tdp − P_idle) · min(1, u_compute + s_memory · u_memory)
//
// u_compute: the op's FLOP/s over what the chip reaches in that format (peak × matrix
// efficiency), u_memory: its HBM bytes/s over the achievable bandwidth, s_memory: the
// share of the dynamic power a kernel streaming HBM at full speed draws. A large GEMM
// (u_compute ≈ 1) runs at the power limit, as training and prefill do; memory-bound decode
// draws far less (H200 decode: 137–300 W of 700 W, Ma et al. 2026, arXiv 2605.11999).
// METHODOLOGY.md § Energy.
#include <vector>

#include "hardware/chip.hpp"
#include "result.hpp"

namespace envelope {

struct ChipPower {
    double tdp_w = 0;
    double idle_w = 0;
    double memory_share = 0;  // s_memory above
};

// The fraction of the dynamic power (0–1) one op draws while it runs.
double op_activity(const OpReport& op, const Chip& chip, double memory_share);

// Joules one chip spends above idle over the listed phases (mean over pipeline stages:
// each stage's ops are listed, `stages` of them). `weights[i]` scales phase i (the number
// of times it runs in the period costed); collectives and host work draw no extra power
// here (the network's power is the system's, per chip).
double dynamic_energy_j(const std::vector<PhaseReport>& phases, const std::vector<double>& weights, const Chip& chip,
                        const ChipPower& power, double stages);

}  // namespace envelope
