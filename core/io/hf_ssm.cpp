// State-space models from their Hugging Face configs: Mamba (MambaConfig), Mamba-2
// (Mamba2Config) and the Jamba hybrid (JambaConfig), with transformers' defaults.
#include <cmath>

#include "common/error.hpp"
#include "io/hf_families.hpp"
#include "io/schema_limits.hpp"

namespace envelope::hf {

using namespace limits;

namespace {

// time_step_rank / mamba_dt_rank: a number, or "auto" = ⌈hidden / 16⌉ (MambaConfig).
int64_t dt_rank(HfFields& f, const char* key, int64_t hidden) {
    const Json* v = f.find({key});
    if (!v || (v->is_string() && v->get<std::string>() == "auto")) return (hidden + 15) / 16;
    return f.count({key}, 1, kMaxWidth);
}

// Mamba's biases: the convolution's by default, the projections' only with use_bias; the
// schema has one switch for every linear layer of the layer, off here.
void note_biases(HfFields& f, const char* proj_key, Notes& notes) {
    if (f.flag(proj_key, false)) notes.push_back(std::string(proj_key) + " true: the projections' biases are not counted");
    f.ignore({"use_conv_bias", "mamba_conv_bias"});
}

Model trunk_model(const Trunk& t, bool tied) {
    Model m;
    m.hidden = t.hidden;
    m.vocab = t.vocab;
    m.tied_embeddings = tied;
    m.max_seq_len = t.max_seq_len;
    m.final_norm = NormKind::rmsnorm;
    return m;
}

// A block that is only its mixer (norm, Mamba, residual): no MLP.
LayerSpec mixer_only(const MambaSpec& mamba) {
    LayerSpec l;
    l.mamba = mamba;
    l.ffn.ffn = 0;
    return l;
}

}  // namespace

Model read_mamba(HfFields& f, Notes& notes) {
    read_common(f, notes);
    const Trunk t = read_trunk(f);
    MambaSpec m;
    const int64_t expand = f.optional_count({"expand"}, 1, 1000).value_or(2);
    m.d_inner = f.optional_count({"intermediate_size"}, 1, kMaxWidth).value_or(expand * t.hidden);
    m.d_state = f.optional_count({"state_size"}, 1, 100'000).value_or(16);
    m.d_conv = f.optional_count({"conv_kernel"}, 1, 1000).value_or(4);
    m.dt_rank = dt_rank(f, "time_step_rank", t.hidden);
    note_biases(f, "use_bias", notes);
    f.ignore({"time_step_scale", "time_step_min", "time_step_max", "time_step_init_scheme", "time_step_floor",
              "rescale_prenorm_residual", "residual_in_fp32", "use_mambapy", "hidden_act"});
    Model model = trunk_model(t, f.flag("tie_word_embeddings", true));
    model.groups = {LayerGroup{mixer_only(m), t.layers}};
    return model;
}

Model read_mamba2(HfFields& f, Notes& notes) {
    read_common(f, notes);
    const Trunk t = read_trunk(f);
    MambaSpec m;
    m.heads = f.count({"num_heads"}, 1, kMaxHeads);
    const int64_t head_dim = f.optional_count({"head_dim"}, 1, kMaxWidth).value_or(64);
    m.d_inner = m.heads * head_dim;
    const int64_t expand = f.optional_count({"expand"}, 1, 1000).value_or(2);
    if (expand * t.hidden != m.d_inner) {
        notes.push_back("expand × hidden_size = " + std::to_string(expand * t.hidden) + " but num_heads × head_dim = " +
                        std::to_string(m.d_inner) + ": the heads' width is used");
    }
    m.d_state = f.optional_count({"state_size"}, 1, 100'000).value_or(128);
    m.d_conv = f.optional_count({"conv_kernel"}, 1, 1000).value_or(4);
    m.n_groups = f.optional_count({"n_groups"}, 1, m.heads).value_or(8);
    if (m.heads % m.n_groups != 0) {
        throw InputError(f.path("n_groups"), "must divide num_heads = " + std::to_string(m.heads));
    }
    note_biases(f, "use_bias", notes);
    f.ignore({"time_step_rank", "time_step_min", "time_step_max", "time_step_floor", "time_step_limit", "chunk_size",
              "rescale_prenorm_residual", "residual_in_fp32", "norm_before_gate", "hidden_act"});
    Model model = trunk_model(t, f.flag("tie_word_embeddings", false));
    model.groups = {LayerGroup{mixer_only(m), t.layers}};
    return model;
}

// Jamba: attention every attn_layer_period layers (from attn_layer_offset), Mamba-1 elsewhere;
// a mixture of num_experts every expert_layer_period layers (from expert_layer_offset), a dense
// SwiGLU MLP elsewhere; every layer has an MLP.
Model read_jamba(HfFields& f, Notes& notes) {
    read_common(f, notes);
    const Trunk t = read_trunk(f);
    const AttentionSpec attention = read_attention(f, t.hidden, {"num_key_value_heads"});
    const int64_t ffn = f.count({"intermediate_size"}, 1, kMaxWidth);
    MambaSpec mamba;
    mamba.d_inner = f.optional_count({"mamba_expand"}, 1, 1000).value_or(2) * t.hidden;
    mamba.d_state = f.optional_count({"mamba_d_state"}, 1, 100'000).value_or(16);
    mamba.d_conv = f.optional_count({"mamba_d_conv"}, 1, 1000).value_or(4);
    mamba.dt_rank = dt_rank(f, "mamba_dt_rank", t.hidden);
    note_biases(f, "mamba_proj_bias", notes);
    MoeSpec moe;
    moe.experts = f.optional_count({"num_experts"}, 1, 100'000).value_or(16);
    moe.top_k = f.optional_count({"num_experts_per_tok"}, 1, moe.experts).value_or(2);
    moe.expert_ffn = ffn;
    const int64_t attn_period = f.optional_count({"attn_layer_period"}, 1, kMaxLayers).value_or(8);
    const int64_t attn_offset = f.optional_count({"attn_layer_offset"}, 0, attn_period - 1).value_or(4);
    const int64_t expert_period = f.optional_count({"expert_layer_period"}, 1, kMaxLayers).value_or(2);
    const int64_t expert_offset = f.optional_count({"expert_layer_offset"}, 0, expert_period - 1).value_or(1);
    std::vector<LayerSpec> layers;
    for (int64_t i = 0; i < t.layers; ++i) {
        LayerSpec l;
        if (i % attn_period == attn_offset) {
            l.attention = attention;
        } else {
            l.mamba = mamba;
        }
        l.ffn.ffn = ffn;
        l.ffn.gated = true;
        if (moe.experts > 1 && i % expert_period == expert_offset) l.ffn.moe = moe;
        layers.push_back(l);
    }
    notes.push_back("the RMSNorms on Δ, B and C inside each Mamba mixer (" +
                    grouped(static_cast<double>(mamba.dt_rank + 2 * mamba.d_state)) +
                    " parameters per Mamba layer) are not counted");
    f.ignore({"use_mamba_kernels", "router_aux_loss_coef", "output_router_logits", "num_logits_to_keep",
              "sliding_window", "hidden_act"});
    Model model = trunk_model(t, f.flag("tie_word_embeddings", false));
    model.groups = group_layers(layers);
    return model;
}

}  // namespace envelope::hf
