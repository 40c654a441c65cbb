// How an inference workload is served, in the page state, the scenario and the link:
// a static batch or continuous batching at a concurrency (the scenario's workload.mode,
// METHODOLOGY §15.2), speculative decoding (workload.speculative, §15.1) and prefix caching
// (workload.prefix_cache_hit: the share of each prompt already in the KV cache, which
// prefill does not compute again).
//
//   state.workload.serving          = "static" | "concurrency"
//   state.workload.speculative      = null (off) | { draft_tokens, acceptance_rate,
//                                      draft_model: null (a one-layer head, MTP-style) | a model preset key }
//   state.workload.prefix_cache_hit = a fraction in [0, 0.999999] (0: no prefix caching)
// Link keys (inference only; absent: static, no speculation, no cache hits, so older links
// load unchanged):
//   [&serving=concurrency][&prefix_cache_hit=0.5][&draft_tokens=4&acceptance_rate=0.8[&draft_model=llama-3.1-8b]]
export const SERVING_MODES = ['static', 'concurrency'];
export const SERVING_KEYS = ['serving', 'prefix_cache_hit', 'draft_tokens', 'acceptance_rate', 'draft_model'];
// What speculation starts from when it is turned on: k = 4, α = 0.8 (METHODOLOGY §15.1's
// example; EAGLE and MTP heads reach acceptance rates of this order).
export const SPECULATIVE_START = { draft_tokens: 4, acceptance_rate: 0.8, draft_model: null };

// The serving fields of a scenario document's inference workload. Throws on a draft model
// the form cannot show (an inline model, or a preset with edits).
export function servingFromDoc(w, presets) {
  const serving = w.mode ?? 'static';
  if (!SERVING_MODES.includes(serving)) throw new Error(`unknown serving mode ${JSON.stringify(serving)}`);
  const prefix_cache_hit = w.prefix_cache_hit ?? 0;
  const spec = w.speculative;
  if (spec == null) return { serving, prefix_cache_hit, speculative: null };
  let draft = spec.draft_model ?? null;
  if (draft !== null && typeof draft === 'object') {
    if (Object.keys(draft).some((k) => k !== 'preset')) throw new Error('the form shows a draft model only as a preset');
    draft = draft.preset;
  }
  if (draft !== null && !presets.models[draft]) throw new Error(`unknown draft model ${JSON.stringify(draft)}`);
  return { serving, prefix_cache_hit,
    speculative: { draft_tokens: spec.draft_tokens, acceptance_rate: spec.acceptance_rate, draft_model: draft } };
}

// The workload fields for the engine; nothing for the defaults, so that a state without
// them sends what it sent before (and still matches its preset scenario).
export function servingScenario(w) {
  const out = {};
  if ((w.serving ?? 'static') !== 'static') out.mode = w.serving;
  if ((w.prefix_cache_hit ?? 0) !== 0) out.prefix_cache_hit = w.prefix_cache_hit;
  const spec = w.speculative;
  if (spec) {
    out.speculative = { draft_tokens: spec.draft_tokens, acceptance_rate: spec.acceptance_rate };
    if (spec.draft_model) out.speculative.draft_model = spec.draft_model;
  }
  return out;
}

// -> [[key, text]] in link order; `text` writes a number as the link keeps it.
export function servingParams(w, text) {
  const out = [];
  if ((w.serving ?? 'static') !== 'static') out.push(['serving', w.serving]);
  if ((w.prefix_cache_hit ?? 0) !== 0) out.push(['prefix_cache_hit', text(w.prefix_cache_hit)]);
  const spec = w.speculative;
  if (spec) {
    out.push(['draft_tokens', text(spec.draft_tokens)], ['acceptance_rate', text(spec.acceptance_rate)]);
    if (spec.draft_model) out.push(['draft_model', spec.draft_model]);
  }
  return out;
}

// Reads the serving keys of a link into `workload`. `read`: the link's readers
// { number, choice, preset(kind, text, table) }. Speculation is on when draft_tokens is given;
// the acceptance rate and the drafter belong to it.
export function readServing(q, workload, read, presets) {
  if (q.has('serving')) workload.serving = read.choice('serving', q.get('serving'), SERVING_MODES);
  if (q.has('prefix_cache_hit')) workload.prefix_cache_hit = read.number('prefix_cache_hit', q.get('prefix_cache_hit'));
  if (!q.has('draft_tokens')) {
    for (const key of ['acceptance_rate', 'draft_model']) {
      if (q.has(key)) throw new Error(`"${key}" is a setting of speculative decoding, which needs "draft_tokens"`);
    }
    return;
  }
  workload.speculative = {
    draft_tokens: read.number('draft_tokens', q.get('draft_tokens')),
    acceptance_rate: q.has('acceptance_rate') ? read.number('acceptance_rate', q.get('acceptance_rate')) : SPECULATIVE_START.acceptance_rate,
    draft_model: q.has('draft_model') ? read.preset('model', q.get('draft_model'), presets.models) : null,
  };
}
