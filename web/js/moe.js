// Mixture-of-experts models on the page: the architecture fields a mixture adds, where they
// sit in a model document, and the active parameters of a resolved model.
//
// A model document carries a mixture as "moe": {experts, top_k, expert_ffn, shared_experts,
// imbalance (routing skew on the busiest EP chip, 1: balanced)} and, in the flat form, "dense_layers" (the first layers keep the dense FFN of width ffn);
// core: io/model_json.cpp. The page keeps these fields flat in its edits (and in the link,
// like the other architecture fields) and nests them again for the engine.

export const MOE_FIELDS = ['experts', 'top_k', 'expert_ffn', 'shared_experts', 'imbalance', 'dense_layers'];
// What the engine reads when a document leaves a field out.
const DEFAULTS = { shared_experts: 0, dense_layers: 0, imbalance: 1 };

export const isMoeField = (field) => MOE_FIELDS.includes(field);

// Whether a model document (a preset, or one layer group) has experts.
export const hasExperts = (doc) => Number(doc?.moe?.experts) > 0;

// A model document's value of a mixture field; undefined for a model without experts.
export function moeValue(doc, field) {
  if (!hasExperts(doc)) return undefined;
  const value = field === 'dense_layers' ? doc.dense_layers : doc.moe[field];
  return value ?? DEFAULTS[field];
}

// The flat edits' mixture fields as they go into a model reference over a preset:
// {moe: {experts, …}, dense_layers}. The engine merges them into the preset's (JSON merge
// patch), so only the edited ones are written.
export function moePatch(edits) {
  const patch = {};
  for (const field of MOE_FIELDS) {
    if (!(field in edits)) continue;
    if (field === 'dense_layers') patch.dense_layers = edits[field];
    else (patch.moe ??= {})[field] = edits[field];
  }
  return patch;
}

// The mixture fields of a scenario's model object ({preset, moe: {...}, dense_layers}), flat.
export function moeFieldsOf(doc) {
  const out = {};
  for (const field of MOE_FIELDS) {
    const value = field === 'dense_layers' ? doc?.dense_layers : doc?.moe?.[field];
    if (value !== undefined) out[field] = value;
  }
  return out;
}

// A resolved model (result.scenario.model: flat for one kind of layer, else layer_groups)
// as the editor's flat fields, mixture and latent-attention ones (attention.js) included
// and the sliding window 0 when it has none; null when its groups are not the flat form's
// (dense layers first, then one kind of layer with the same attention).
export function flatModel(model) {
  if (!model) return model;
  const groups = model.layer_groups;
  if (!groups) {
    const flat = { ...model, ...model.mla, sliding_window: model.sliding_window ?? 0 };
    return hasExperts(model) ? { ...flat, ...model.moe, dense_layers: model.dense_layers ?? 0 } : flat;
  }
  const [first, last] = [groups[0], groups.at(-1)];
  const attention = (g) => JSON.stringify([g.heads, g.kv_heads, g.head_dim, g.sliding_window ?? 0, g.mla ?? null, g.mamba ?? null,
    Boolean(g.parallel_block)]);
  const flatForm = groups.length === 2 && hasExperts(last) && !hasExperts(first) && attention(first) === attention(last);
  if (!flatForm) return null;
  const { count, ...layer } = last;
  return { ...model, ...layer, ...last.mla, ...last.moe, sliding_window: last.sliding_window ?? 0,
    layers: first.count + count, dense_layers: first.count };
}

// Parameters a token runs through (the engine's summary.params counts every expert):
//   active = total − Σ over mixture layer groups of count · experts · P_expert · (1 − top_k / experts)
//   P_expert = h · g·F + F · h (+ g·F + h with linear biases), g = 2 for a gated FFN else 1,
//   F = expert_ffn, h = hidden
// i.e. of each layer's experts only top_k run per token; the router, the shared experts,
// attention, embeddings and norms all do (core: model/params.cpp active_params, the same
// rule; Mixtral 8x7B: 46.7B total, 12.9B active, Jiang et al. 2024).
// Returns null for a model without experts.
export function activeParams(model, total) {
  const groups = model?.layer_groups ?? [{ ...model, count: model?.layers }];
  const h = Number(model?.hidden);
  let idle = 0;
  let moe = false;
  for (const g of groups) {
    if (!hasExperts(g)) continue;
    moe = true;
    const { experts, top_k: k, expert_ffn: f } = g.moe;
    const up = (g.gated_ffn ? 2 : 1) * f;
    const perExpert = h * up + f * h + (g.linear_bias ? up + h : 0);
    idle += g.count * experts * perExpert * (1 - k / experts);
  }
  if (!moe || !Number.isFinite(total) || !Number.isFinite(idle)) return null;
  return total - idle;
}
