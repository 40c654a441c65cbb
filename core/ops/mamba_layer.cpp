// A Mamba mixer on one chip (model/model.hpp MambaSpec; layer_shard.hpp for the shapes),
// T = b·n tokens, d the inner channels and C the convolution's channels on the chip, N =
// d_state, K = d_conv:
//   in_proj   [T × h]·[h × in_width/tp]                       x and z (Mamba-2: and B, C, Δ)
//   conv1d    depthwise causal over K taps: 2·K FLOPs per (token, channel), C channels
//   x_proj    Mamba-1: [T × d]·[d × (dt_rank + 2N)] (Δ, B, C per token), dt_proj [T × dt_rank]·[dt_rank × d]
//   ssm_scan  9 FLOPs per (token, channel, state element); reads x, Δ, B, C, writes y; in
//             decode it reads and writes the sequence's state (the scan's d·N and the
//             convolution's (K − 1)·C), in prefill and training it writes it once
//   ssm_gate  y·SiLU(z) (Mamba-2 also normalises it)
// then out_proj [T × d]·[d × h] (decoder_layer.cpp) and the TP reduction after it. Costs follow
// the recurrent form of Gu & Dao 2023 (Algorithm 2); Mamba-2's chunked SSD kernel does the
// same work as small matmuls.
#include "ops/builders.hpp"
#include "ops/elementwise_costs.hpp"
#include "ops/lower.hpp"

namespace envelope {

void lower_mamba_mixer(const LowerInput& in, const MambaSpec& spec, const LayerShard& s, double layers,
                       std::vector<Op>& out) {
    const Pass& p = in.pass;
    const PrecisionPlan& pr = in.precision;
    const double b = static_cast<double>(p.batch);
    const double tokens = b * static_cast<double>(p.new_tokens);
    const double d = static_cast<double>(s.inner), c = static_cast<double>(s.conv_channels);
    const double n = static_cast<double>(spec.d_state), k = static_cast<double>(spec.d_conv);
    const auto gemm = [&](const WeightMatrix& w) {
        return build::matmul(w.name, layers, tokens, w.k, w.n, pr.weights, pr.activations, pr.residual, w.bias);
    };

    out.push_back(gemm(s.in_proj));
    out.push_back(build::vector("conv1d", layers, constant(tokens * c), constant(tokens * c),
                                elementwise_flops::kConvPerTap * k, pr.residual, c * (k + 1), pr.weights));
    if (!spec.v2()) {
        out.push_back(gemm(s.x_proj));
        out.push_back(gemm(s.dt_proj));
    }
    // The scan reads x, Δ (one per channel, or per head), B and C and writes y.
    const double bc = spec.v2() ? 2 * static_cast<double>(spec.n_groups) * n / static_cast<double>(s.tp) : 2 * n;
    Op scan = build::vector("ssm_scan", layers, constant(tokens * (2 * d + bc)), constant(tokens * d),
                            elementwise_flops::kScanPerState * n, pr.residual);
    const double state_bytes = b * static_cast<double>(s.state_width) * bytes_per_element(pr.kv_cache);
    if (p.decode) scan.traffic.kv_read = constant(state_bytes);
    if (!p.training) scan.traffic.kv_written = constant(state_bytes);
    out.push_back(scan);
    out.push_back(build::vector("ssm_gate", layers, constant(2 * tokens * d), constant(tokens * d),
                                elementwise_flops::kSiluMul + (spec.v2() ? elementwise_flops::kRmsNorm : 0.0),
                                pr.residual, spec.v2() ? d : 0.0, pr.weights));
}

}  // namespace envelope
