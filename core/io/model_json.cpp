#include "io/scenario_json.hpp"

#include <string>

#include "common/error.hpp"
#include "io/json_reader.hpp"
#include "io/names.hpp"
#include "io/preset_ref.hpp"
#include "io/schema_limits.hpp"

namespace envelope {

using namespace limits;

Model parse_model(const Json& value, const std::string& path) {
    const Json doc = resolve_preset(PresetKind::model, value, path);
    JsonReader r(doc, path);
    Model m;
    m.name = r.string("name");
    m.source = r.string_or("source", "");
    r.string_or("notes", "");
    m.layers = r.integer("layers", 1, kMaxLayers);
    m.hidden = r.integer("hidden", 1, kMaxWidth);
    m.heads = r.integer("heads", 1, kMaxHeads);
    m.kv_heads = r.integer("kv_heads", 1, m.heads);
    if (m.heads % m.kv_heads != 0) {
        throw InputError(r.path_of("kv_heads"), "must divide heads = " + std::to_string(m.heads) +
                                                    " (each KV head serves heads / kv_heads query heads)");
    }
    m.head_dim = r.integer("head_dim", 1, kMaxWidth);
    m.ffn = r.integer("ffn", 1, kMaxWidth);
    m.gated_ffn = r.boolean("gated_ffn");
    m.vocab = r.integer("vocab", 1, kMaxVocab);
    m.tied_embeddings = r.boolean_or("tied_embeddings", false);
    m.norm = r.choice_or("norm", {"rmsnorm", "layernorm"}, 0) == 1 ? NormKind::layernorm
                                                                    : NormKind::rmsnorm;
    m.linear_bias = r.boolean_or("linear_bias", false);
    m.max_seq_len = r.integer_or("max_seq_len", 0, kMaxTokens, 0);
    r.finish();
    return m;
}

// ---- writing ----

Json to_json(const Model& m) {
    return Json{{"name", m.name},
                {"source", m.source},
                {"layers", m.layers},
                {"hidden", m.hidden},
                {"heads", m.heads},
                {"kv_heads", m.kv_heads},
                {"head_dim", m.head_dim},
                {"ffn", m.ffn},
                {"gated_ffn", m.gated_ffn},
                {"vocab", m.vocab},
                {"tied_embeddings", m.tied_embeddings},
                {"norm", to_string(m.norm)},
                {"linear_bias", m.linear_bias},
                {"max_seq_len", m.max_seq_len}};
}

}  // namespace envelope
