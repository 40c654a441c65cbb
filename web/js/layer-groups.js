// Models whose layers are not all of one kind: the layer_groups form (Llama 4's runs of
// windowed and full-attention layers, Jamba's Mamba layers with one attention layer in
// eight) and a flat mixture with dense layers first
// (DeepSeek-V3), which the engine resolves to two groups (core: io/model_json.cpp).
// The editor's fields describe one kind of layer; a model in the layer_groups form has
// only its model-wide fields edited (hidden size, vocabulary), and its groups are shown
// read-only in a table, kind by kind.
import { h, $ } from './dom.js';
import * as fmt from './format.js';
import { hasExperts } from './moe.js';
import { MLA_FIELDS, hasMla } from './attention.js';
import { hasMamba, mambaText } from './mamba.js';

export const isGrouped = (doc) => Array.isArray(doc?.layer_groups);

// The fields of a grouped model that the editor can change: they sit on the model itself.
export const MODEL_WIDE_FIELDS = ['hidden', 'vocab'];

// The layer groups of a model document: its layer_groups, or the flat form's layers (the
// dense ones first, then the mixture ones).
export function groupsOf(doc) {
  if (!doc) return [];
  if (isGrouped(doc)) return doc.layer_groups;
  const { layers, dense_layers: dense = 0, ...layer } = doc;
  if (!hasExperts(doc) || !(dense > 0)) return [{ ...layer, count: layers }];
  const { moe, ...denseLayer } = layer;
  return [{ ...denseLayer, count: dense }, { ...layer, count: layers - dense }];
}

// Whether any layer of a model has experts (then EP applies).
export const anyExperts = (doc) => groupsOf(doc).some(hasExperts);

// RFC 7386 JSON merge patch, as the engine applies a model reference's fields to its preset.
export function mergePatch(target, patch) {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out = target && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

// The layer's mixer: its attention, or its Mamba scan.
function attentionText(g) {
  if (hasMamba(g)) return mambaText(g);
  if (hasMla(g)) return `${fmt.int(g.heads)} heads, latent attention (KV latent ${fmt.int(g.mla.kv_lora_rank)})`;
  const kv = g.kv_heads === g.heads ? 'MHA' : g.kv_heads === 1 ? 'MQA' : `${fmt.int(g.kv_heads)} KV heads`;
  const span = g.sliding_window > 0 ? `window of ${fmt.int(g.sliding_window)}` : 'full attention';
  return `${fmt.int(g.heads)} heads, ${kv}, ${span}`;
}

// The layer's MLP (none: ffn 0 without experts, a block that is only its mixer), and
// whether it runs beside the attention (a parallel block).
function ffnText(g) {
  const beside = g.parallel_block ? ', parallel to attention' : '';
  if (!hasExperts(g)) return Number(g.ffn) === 0 ? 'no MLP' : `dense, ${fmt.int(g.ffn)} wide${beside}`;
  const { experts, top_k: k, expert_ffn: f, shared_experts: shared = 0 } = g.moe;
  return `${fmt.int(experts)} experts, ${fmt.int(k)} per token${shared > 0 ? `, ${fmt.int(shared)} shared` : ''}, ${fmt.int(f)} wide${beside}`;
}

// The groups collapsed by kind (the same attention and FFN), in order of first appearance:
// [{layers, groups, attention, ffn}].
export function layerKinds(doc) {
  const kinds = new Map();
  for (const g of groupsOf(doc)) {
    const attention = attentionText(g);
    const ffn = ffnText(g);
    const key = `${attention}|${ffn}`;
    const kind = kinds.get(key) ?? { layers: 0, groups: 0, attention, ffn };
    kind.layers += g.count;
    kind.groups += 1;
    kinds.set(key, kind);
  }
  return [...kinds.values()];
}

// One layer's shape, as a comparable string.
function layerKey(g) {
  const moe = hasExperts(g) ? [g.moe.experts, g.moe.top_k, g.moe.expert_ffn, g.moe.shared_experts ?? 0, g.moe.imbalance ?? 1] : [];
  const mla = hasMla(g) ? MLA_FIELDS.map((f) => g.mla[f] ?? 0) : [];
  const m = g.mamba;
  const mamba = hasMamba(g) ? [m.d_inner, m.d_state, m.d_conv, m.dt_rank ?? 0, m.heads ?? 0, m.heads > 0 ? m.n_groups ?? 1 : 0] : [];
  return JSON.stringify([g.heads, g.kv_heads, g.head_dim, g.sliding_window ?? 0, g.ffn, Boolean(g.gated_ffn), moe, mla, mamba,
    Boolean(g.parallel_block)]);
}

// Whether two model documents have the same editable architecture, layer by layer, in
// whichever form each is written (a preset flat, the engine's resolved model in groups).
export function sameArchitecture(a, b) {
  if (a?.hidden !== b?.hidden || a?.vocab !== b?.vocab) return false;
  const layers = (doc) => groupsOf(doc).flatMap((g) => Array(Math.max(0, Number(g.count) || 0)).fill(layerKey(g)));
  const [x, y] = [layers(a), layers(b)];
  return x.length === y.length && x.every((key, i) => key === y[i]);
}

// The read-only table of the groups (#arch-groups), shown for a model with more than one
// group; `grouped`: the model is in the layer_groups form (its layer fields are not edited).
export function renderLayerGroups(doc, { grouped }) {
  const groups = groupsOf(doc);
  $('#arch-groups').hidden = groups.length < 2;
  if (groups.length < 2) return;
  const kinds = layerKinds(doc);
  const layers = groups.reduce((sum, g) => sum + g.count, 0);
  $('#arch-groups-note').textContent = `${fmt.int(layers)} layers in ${fmt.int(groups.length)} groups`
    + (kinds.length < groups.length ? ` of ${kinds.length === 1 ? 'one kind' : `${fmt.int(kinds.length)} kinds`}` : '')
    + (grouped
      ? '. The layers are shown here, not edited; the hidden size and the vocabulary can be. '
        + 'To change a group, edit the model document (presets/models) and run it with the envelope CLI.'
      : '.');
  $('#arch-groups-table').replaceChildren(
    // A model with Mamba layers: the column holds attention or the scan, the layer's mixer.
    h('thead', {}, h('tr', {}, ['Layers', groups.some(hasMamba) ? 'Mixer' : 'Attention', 'FFN'].map((t) => h('th', { scope: 'col', class: 'text', text: t })))),
    h('tbody', {}, kinds.map((k) => h('tr', {},
      h('td', { class: 'num', text: k.groups > 1 ? `${fmt.int(k.layers)} (${fmt.int(k.groups)} groups)` : fmt.int(k.layers) }),
      h('td', { class: 'text', text: k.attention }),
      h('td', { class: 'text', text: k.ffn })))));
}
