// GPT-style decoders from their Hugging Face configs: LayerNorm, a plain (GELU or ReLU) MLP,
// usually biases on every linear layer. Field names and defaults are those of
// transformers' GPT2Config, GPTNeoXConfig, OPTConfig and FalconConfig (and the older
// RefinedWeb configs Falcon was first published with).
#include <optional>

#include "io/hf_families.hpp"
#include "io/schema_limits.hpp"

namespace envelope::hf {

using namespace limits;

namespace {

LayerSpec plain_layer(const AttentionSpec& a, int64_t ffn, bool bias) {
    LayerSpec l;
    l.attention = a;
    l.ffn.ffn = ffn;
    l.ffn.gated = false;
    l.norm = NormKind::layernorm;
    l.linear_bias = bias;
    return l;
}

Model assemble(const Trunk& t, const LayerSpec& layer, bool tied) {
    Model m;
    m.hidden = t.hidden;
    m.vocab = t.vocab;
    m.tied_embeddings = tied;
    m.max_seq_len = t.max_seq_len;
    m.final_norm = NormKind::layernorm;
    m.groups = {LayerGroup{layer, t.layers}};
    return m;
}

// Learned absolute positions: a table of `rows` × hidden, which the parameter count leaves
// out (model/params.hpp) and which costs a gather, not a matrix product.
void note_learned_positions(int64_t rows, int64_t hidden, Notes& notes) {
    notes.push_back("learned position embeddings (" + std::to_string(rows) + " × " + std::to_string(hidden) + " = " +
                    grouped(static_cast<double>(rows) * static_cast<double>(hidden)) +
                    " parameters) are not counted");
}

}  // namespace

Model read_gpt2(HfFields& f, Notes& notes) {
    read_common(f, notes);
    const Trunk t = read_trunk(f);
    const AttentionSpec a = read_attention(f, t.hidden, {});
    // n_inner: null means 4 × n_embd (GPT2MLP).
    const int64_t ffn = f.optional_count({"n_inner"}, 1, kMaxWidth).value_or(4 * t.hidden);
    // PretrainedConfig's default: GPT-2 shares the embedding with the LM head.
    const bool tied = f.flag("tie_word_embeddings", true);
    f.ignore({"n_ctx", "scale_attn_weights", "scale_attn_by_inverse_layer_idx", "reorder_and_upcast_attn",
              "summary_type", "summary_use_proj", "summary_activation", "summary_proj_to_labels"});
    note_learned_positions(t.max_seq_len > 0 ? t.max_seq_len : 1024, t.hidden, notes);
    return assemble(t, plain_layer(a, ffn, true), tied);
}

Model read_gpt_neox(HfFields& f, Notes& notes) {
    read_common(f, notes);
    const Trunk t = read_trunk(f);
    const AttentionSpec a = read_attention(f, t.hidden, {});
    const int64_t ffn = f.count({"intermediate_size"}, 1, kMaxWidth);
    // The MLP always has biases; attention_bias (default true) the attention's.
    const bool attention_bias = f.flag("attention_bias", true);
    if (!attention_bias) {
        const double per_layer = 2.0 * static_cast<double>(ffn) + static_cast<double>(t.hidden);
        notes.push_back("attention_bias false: the MLP's biases (" + grouped(per_layer) + " parameters per layer) are "
                        "not counted either: Envelope puts biases on every linear layer or on none");
    }
    const bool tied = f.flag("tie_word_embeddings", false);
    // The parallel residual (the default) runs attention and MLP side by side.
    LayerSpec layer = plain_layer(a, ffn, attention_bias);
    layer.parallel_block = f.flag("use_parallel_residual", true);
    return assemble(t, layer, tied);
}

Model read_opt(HfFields& f, Notes& notes) {
    read_common(f, notes);
    const Trunk t = read_trunk(f);
    const AttentionSpec a = read_attention(f, t.hidden, {});
    const int64_t ffn = f.count({"ffn_dim"}, 1, kMaxWidth);
    const bool bias = f.flag("enable_bias", true);
    const bool tied = f.flag("tie_word_embeddings", true);
    const int64_t proj = f.optional_count({"word_embed_proj_dim"}, 1, kMaxWidth).value_or(t.hidden);
    if (proj != t.hidden) {
        notes.push_back("word_embed_proj_dim " + std::to_string(proj) + " ≠ hidden_size " + std::to_string(t.hidden) +
                        ": the embedding is counted at hidden_size width, and project_in and project_out (" +
                        grouped(2.0 * static_cast<double>(proj) * static_cast<double>(t.hidden)) +
                        " parameters) are left out");
    }
    if (!f.flag("do_layer_norm_before", true)) {
        notes.push_back("do_layer_norm_before false (post-norm): the same operators; the final norm is counted "
                        "though this model has none");
    }
    // OPT's position table has two extra rows (its padding offset).
    note_learned_positions((t.max_seq_len > 0 ? t.max_seq_len : 2048) + 2, t.hidden, notes);
    f.ignore({"layer_norm_elementwise_affine", "_remove_final_layer_norm", "init_std", "layerdrop"});
    return assemble(t, plain_layer(a, ffn, bias), tied);
}

namespace {

// Falcon: multi-query attention in the first design (new_decoder_architecture false: one
// KV head when multi_query), grouped KV heads in the new one (Falcon-40B/180B).
// model_type "RefinedWeb" is the new design under its old name, "RefinedWebModel" the first.
Model read_falcon_kind(HfFields& f, Notes& notes, std::optional<bool> new_design) {
    read_common(f, notes);
    Trunk t = read_trunk(f);
    // FalconConfig's default context; the first configs did not state it.
    if (t.max_seq_len == 0) t.max_seq_len = 2048;
    const bool design = new_design.value_or(f.flag("new_decoder_architecture", false));
    f.ignore({"new_decoder_architecture"});
    AttentionSpec a;
    if (design) {
        a = read_attention(f, t.hidden, {"num_kv_heads", "n_head_kv"});
        f.ignore({"multi_query"});
    } else {
        a = read_attention(f, t.hidden, {});
        if (f.flag("multi_query", true)) a.kv_heads = 1;
        f.ignore({"num_kv_heads", "n_head_kv"});  // unused by the first design
    }
    const int64_t ffn = f.optional_count({"ffn_hidden_size"}, 1, kMaxWidth).value_or(4 * t.hidden);
    const bool bias = f.flag("bias", false);
    const bool tied = f.flag("tie_word_embeddings", true);
    const bool parallel = f.flag("parallel_attn", true);
    const int64_t norms = design ? f.optional_count({"num_ln_in_parallel_attn"}, 1, 2).value_or(2) : (parallel ? 1 : 2);
    if (norms == 1) {
        notes.push_back("one LayerNorm per layer (parallel attention): Envelope counts two (" +
                        grouped(2.0 * static_cast<double>(t.hidden) * static_cast<double>(t.layers)) +
                        " parameters more in all)");
    }
    // ALiBi adds no parameters; the residual placement changes no operator.
    f.ignore({"alibi", "apply_residual_connection_post_layernorm", "num_ln_in_parallel_attn"});
    LayerSpec layer = plain_layer(a, ffn, bias);
    layer.parallel_block = parallel;  // one TP reduction per layer
    return assemble(t, layer, tied);
}

}  // namespace

Model read_falcon(HfFields& f, Notes& notes) { return read_falcon_kind(f, notes, std::nullopt); }
Model read_refined_web(HfFields& f, Notes& notes) { return read_falcon_kind(f, notes, true); }
Model read_refined_web_model(HfFields& f, Notes& notes) { return read_falcon_kind(f, notes, false); }

}  // namespace envelope::hf
