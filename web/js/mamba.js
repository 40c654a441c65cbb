// Mamba (selective state-space) layers in the architecture editor. A model document carries
// the mixer as "mamba": {d_inner, d_state, d_conv, dt_rank} (Mamba-1) or
// {d_inner, d_state, d_conv, heads, n_groups} (Mamba-2), in place of the attention fields,
// which the engine refuses on such a layer (core: io/model_json.cpp read_mamba, read_layer).
// As moe.js and attention.js do, the page keeps these fields flat in its edits and in the
// link, and nests them again for the engine. Mamba-2's "heads" is "mamba_heads" on the page,
// apart from the attention's "heads".
import * as fmt from './format.js';

export const MAMBA_FIELDS = ['d_inner', 'd_state', 'd_conv', 'dt_rank', 'mamba_heads', 'n_groups'];
// The page's name of a field -> its name under "mamba".
const NESTED = { mamba_heads: 'heads' };
const nested = (field) => NESTED[field] ?? field;
// The fields of one version: Mamba-1 derives Δ from a rank-dt_rank projection, Mamba-2 has
// scan heads whose B and C are shared by n_groups groups.
const V1_FIELDS = ['d_inner', 'd_state', 'd_conv', 'dt_rank'];
const V2_FIELDS = ['d_inner', 'd_state', 'd_conv', 'mamba_heads', 'n_groups'];
// A layer with attention has these; a Mamba layer has none of them.
export const ATTENTION_FIELDS = ['heads', 'kv_heads', 'head_dim', 'sliding_window'];

export const isMambaField = (field) => MAMBA_FIELDS.includes(field);

// Whether a model document (a preset, or one layer group) has a Mamba mixer.
export const hasMamba = (doc) => doc?.mamba != null && typeof doc.mamba === 'object';
const isV2 = (doc) => Number(doc?.mamba?.heads) > 0;

// The Mamba fields the editor shows for a document (none without Mamba). A preset's version
// stays: edits change its sizes, not which projections it has.
export const mambaFieldsFor = (doc) => (hasMamba(doc) ? (isV2(doc) ? V2_FIELDS : V1_FIELDS) : []);

// A model document's value of a Mamba field; undefined without Mamba or for the other version.
export function mambaValue(doc, field) {
  if (!mambaFieldsFor(doc).includes(field)) return undefined;
  // n_groups may be left out (1 group).
  return doc.mamba[nested(field)] ?? (field === 'n_groups' ? 1 : undefined);
}

// The flat edits' Mamba fields as they go into a model reference over a preset:
// {mamba: {...}} (merged into the preset's by the engine, so only the edited ones are written).
export function mambaPatch(edits) {
  const mamba = {};
  for (const field of MAMBA_FIELDS) if (field in edits) mamba[nested(field)] = edits[field];
  return Object.keys(mamba).length ? { mamba } : {};
}

// The Mamba fields of a scenario's model object ({preset, mamba: {...}}), flat.
export function mambaFieldsOf(doc) {
  const out = {};
  for (const field of MAMBA_FIELDS) {
    const value = doc?.mamba?.[nested(field)];
    if (value !== undefined) out[field] = value;
  }
  return out;
}

// One layer's mixer in words: "Mamba d_inner 1,536, state 16" (Mamba-1),
// "Mamba-2 d_inner 8,192, state 128, 128 heads in 8 groups".
export function mambaText(g) {
  const m = g.mamba;
  const base = `d_inner ${fmt.int(m.d_inner)}, state ${fmt.int(m.d_state)}`;
  if (!isV2(g)) return `Mamba ${base}`;
  const groups = m.n_groups ?? 1;
  return `Mamba-2 ${base}, ${fmt.int(m.heads)} heads in ${groups === 1 ? '1 group' : `${fmt.int(groups)} groups`}`;
}
