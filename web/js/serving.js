// How an inference workload is served, in the page state, the scenario and the link:
// a static batch, continuous batching at a concurrency (the scenario's workload.mode,
// METHODOLOGY §15.2), an offered request rate (mode "server", an open loop, §15.5), offline
// maximum throughput (a static batch of the largest batch that fits, as `envelope validate`
// runs offline cases, §20.2: the page asks the engine's fit() for it, withOfflineBatch),
// prefill and decode in pools of their own (disaggregated.js, §15.7), speculative decoding (workload.speculative, §15.1), prefix caching
// (workload.prefix_cache_hit: the share of each prompt already in the KV cache, which
// prefill does not compute again), beam search (workload.beams: hypotheses decoded side by
// side per request) and KV-cache offload (workload.kv_offload: the share of the KV cache in
// the host's memory, read over the host link at every decode step).
//
//   state.workload.serving          = "static" | "concurrency" | "server" | "offline"
//   state.workload.request_rate     = requests/s of the whole job ("server" only; else null)
//   state.workload.disaggregated    = null | the pools (disaggregated.js)
//   state.workload.speculative      = null (off) | { draft_tokens, acceptance_rate,
//                                      draft_model: null (a one-layer head, MTP-style) | a model preset key }
//   state.workload.prefix_cache_hit = a fraction in [0, 0.999999] (0: no prefix caching)
//   state.workload.beams            = an integer in [1, 64] (1: no beam search)
//   state.workload.kv_offload       = a fraction in [0, 0.999999] (0: the whole KV cache in HBM)
//   state.workload.prefill_chunk    = tokens per prefill pass (0: the whole prompt in one)
// Link keys (inference only; absent: static, no speculation, no cache hits, one beam, no
// offload, so older links load unchanged):
//   [&serving=concurrency|offline|server&request_rate=20][&prefill_workers=… disaggregated.js][&prefix_cache_hit=0.5][&beams=4][&kv_offload=0.5][&prefill_chunk=512]
//   [&draft_tokens=4&acceptance_rate=0.8[&draft_model=llama-3.1-8b]]
import { DISAGGREGATED_KEYS, disaggregatedFromDoc, disaggregatedParams, disaggregatedScenario, readDisaggregated } from './disaggregated.js';

export const SERVING_MODES = ['static', 'concurrency', 'server', 'offline'];
// The modes a scenario document names (offline is a static batch of the largest that fits).
const SCENARIO_MODES = ['static', 'concurrency', 'server'];
// What the server mode starts from when chosen: one request per second over the job.
export const REQUEST_RATE_START = 1;
// The plain numbers of serving, their defaults (in the link and the scenario only when not
// these, as the engine echoes them).
export const SERVING_NUMBERS = { prefix_cache_hit: 0, beams: 1, kv_offload: 0, prefill_chunk: 0 };
export const SERVING_KEYS = ['serving', 'request_rate', ...DISAGGREGATED_KEYS, ...Object.keys(SERVING_NUMBERS), 'draft_tokens', 'acceptance_rate', 'draft_model'];
// What speculation starts from when it is turned on: k = 4, α = 0.8 (METHODOLOGY §15.1's
// example; EAGLE and MTP heads reach acceptance rates of this order).
export const SPECULATIVE_START = { draft_tokens: 4, acceptance_rate: 0.8, draft_model: null };

// The serving fields of a scenario document's inference workload (and its top-level
// "disaggregated"). Throws on a draft model the form cannot show (an inline model, or a
// preset with edits).
export function servingFromDoc(w, presets, disaggregated = null) {
  const serving = w.mode ?? 'static';
  if (!SCENARIO_MODES.includes(serving)) throw new Error(`unknown serving mode ${JSON.stringify(serving)}`);
  const numbers = Object.fromEntries(Object.entries(SERVING_NUMBERS).map(([key, none]) => [key, w[key] ?? none]));
  const load = { request_rate: serving === 'server' ? w.request_rate ?? null : null, disaggregated: disaggregatedFromDoc(disaggregated) };
  const spec = w.speculative;
  if (spec == null) return { serving, ...load, ...numbers, speculative: null };
  let draft = spec.draft_model ?? null;
  if (draft !== null && typeof draft === 'object') {
    if (Object.keys(draft).some((k) => k !== 'preset')) throw new Error('the form shows a draft model only as a preset');
    draft = draft.preset;
  }
  if (draft !== null && !presets.models[draft]) throw new Error(`unknown draft model ${JSON.stringify(draft)}`);
  return { serving, ...load, ...numbers,
    speculative: { draft_tokens: spec.draft_tokens, acceptance_rate: spec.acceptance_rate, draft_model: draft } };
}

// The workload fields for the engine; nothing for the defaults, so that a state without
// them sends what it sent before (and still matches its preset scenario). Offline sends a
// static batch: withOfflineBatch puts the largest that fits in it.
export function servingScenario(w) {
  const out = {};
  const serving = w.serving ?? 'static';
  if (serving === 'concurrency' || serving === 'server') out.mode = serving;
  if (serving === 'server') out.request_rate = w.request_rate;
  for (const [key, none] of Object.entries(SERVING_NUMBERS)) if ((w[key] ?? none) !== none) out[key] = w[key];
  const spec = w.speculative;
  if (spec) {
    out.speculative = { draft_tokens: spec.draft_tokens, acceptance_rate: spec.acceptance_rate };
    if (spec.draft_model) out.speculative.draft_model = spec.draft_model;
  }
  return out;
}

// The scenario's top-level "disaggregated" object for the state, or null (aggregated).
export const disaggregatedOf = (w) => (w.disaggregated ? disaggregatedScenario(w.disaggregated) : null);

// An offline scenario with the largest batch that fits (fit: engine.fit() of the scenario);
// the scenario as it is when none fits (the engine then says it does not fit).
export function withOfflineBatch(scenario, fit) {
  if (!(fit?.ok && fit.largest_batch > 0)) return scenario;
  return { ...scenario, workload: { ...scenario.workload, batch: fit.largest_batch } };
}

// -> [[key, text]] in link order; `text` writes a number as the link keeps it.
export function servingParams(w, text) {
  const out = [];
  if ((w.serving ?? 'static') !== 'static') out.push(['serving', w.serving]);
  if (w.serving === 'server' && w.request_rate != null) out.push(['request_rate', text(w.request_rate)]);
  out.push(...disaggregatedParams(w.disaggregated, text));
  for (const [key, none] of Object.entries(SERVING_NUMBERS)) if ((w[key] ?? none) !== none) out.push([key, text(w[key])]);
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
  if (q.has('request_rate')) {
    if (workload.serving !== 'server') throw new Error('"request_rate" is a setting of serving=server');
    workload.request_rate = read.number('request_rate', q.get('request_rate'));
  } else if (workload.serving === 'server') workload.request_rate = REQUEST_RATE_START;
  readDisaggregated(q, workload, read);
  for (const key of Object.keys(SERVING_NUMBERS)) if (q.has(key)) workload[key] = read.number(key, q.get(key));
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
