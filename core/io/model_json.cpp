#include <string>

#include "common/error.hpp"
#include "io/json_reader.hpp"
#include "io/names.hpp"
#include "io/preset_ref.hpp"
#include "io/scenario_json.hpp"
#include "io/schema_limits.hpp"

namespace envelope {

using namespace limits;

namespace {

constexpr const char* kLayerFields[] = {"layers",    "heads",       "kv_heads", "head_dim",
                                        "ffn",       "gated_ffn",   "linear_bias", "moe", "sliding_window", "mla", "parallel_block", "mamba"};

// A mixture of experts: {"experts", "top_k", "expert_ffn", "shared_experts"}.
MoeSpec read_moe(const Json& v, const std::string& path) {
    JsonReader r(v, path);
    MoeSpec m;
    m.experts = r.integer("experts", 1, 100'000);
    m.top_k = r.integer("top_k", 1, m.experts);
    m.expert_ffn = r.integer("expert_ffn", 1, kMaxWidth);
    m.shared_experts = r.integer_or("shared_experts", 0, 1'000, 0);
    m.imbalance = r.number_or("imbalance", 1, 1000, 1);
    r.finish();
    return m;
}

// Multi-head latent attention: {"q_lora_rank" (0: none), "kv_lora_rank", "qk_rope_dim",
// "qk_nope_dim", "v_head_dim"}, the names of the measured-case format and DeepSeek's config.
MlaSpec read_mla(const Json& v, const std::string& path) {
    JsonReader r(v, path);
    MlaSpec m;
    m.q_lora_rank = r.integer_or("q_lora_rank", 0, kMaxWidth, 0);
    m.kv_lora_rank = r.integer("kv_lora_rank", 1, kMaxWidth);
    m.qk_rope_dim = r.integer("qk_rope_dim", 0, kMaxWidth);
    m.qk_nope_dim = r.integer("qk_nope_dim", 1, kMaxWidth);
    m.v_head_dim = r.integer("v_head_dim", 1, kMaxWidth);
    r.finish();
    return m;
}

// A Mamba mixer: {"d_inner", "d_state", "d_conv", "dt_rank" (Mamba-1), "heads" and
// "n_groups" (Mamba-2)}, the names of the Mamba configs (expand · d_model = d_inner).
MambaSpec read_mamba(const Json& v, const std::string& path) {
    JsonReader r(v, path);
    MambaSpec m;
    m.d_inner = r.integer("d_inner", 1, kMaxWidth);
    m.d_state = r.integer("d_state", 1, 100'000);
    m.d_conv = r.integer("d_conv", 1, 1'000);
    m.heads = r.integer_or("heads", 0, m.d_inner, 0);
    m.dt_rank = m.v2() ? r.integer_or("dt_rank", 0, 0, 0) : r.integer("dt_rank", 1, kMaxWidth);
    m.n_groups = m.v2() ? r.integer_or("n_groups", 1, m.heads, 1) : r.integer_or("n_groups", 1, 1, 1);
    if (m.v2() && m.heads % m.n_groups != 0) {
        throw InputError(r.path_of("n_groups"), "must divide heads = " + std::to_string(m.heads));
    }
    r.finish();
    return m;
}

NormKind read_norm(JsonReader& r) {
    return r.choice_or("norm", kNormKindNames, NormKind::rmsnorm);
}

// The layer's MLP (or mixture), norm and block form.
void read_ffn(JsonReader& r, LayerSpec& l) {
    // ffn 0 without experts: no MLP (a pure Mamba block).
    l.ffn.ffn = r.integer("ffn", l.mamba.on() ? 0 : 1, kMaxWidth);
    l.ffn.gated = r.boolean("gated_ffn");
    if (const Json* moe = r.optional_value("moe")) l.ffn.moe = read_moe(*moe, r.path_of("moe"));
    l.norm = read_norm(r);
    l.linear_bias = r.boolean_or("linear_bias", false);
    l.parallel_block = r.boolean_or("parallel_block", false);
}

// One layer spec's fields, from the model object itself (one group) or one entry of
// layer_groups.
LayerSpec read_layer(JsonReader& r) {
    LayerSpec l;
    if (const Json* mamba = r.optional_value("mamba")) {
        // A Mamba layer has no attention: its fields are refused rather than ignored.
        l.mamba = read_mamba(*mamba, r.path_of("mamba"));
        for (const char* key : {"heads", "kv_heads", "head_dim", "sliding_window", "mla"}) {
            if (r.has(key)) throw InputError(r.path_of(key), "a Mamba layer has no attention: leave it out");
        }
        read_ffn(r, l);
        return l;
    }
    AttentionSpec& a = l.attention;
    a.heads = r.integer("heads", 1, kMaxHeads);
    a.kv_heads = r.integer("kv_heads", 1, a.heads);
    if (a.heads % a.kv_heads != 0) {
        throw InputError(r.path_of("kv_heads"), "must divide heads = " + std::to_string(a.heads) +
                                                    " (each KV head serves heads / kv_heads query heads)");
    }
    a.head_dim = r.integer("head_dim", 1, kMaxWidth);
    a.window = r.integer_or("sliding_window", 0, kMaxTokens, 0);
    if (const Json* mla = r.optional_value("mla")) a.mla = read_mla(*mla, r.path_of("mla"));
    read_ffn(r, l);
    return l;
}

void write_attention(const AttentionSpec& a, Json& out) {
    out["heads"] = a.heads;
    out["kv_heads"] = a.kv_heads;
    out["head_dim"] = a.head_dim;
    if (a.window > 0) out["sliding_window"] = a.window;
    if (a.mla.on()) {
        const MlaSpec& m = a.mla;
        out["mla"] = {{"q_lora_rank", m.q_lora_rank},
                      {"kv_lora_rank", m.kv_lora_rank},
                      {"qk_rope_dim", m.qk_rope_dim},
                      {"qk_nope_dim", m.qk_nope_dim},
                      {"v_head_dim", m.v_head_dim}};
    }
}

void write_layer(const LayerSpec& l, Json& out) {
    if (l.mamba.on()) {
        const MambaSpec& m = l.mamba;
        out["mamba"] = {{"d_inner", m.d_inner}, {"d_state", m.d_state}, {"d_conv", m.d_conv}};
        if (m.v2()) {
            out["mamba"]["heads"] = m.heads;
            out["mamba"]["n_groups"] = m.n_groups;
        } else {
            out["mamba"]["dt_rank"] = m.dt_rank;
        }
    } else {
        write_attention(l.attention, out);
    }
    out["ffn"] = l.ffn.ffn;
    out["gated_ffn"] = l.ffn.gated;
    if (l.ffn.is_moe()) {
        out["moe"] = {{"experts", l.ffn.moe.experts},
                      {"top_k", l.ffn.moe.top_k},
                      {"expert_ffn", l.ffn.moe.expert_ffn},
                      {"shared_experts", l.ffn.moe.shared_experts}};
        if (l.ffn.moe.imbalance != 1) out["moe"]["imbalance"] = l.ffn.moe.imbalance;
    }
    out["norm"] = to_string(l.norm);
    out["linear_bias"] = l.linear_bias;
    if (l.parallel_block) out["parallel_block"] = true;
}

}  // namespace

Model parse_model(const Json& value, const std::string& path) {
    const Json doc = resolve_preset(PresetKind::model, value, path);
    JsonReader r(doc, path);
    Model m;
    m.name = r.string("name");
    m.source = r.string_or("source", "");
    r.string_or("notes", "");
    m.hidden = r.integer("hidden", 1, kMaxWidth);
    m.vocab = r.integer("vocab", 0, kMaxVocab);  // 0: layers alone, no embedding or head
    m.tied_embeddings = r.boolean_or("tied_embeddings", false);
    m.max_seq_len = r.integer_or("max_seq_len", 0, kMaxTokens, 0);

    if (const Json* groups = r.optional_value("layer_groups")) {
        const std::string gp = r.path_of("layer_groups");
        for (const char* key : kLayerFields) {
            if (r.has(key)) {
                throw InputError(r.path_of(key), "give the layer's fields inside layer_groups, or give no layer_groups");
            }
        }
        if (r.has("dense_layers")) {
            throw InputError(r.path_of("dense_layers"),
                             "belongs to the flat form; with layer_groups give the dense layers a group of their own");
        }
        if (!groups->is_array() || groups->empty()) {
            throw InputError(gp, "must be a non-empty array of {count, heads, kv_heads, head_dim, ffn, gated_ffn, ...}");
        }
        if (groups->size() > static_cast<std::size_t>(kMaxLayers)) {
            throw InputError(gp, "has more than " + std::to_string(kMaxLayers) + " groups");
        }
        int64_t layers = 0;
        for (std::size_t i = 0; i < groups->size(); ++i) {
            JsonReader gr((*groups)[i], gp + "[" + std::to_string(i) + "]");
            LayerGroup g;
            g.count = gr.integer("count", 1, kMaxLayers);
            g.layer = read_layer(gr);
            gr.finish();
            layers += g.count;
            if (layers > kMaxLayers) {
                throw InputError(gr.path_of("count"), "brings the model to more than " + std::to_string(kMaxLayers) + " layers");
            }
            m.groups.push_back(g);
        }
        m.final_norm = read_norm(r);
    } else {
        LayerGroup g;
        g.count = r.integer("layers", 1, kMaxLayers);
        g.layer = read_layer(r);
        m.final_norm = g.layer.norm;
        // A mixture's first dense_layers layers keep the dense FFN of width ffn (DeepSeek-V3's
        // first_k_dense_replace).
        const int64_t dense = g.layer.ffn.is_moe() ? r.integer_or("dense_layers", 0, g.count - 1, 0) : 0;
        if (!g.layer.ffn.is_moe() && r.has("dense_layers")) {
            throw InputError(r.path_of("dense_layers"), "applies to a mixture of experts (give moe too)");
        }
        if (dense > 0) {
            LayerGroup first = g;
            first.layer.ffn.moe = MoeSpec{};
            first.count = dense;
            m.groups.push_back(first);
            g.count -= dense;
        }
        m.groups.push_back(g);
    }
    r.finish();
    return m;
}

// ---- writing ----

// One group: the flat form (every layer alike); several: layer_groups.
Json to_json(const Model& m) {
    Json j = Json::object();
    j["name"] = m.name;
    j["source"] = m.source;
    j["hidden"] = m.hidden;
    j["vocab"] = m.vocab;
    j["tied_embeddings"] = m.tied_embeddings;
    j["max_seq_len"] = m.max_seq_len;
    if (m.groups.size() == 1 && m.groups[0].layer.norm == m.final_norm) {
        j["layers"] = m.groups[0].count;
        write_layer(m.groups[0].layer, j);
        return j;
    }
    Json groups = Json::array();
    for (const LayerGroup& g : m.groups) {
        Json entry = {{"count", g.count}};
        write_layer(g.layer, entry);
        groups.push_back(std::move(entry));
    }
    j["layer_groups"] = std::move(groups);
    j["norm"] = to_string(m.final_norm);
    return j;
}

}  // namespace envelope
