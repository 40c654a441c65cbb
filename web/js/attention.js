// Multi-head latent attention (DeepSeek-V2/V3) in the architecture editor. A model document
// carries it as "mla": {q_lora_rank, kv_lora_rank, qk_rope_dim, qk_nope_dim, v_head_dim}
// (core: io/model_json.cpp read_mla; METHODOLOGY §6.3.1). As moe.js does for a mixture,
// the page keeps these fields flat in its edits and in the link, and nests them again for
// the engine. (The sliding window, §6.3, is a plain architecture field: scenario.js.)

export const MLA_FIELDS = ['q_lora_rank', 'kv_lora_rank', 'qk_rope_dim', 'qk_nope_dim', 'v_head_dim'];
// q_lora_rank may be left out (0: queries projected straight from the hidden state).
const ZERO_DEFAULT = ['q_lora_rank'];

export const isMlaField = (field) => MLA_FIELDS.includes(field);

// Whether a model document (a preset, or one layer group) has latent attention.
export const hasMla = (doc) => doc?.mla != null && typeof doc.mla === 'object';

// A model document's value of an MLA field; undefined for a model without MLA.
export function mlaValue(doc, field) {
  if (!hasMla(doc)) return undefined;
  return doc.mla[field] ?? (ZERO_DEFAULT.includes(field) ? 0 : undefined);
}

// The flat edits' MLA fields as they go into a model reference over a preset: {mla: {...}}
// (merged into the preset's by the engine, so only the edited ones are written).
export function mlaPatch(edits) {
  const mla = {};
  for (const field of MLA_FIELDS) if (field in edits) mla[field] = edits[field];
  return Object.keys(mla).length ? { mla } : {};
}

// The MLA fields of a scenario's model object ({preset, mla: {...}}), flat.
export function mlaFieldsOf(doc) {
  const out = {};
  for (const field of MLA_FIELDS) {
    const value = doc?.mla?.[field];
    if (value !== undefined) out[field] = value;
  }
  return out;
}
