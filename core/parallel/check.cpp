#include "parallel/check.hpp"

#include <string>

#include "common/error.hpp"
#include "parallel/expert_layout.hpp"

namespace envelope {

namespace {

std::string str(int64_t v) { return std::to_string(v); }

void check_tp(int64_t tp, const Model& m) {
    for (std::size_t i = 0; i < m.groups.size(); ++i) {
        const AttentionSpec& a = m.groups[i].layer.attention;
        const std::string where = m.groups.size() == 1 ? "model" : "model.layer_groups[" + str(static_cast<int64_t>(i)) + "]";
        if (const MambaSpec& mb = m.groups[i].layer.mamba; mb.on()) {
            // Its channels (and Mamba-2's heads and groups) split over TP like attention heads.
            for (const auto& [name, value] : {std::pair<const char*, int64_t>{"d_inner", mb.d_inner},
                                              {"heads", mb.v2() ? mb.heads : tp},
                                              {"n_groups", mb.v2() ? mb.n_groups : tp}}) {
                if (value % tp != 0) {
                    throw InputError("parallelism.tp", "TP = " + str(tp) + " must divide " + where + ".mamba." + name +
                                                           " = " + str(value));
                }
            }
            continue;
        }
        if (a.heads % tp != 0) {
            throw InputError("parallelism.tp", "TP = " + str(tp) + " must divide " + where + ".heads = " + str(a.heads));
        }
        if (a.kv_heads % tp != 0 && tp % a.kv_heads != 0) {
            throw InputError("parallelism.tp", "TP = " + str(tp) + " and " + where + ".kv_heads = " + str(a.kv_heads) +
                                                   ": one must divide the other");
        }
    }
}

void check_stages(const Parallelism& p, const Model& m) {
    const int64_t layers = m.layers();
    if (p.pp > layers) {
        throw InputError("parallelism.pp", "PP = " + str(p.pp) + " stages need at least one layer each; " + m.name +
                                               " has " + str(layers));
    }
    if (p.stage_layers.empty()) return;
    if (static_cast<int64_t>(p.stage_layers.size()) != p.pp) {
        throw InputError("parallelism.stage_layers", "has " + str(static_cast<int64_t>(p.stage_layers.size())) +
                                                         " entries; it needs one per pipeline stage (pp = " +
                                                         str(p.pp) + ")");
    }
    int64_t sum = 0;
    for (int64_t n : p.stage_layers) sum += n;
    if (sum != layers) {
        throw InputError("parallelism.stage_layers",
                         "adds up to " + str(sum) + " layers; " + m.name + " has " + str(layers));
    }
}

void check_ep(int64_t ep, const Model& m) {
    bool moe = false;
    for (std::size_t i = 0; i < m.groups.size(); ++i) {
        const FfnSpec& f = m.groups[i].layer.ffn;
        if (!f.is_moe()) continue;
        moe = true;
        if (f.moe.experts % ep != 0) {
            throw InputError("parallelism.ep", "EP = " + str(ep) + " must divide the " + str(f.moe.experts) +
                                                   " experts of " + m.name);
        }
    }
    if (ep > 1 && !moe) {
        throw InputError("parallelism.ep", "EP = " + str(ep) + " needs a mixture-of-experts model; " + m.name +
                                               " has none");
    }
}

// The expert side (parallel/expert_layout.hpp): a folded layout's etp · ep chips must tile
// the attention's tp · cp · dp ranks and cover whole TP groups (or lie inside one).
void check_experts(const Parallelism& p, const Model& m) {
    bool moe = false;
    for (const LayerGroup& g : m.groups) moe = moe || g.layer.ffn.is_moe();
    if (p.moe_tp > 1 && !moe) {
        throw InputError("parallelism.moe_tp", "moe_tp = " + str(p.moe_tp) + " needs a mixture-of-experts model; " +
                                                   m.name + " has none");
    }
    const ExpertLayout e = expert_layout(p);
    if (!e.folded) return;
    const int64_t attention = p.tp * p.cp * p.dp;
    const std::string shape = "EP × moe_tp = " + str(p.ep) + " × " + str(e.etp) + " = " + str(e.group());
    if (attention % e.group() != 0) {
        throw InputError(p.moe_tp > 0 ? "parallelism.moe_tp" : "parallelism.ep",
                         shape + " must divide TP × CP × DP = " + str(attention) +
                             " (the experts are folded over the attention's chips)");
    }
    if (e.group() % p.tp != 0 && p.tp % e.group() != 0) {
        throw InputError(p.moe_tp > 0 ? "parallelism.moe_tp" : "parallelism.ep",
                         shape + " and TP = " + str(p.tp) + ": one must divide the other");
    }
    if (e.group() < p.tp) {
        throw InputError(p.moe_tp > 0 ? "parallelism.moe_tp" : "parallelism.ep",
                         shape + " is less than TP = " + str(p.tp) +
                             ": the experts must cover the whole TP group (TensorRT-LLM: moe_tp × moe_ep = tp)");
    }
    if (p.tp % e.etp != 0 && e.etp % p.tp != 0) {
        throw InputError("parallelism.moe_tp", "moe_tp = " + str(e.etp) + " and TP = " + str(p.tp) +
                                                   ": one must divide the other");
    }
}

}  // namespace

void check_parallelism(const Parallelism& p, const Model& m, const System& sys) {
    check_tp(p.tp, m);
    check_ep(p.ep, m);
    check_experts(p, m);
    const int64_t chips = p.chips();
    if (chips > sys.count) {
        throw InputError("parallelism", "tp × cp × dp × pp = " + str(chips) + " needs more chips than system.count = " +
                                            str(sys.count));
    }
    check_stages(p, m);
}

}  // namespace envelope
