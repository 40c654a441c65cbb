// Llama-style decoders from their Hugging Face configs: RMSNorm, rotary positions, a gated
// (SwiGLU) MLP, grouped-query attention; and their mixture-of-experts descendants.
// Field names and defaults are those of transformers' LlamaConfig, MistralConfig,
// Qwen2Config, Qwen3Config, MixtralConfig, Qwen2MoeConfig, Qwen3MoeConfig, Llama4TextConfig,
// DeepseekV2Config and DeepseekV3Config; which layers are mixtures follows each model's
// decoder-layer rule.
#include <algorithm>
#include <optional>

#include "io/hf_families.hpp"
#include "io/schema_limits.hpp"

namespace envelope::hf {

using namespace limits;

namespace {

struct Base {
    Trunk trunk;
    LayerSpec layer;   // the dense layer: attention and a SwiGLU MLP of intermediate_size
    std::vector<int64_t> windows;  // each layer's sliding window, 0: full attention
    bool tied = false;
};

// Every family here has these fields; tie_word_embeddings defaults to false in each of
// their config classes (unlike PretrainedConfig's true).
Base read_base(HfFields& f, Notes& notes) {
    read_common(f, notes);
    Base b;
    b.trunk = read_trunk(f);
    b.layer.attention = read_attention(f, b.trunk.hidden, {"num_key_value_heads"});
    b.layer.ffn.ffn = f.count({"intermediate_size"}, 1, kMaxWidth);
    b.layer.ffn.gated = true;
    b.layer.norm = NormKind::rmsnorm;
    b.tied = f.flag("tie_word_embeddings", false);
    b.windows = read_windows(f, b.trunk.layers, notes);
    return b;
}

Model assemble(const Base& b, std::vector<LayerGroup> groups) {
    Model m;
    m.hidden = b.trunk.hidden;
    m.vocab = b.trunk.vocab;
    m.tied_embeddings = b.tied;
    m.max_seq_len = b.trunk.max_seq_len;
    m.final_norm = NormKind::rmsnorm;
    m.groups = std::move(groups);
    return m;
}


double qkv_width(const AttentionSpec& a) { return static_cast<double>(a.q_dim() + 2 * a.kv_dim()); }

// Biases on some linear layers only: the schema has them on every one or on none.
void note_partial_bias(const char* field, const std::string& which, double per_layer, int64_t layers, Notes& notes) {
    notes.push_back(std::string(field) + ": the biases of " + which + " (" + grouped(per_layer) + " parameters per layer, " +
                    grouped(per_layer * static_cast<double>(layers)) +
                    " in all) are not counted: Envelope puts biases on every linear layer or on none");
}

// Llama's attention_bias (Q, K, V, O) and mlp_bias (gate, up, down).
void read_llama_biases(HfFields& f, Base& b, Notes& notes) {
    const bool attention = f.flag("attention_bias", false);
    const bool mlp = f.flag("mlp_bias", false);
    const AttentionSpec& a = b.layer.attention;
    const double h = static_cast<double>(b.trunk.hidden);
    if (attention && mlp) {
        b.layer.linear_bias = true;
    } else if (attention) {
        note_partial_bias("attention_bias", "Q, K, V and O", qkv_width(a) + h, b.trunk.layers, notes);
    } else if (mlp) {
        note_partial_bias("mlp_bias", "the MLP", 2.0 * static_cast<double>(b.layer.ffn.ffn) + h, b.trunk.layers, notes);
    }
}

// Qwen3 normalises each head's queries and keys (q_norm, k_norm: RMSNorm over head_dim).
void note_qk_norm(const Base& b, Notes& notes) {
    const double per_layer = 2.0 * static_cast<double>(b.layer.attention.head_dim);
    notes.push_back("q_norm and k_norm (" + grouped(per_layer) + " parameters per layer, " +
                    grouped(per_layer * static_cast<double>(b.trunk.layers)) +
                    " in all) are not counted; their cost is that of a norm over Q and K");
}

// Qwen2's Q, K and V projections always have biases, O and the MLP none.
void note_qwen2_bias(const Base& b, Notes& notes) {
    notes.push_back("Qwen2 has biases on Q, K and V (" + grouped(qkv_width(b.layer.attention)) +
                    " parameters per layer, " + grouped(qkv_width(b.layer.attention) * static_cast<double>(b.trunk.layers)) +
                    " in all), which are not counted: Envelope puts biases on every linear layer or on none");
}

// The routed experts of a Qwen or Mixtral mixture layer.
MoeSpec read_experts(HfFields& f, const char* experts_key, int64_t expert_ffn) {
    MoeSpec moe;
    moe.experts = f.count({experts_key}, 1, 100'000);
    moe.top_k = f.count({"num_experts_per_tok"}, 1, moe.experts);
    moe.expert_ffn = expert_ffn;
    return moe;
}

// Layers marked in is_moe run `moe` in place of the dense MLP; each its own window.
std::vector<LayerGroup> mixture_layers(const Base& b, const MoeSpec& moe, const std::vector<bool>& is_moe) {
    std::vector<LayerSpec> layers;
    layers.reserve(is_moe.size());
    for (std::size_t i = 0; i < is_moe.size(); ++i) {
        LayerSpec l = b.layer;
        if (is_moe[i]) l.ffn.moe = moe;
        l.attention.window = b.windows[i];
        layers.push_back(l);
    }
    return group_layers(layers);
}

Model dense(const Base& b) {
    const std::vector<bool> none(static_cast<std::size_t>(b.trunk.layers), false);
    return assemble(b, mixture_layers(b, MoeSpec{}, none));
}

// Qwen2-MoE and Qwen3-MoE: layer i is a mixture unless listed in mlp_only_layers, and only
// every decoder_sparse_step-th layer ((i + 1) % step == 0).
std::vector<bool> qwen_moe_layers(HfFields& f, int64_t layers) {
    const int64_t step = f.optional_count({"decoder_sparse_step"}, 1, kMaxLayers).value_or(1);
    const std::vector<bool> mlp_only = layer_set(f, "mlp_only_layers", layers);
    std::vector<bool> is_moe(static_cast<std::size_t>(layers));
    for (int64_t i = 0; i < layers; ++i) {
        is_moe[static_cast<std::size_t>(i)] = !mlp_only[static_cast<std::size_t>(i)] && (i + 1) % step == 0;
    }
    return is_moe;
}

}  // namespace

Model read_llama(HfFields& f, Notes& notes) {
    Base b = read_base(f, notes);
    read_llama_biases(f, b, notes);
    return dense(b);
}

Model read_mistral(HfFields& f, Notes& notes) { return dense(read_base(f, notes)); }

// Gemma 2 and 3: a gated GELU MLP, local (sliding-window) and global layers. Without
// layer_types, one layer in `pattern` is global (Gemma 2: every other; Gemma 3:
// sliding_window_pattern, default 6), as transformers' Gemma2/Gemma3 configs do it.
Model read_gemma(HfFields& f, Notes& notes, int64_t pattern_default) {
    const bool typed = f.has({"layer_types"});
    Base b = read_base(f, notes);
    b.tied = f.flag("tie_word_embeddings", true);  // Gemma's config classes tie them
    if (!typed) {
        const int64_t window = f.optional_count({"sliding_window"}, 0, kMaxTokens).value_or(0);
        const int64_t pattern = f.optional_count({"sliding_window_pattern"}, 1, kMaxLayers).value_or(pattern_default);
        for (std::size_t i = 0; i < b.windows.size(); ++i) {
            b.windows[i] = (static_cast<int64_t>(i) + 1) % pattern != 0 ? window : 0;
        }
    }
    f.ignore({"sliding_window_pattern", "attn_logit_softcapping", "final_logit_softcapping", "query_pre_attn_scalar",
              "hidden_activation", "rope_local_base_freq", "cache_implementation"});
    notes.push_back("Gemma's post-attention and post-MLP RMSNorms (" +
                    grouped(2.0 * static_cast<double>(b.trunk.hidden) * static_cast<double>(b.trunk.layers)) +
                    " parameters in all), its logit soft-capping and (Gemma 3) QK-norm are not modelled");
    return dense(b);
}

Model read_gemma2(HfFields& f, Notes& notes) { return read_gemma(f, notes, 2); }
Model read_gemma3(HfFields& f, Notes& notes) { return read_gemma(f, notes, 6); }

Model read_qwen2(HfFields& f, Notes& notes) {
    const Base b = read_base(f, notes);
    note_qwen2_bias(b, notes);
    return dense(b);
}

Model read_qwen3(HfFields& f, Notes& notes) {
    Base b = read_base(f, notes);
    read_llama_biases(f, b, notes);
    note_qk_norm(b, notes);
    return dense(b);
}

Model read_mixtral(HfFields& f, Notes& notes) {
    Base b = read_base(f, notes);
    // Every layer is a mixture of experts of intermediate_size; ffn is kept for the schema.
    const MoeSpec moe = read_experts(f, "num_local_experts", b.layer.ffn.ffn);
    return assemble(b, mixture_layers(b, moe, std::vector<bool>(static_cast<std::size_t>(b.trunk.layers), true)));
}

Model read_qwen2_moe(HfFields& f, Notes& notes) {
    Base b = read_base(f, notes);
    note_qwen2_bias(b, notes);
    MoeSpec moe = read_experts(f, "num_experts", f.count({"moe_intermediate_size"}, 1, kMaxWidth));
    // One shared expert of shared_expert_intermediate_size; the schema's shared experts are
    // each of the routed experts' width, so the width becomes a count of them.
    const int64_t shared = f.optional_count({"shared_expert_intermediate_size"}, 0, kMaxWidth).value_or(0);
    if (shared > 0) {
        moe.shared_experts = std::max<int64_t>(1, (shared + moe.expert_ffn / 2) / moe.expert_ffn);
        if (moe.shared_experts * moe.expert_ffn != shared) {
            notes.push_back("shared_expert_intermediate_size " + std::to_string(shared) + " is not a multiple of "
                            "moe_intermediate_size " + std::to_string(moe.expert_ffn) + ": costed as " +
                            std::to_string(moe.shared_experts) + " shared experts, width " +
                            std::to_string(moe.shared_experts * moe.expert_ffn));
        }
        notes.push_back("the shared expert's gate (shared_expert_gate, " + grouped(static_cast<double>(b.trunk.hidden)) +
                        " parameters per mixture layer) is not counted");
    }
    return assemble(b, mixture_layers(b, moe, qwen_moe_layers(f, b.trunk.layers)));
}

Model read_qwen3_moe(HfFields& f, Notes& notes) {
    Base b = read_base(f, notes);
    read_llama_biases(f, b, notes);
    note_qk_norm(b, notes);
    const MoeSpec moe = read_experts(f, "num_experts", f.count({"moe_intermediate_size"}, 1, kMaxWidth));
    return assemble(b, mixture_layers(b, moe, qwen_moe_layers(f, b.trunk.layers)));
}

// Llama 4: every mixture layer has num_local_experts routed experts and one shared expert,
// all of intermediate_size; the other layers a dense MLP of intermediate_size_mlp. The
// mixture layers are moe_layers, or by default every interleave_moe_layer_step-th layer.
Model read_llama4_text(HfFields& f, Notes& notes) {
    Base b = read_base(f, notes);
    MoeSpec moe = read_experts(f, "num_local_experts", b.layer.ffn.ffn);
    moe.shared_experts = 1;
    const int64_t layers = b.trunk.layers;
    std::vector<bool> is_moe;
    if (f.has({"moe_layers"})) {
        is_moe = layer_set(f, "moe_layers", layers);
    } else {
        const int64_t step = f.optional_count({"interleave_moe_layer_step"}, 1, kMaxLayers).value_or(1);
        for (int64_t i = 0; i < layers; ++i) is_moe.push_back((i + 1) % step == 0);
    }
    f.ignore({"interleave_moe_layer_step"});
    bool any_dense = false;
    for (const bool m : is_moe) any_dense = any_dense || !m;
    if (any_dense) b.layer.ffn.ffn = f.count({"intermediate_size_mlp"}, 1, kMaxWidth);
    else f.ignore({"intermediate_size_mlp"});
    if (const std::optional<int64_t> chunk = f.optional_count({"attention_chunk_size"}, 1, kMaxTokens)) {
        notes.push_back("attention_chunk_size " + std::to_string(*chunk) +
                        " (chunked attention on the RoPE layers) is not modelled yet: full attention assumed");
    }
    // QK norm is a weightless L2 norm; NoPE layers and temperature tuning change no size.
    f.ignore({"use_qk_norm", "no_rope_layers", "no_rope_layer_interval", "attn_temperature_tuning", "floor_scale",
              "attn_scale"});
    return assemble(b, mixture_layers(b, moe, is_moe));
}

// DeepSeek-V2 and V3: multi-head latent attention (arXiv:2405.04434 §2.1) and DeepSeekMoE.
// Layer i is a mixture when i ≥ first_k_dense_replace and i is a multiple of moe_layer_freq;
// the others are dense of intermediate_size. The shared experts have the routed experts' width.
Model read_deepseek(HfFields& f, Notes& notes) {
    Base b = read_base(f, notes);
    read_llama_biases(f, b, notes);
    MlaSpec& mla = b.layer.attention.mla;
    mla.kv_lora_rank = f.count({"kv_lora_rank"}, 1, kMaxWidth);
    // null (DeepSeek-V2-Lite): the queries come straight from the hidden state.
    mla.q_lora_rank = f.optional_count({"q_lora_rank"}, 0, kMaxWidth).value_or(0);
    mla.qk_rope_dim = f.count({"qk_rope_head_dim"}, 0, kMaxWidth);
    mla.qk_nope_dim = f.count({"qk_nope_head_dim"}, 1, kMaxWidth);
    mla.v_head_dim = f.count({"v_head_dim"}, 1, kMaxWidth);
    // Not used by latent attention; written as the presets write it, a head's query width.
    b.layer.attention.head_dim = mla.qk_dim();
    f.ignore({"head_dim"});

    std::vector<bool> is_moe(static_cast<std::size_t>(b.trunk.layers), false);
    MoeSpec moe;
    if (f.has({"n_routed_experts"})) {
        moe = read_experts(f, "n_routed_experts", f.count({"moe_intermediate_size"}, 1, kMaxWidth));
        moe.shared_experts = f.optional_count({"n_shared_experts"}, 0, 1'000).value_or(0);
        const int64_t first = f.optional_count({"first_k_dense_replace"}, 0, b.trunk.layers).value_or(0);
        const int64_t freq = f.optional_count({"moe_layer_freq"}, 1, kMaxLayers).value_or(1);
        for (int64_t i = first; i < b.trunk.layers; ++i) is_moe[static_cast<std::size_t>(i)] = i % freq == 0;
    }
    if (const std::optional<int64_t> mtp = f.optional_count({"num_nextn_predict_layers"}, 0, kMaxLayers); mtp && *mtp > 0) {
        notes.push_back("the multi-token-prediction module (num_nextn_predict_layers " + std::to_string(*mtp) +
                        ") is not counted: it serves training and speculative decoding");
    }
    if (f.text("topk_method") == "noaux_tc") {
        notes.push_back("the router's bias terms (e_score_correction_bias, " + grouped(static_cast<double>(moe.experts)) +
                        " per mixture layer) are not counted");
    }
    if (const std::optional<int64_t> groups = f.optional_count({"n_group"}, 0, 100'000); groups && *groups > 1) {
        notes.push_back("group-limited routing (n_group " + std::to_string(*groups) +
                        ", topk_group) is not modelled: the experts a step hits are those of uniform routing");
    }
    // Routing's scaling and scoring change no size; ep_size is a deployment hint.
    f.ignore({"topk_group", "routed_scaling_factor", "scoring_func", "aux_loss_alpha", "seq_aux", "ep_size"});
    return assemble(b, mixture_layers(b, moe, is_moe));
}

}  // namespace envelope::hf
