#include "model/adapters.hpp"

namespace envelope {

std::vector<Adapter> layer_adapters(const LayerShard& s, const Peft& p) {
    const double h = s.qkv.k > 0 ? s.qkv.k : s.up.k;  // the hidden width (the QKV's, or the MLP's input)
    const double ffn = static_cast<double>(s.ffn);
    std::vector<Adapter> out;
    for (LoraTarget t : p.targets) {
        switch (t) {
            case LoraTarget::q: out.push_back({t, h, static_cast<double>(s.q_dim)}); break;
            case LoraTarget::k:
            case LoraTarget::v: out.push_back({t, h, static_cast<double>(s.kv_dim)}); break;
            case LoraTarget::qkv: out.push_back({t, s.qkv.k, s.qkv.n}); break;
            case LoraTarget::out: out.push_back({t, s.out.k, s.out.n}); break;
            case LoraTarget::gate:
            case LoraTarget::up: out.push_back({t, s.up.k, ffn}); break;
            case LoraTarget::gate_up: out.push_back({t, s.up.k, s.up.n}); break;
            case LoraTarget::down: out.push_back({t, s.down.k, s.down.n}); break;
        }
    }
    return out;
}

double adapter_params(const std::vector<Adapter>& adapters, int64_t rank) {
    double n = 0;
    for (const Adapter& a : adapters) n += static_cast<double>(rank) * (a.k + a.n);
    return n;
}

double slice_adapter_params(const Model& m, const std::vector<LayerGroup>& groups, const Peft& p, int64_t tp,
                            int64_t ep, int64_t etp) {
    if (!p.on()) return 0;
    double n = 0;
    for (const LayerGroup& g : groups) {
        const LayerShard s = shard_layer(g.layer, m.hidden, tp, ep, etp);
        n += static_cast<double>(g.count) * adapter_params(layer_adapters(s, p), p.rank);
    }
    return n;
}

std::optional<Precision> base_precision(BaseFormat f) {
    switch (f) {
        case BaseFormat::bf16: return Precision::bf16;
        case BaseFormat::fp16: return Precision::fp16;
        case BaseFormat::fp8: return Precision::fp8;
        case BaseFormat::fp4: return Precision::fp4;
        case BaseFormat::nf4: return std::nullopt;
    }
    return std::nullopt;
}

// NF4 (QLoRA §3): blocks of 64 weights with one absmax constant; double quantization keeps
// those constants in 8 bits, with one fp32 constant per block of 256 of them.
constexpr double kNf4Bits = 4, kNf4Block = 64, kNf4ConstantBits = 32, kDqConstantBits = 8, kDqBlock = 256;

double base_bytes_per_param(const Peft& p) {
    if (const auto prec = base_precision(p.base)) return bytes_per_element(*prec);
    const double bits = p.double_quantization
                            ? kNf4Bits + kDqConstantBits / kNf4Block + kNf4ConstantBits / (kNf4Block * kDqBlock)
                            : kNf4Bits + kNf4ConstantBits / kNf4Block;
    return bits / 8;
}

double frozen_weight_bytes(const ParamCount& c, const Peft& p) {
    const double matrices = c.mixer + c.mlp + c.router + c.experts;
    return base_bytes_per_param(p) * matrices + 2 * (c.norms + c.embedding + c.lm_head + c.final_norm);
}

}  // namespace envelope
