// The serving controls of inference in the form: static batch or continuous batching at a
// concurrency (the batch field then counts concurrent requests), the prefix cache's hit
// rate (a fraction of each prompt, as the acceptance rate is one), the beams of beam search,
// the share of the KV cache offloaded to the host (a fraction), and speculative decoding
// (off, or k draft tokens at an acceptance rate, drafted by a one-layer head or by a model
// preset), an offered request rate (server), offline, and disaggregated prefill and decode
// pools (disaggregated.js). The state's fields are serving.js's.
import { h, $ } from './dom.js';
import { REQUEST_RATE_START, SERVING_NUMBERS, SPECULATIVE_START } from './serving.js';
import { POOLS, POOL_LAYOUT, disaggregatedStart } from './disaggregated.js';
import { anyExperts } from './layer-groups.js';

const BATCH_LABELS = {
  static: 'Batch (sequences)', concurrency: 'Concurrent requests', server: 'Max running requests per replica',
  offline: 'Batch (offline: the largest that fits)', disaggregated: 'Concurrent requests (whole deployment)',
};
const SERVING_HINTS = {
  static: 'One batch of equal requests, run to completion.',
  concurrency: 'The steady state of this many clients per replica, each sending its next request when its last one '
    + 'finishes (vLLM and SGLang --max-concurrency): new prefills stall the running batch.',
  server: 'Requests arrive at a rate (Poisson), whatever the engine serves (an open loop, as vLLM\'s --request-rate): '
    + 'prompts queue for prefill; past the capacity the queue grows without bound.',
  offline: 'Maximum throughput: one static batch of the largest batch that fits in memory (the engine\'s fit), as '
    + 'offline benchmarks run.',
};
// The pools' number inputs: id -> [pool, field, optional].
const POOL_FIELDS = Object.fromEntries([
  ...POOLS.flatMap((pool) => ['workers', ...Object.keys(POOL_LAYOUT)].map((f) => [`${pool}_${f}`, [pool, f, false]])),
  ['decode_batch_per_rank', ['decode', 'batch_per_rank', true]],
]);
// The aggregated layout's inputs, unused while each pool has its own.
const LAYOUT_INPUTS = ['tp', 'pp', 'ep', 'dp', 'micro_batches'];
const SPEC_NUMBERS = { draft_tokens: 'draft_tokens', acceptance_rate: 'acceptance_rate' };

// update(edit): applies an edit to a copy of the state; readNumber(el): a number input's
// value, or undefined after recording why it is not one (in `invalid`, field id -> message).
export function createServingForm(presets, { update, readNumber, invalid }) {
  // The speculation last used this session: turned off and on again, it comes back.
  let lastSpeculative = { ...SPECULATIVE_START };
  let lastPools = null; // the disaggregated pools last used, likewise

  const drafter = $('#draft_model');
  drafter.append(h('option', { value: '', text: 'One-layer head (MTP)' }),
    h('optgroup', { label: 'A draft model' }, Object.entries(presets.models).map(([key, doc]) => h('option', { value: key, text: doc.name }))));

  $('#serving').addEventListener('change', (e) => update((next) => {
    const w = next.workload;
    w.serving = e.target.value;
    w.request_rate = w.serving === 'server' ? w.request_rate ?? REQUEST_RATE_START : null;
    if (w.serving !== 'server') invalid.delete('request_rate');
    // The pools serve a closed loop only; they come back with it.
    if (w.serving !== 'concurrency' && w.disaggregated) {
      lastPools = structuredClone(w.disaggregated);
      w.disaggregated = null;
    }
  }));
  $('#request_rate').addEventListener('input', (e) => update((next) => {
    const value = readNumber(e.target);
    if (value !== undefined) next.workload.request_rate = value;
  }));
  $('#disagg').addEventListener('change', (e) => update((next) => {
    const w = next.workload;
    if (!e.target.checked) {
      lastPools = w.disaggregated ? structuredClone(w.disaggregated) : lastPools;
      for (const id of Object.keys(POOL_FIELDS)) invalid.delete(id);
    }
    w.disaggregated = e.target.checked ? structuredClone(lastPools ?? disaggregatedStart(next.parallelism)) : null;
  }));
  for (const [id, [pool, field, optional]] of Object.entries(POOL_FIELDS)) {
    $(`#${id}`).addEventListener('input', (e) => update((next) => {
      const value = readNumber(e.target, { optional });
      if (value !== undefined && next.workload.disaggregated) next.workload.disaggregated[pool][field] = value;
    }));
  }
  $('#kv_transfer').addEventListener('change', (e) => update((next) => {
    if (next.workload.disaggregated) next.workload.disaggregated.kv_transfer = e.target.value;
  }));
  // Prefix cache hits, beams, KV offload: inputs named as their state fields.
  for (const field of Object.keys(SERVING_NUMBERS)) {
    $(`#${field}`).addEventListener('input', (e) => update((next) => {
      const value = readNumber(e.target);
      if (value !== undefined) next.workload[field] = value;
    }));
  }
  $('#spec').addEventListener('change', (e) => update((next) => {
    if (!e.target.checked) {
      lastSpeculative = { ...next.workload.speculative };
      // Entries that were not numbers go with the fields that hid them.
      for (const id of Object.keys(SPEC_NUMBERS)) invalid.delete(id);
    }
    next.workload.speculative = e.target.checked ? { ...lastSpeculative } : null;
  }));
  for (const [id, field] of Object.entries(SPEC_NUMBERS)) {
    $(`#${id}`).addEventListener('input', (e) => update((next) => {
      const value = readNumber(e.target);
      if (value !== undefined && next.workload.speculative) next.workload.speculative[field] = value;
    }));
  }
  drafter.addEventListener('change', (e) => update((next) => {
    if (next.workload.speculative) next.workload.speculative.draft_model = e.target.value || null;
  }));

  // set(el, value): writes a control unless the person is typing in it (form.js).
  function render(state, set) {
    if (state.mode === 'training') {
      for (const id of LAYOUT_INPUTS) $(`#${id}`).disabled = false; // training's layout
      return;
    }
    const w = state.workload;
    const serving = w.serving ?? 'static';
    const pools = w.disaggregated ?? null;
    set($('#serving'), serving);
    $('#serving-hint').textContent = SERVING_HINTS[serving];
    $('label[for="batch"]').textContent = BATCH_LABELS[pools ? 'disaggregated' : serving];
    $('#batch').disabled = serving === 'offline';
    $('[data-field="request_rate"]').hidden = serving !== 'server';
    if (serving === 'server') set($('#request_rate'), w.request_rate ?? REQUEST_RATE_START);
    // Disaggregation: under continuous batching (or a link that set it elsewhere, so that its error can be fixed).
    $('.disaggregation').hidden = serving !== 'concurrency' && !pools;
    set($('#disagg'), pools !== null);
    $('#disagg-fields').hidden = !pools;
    for (const id of LAYOUT_INPUTS) $(`#${id}`).disabled = Boolean(pools);
    if (pools) {
      lastPools = structuredClone(pools);
      for (const [id, [pool, field]] of Object.entries(POOL_FIELDS)) set($(`#${id}`), pools[pool][field] ?? '');
      // EP: for a model with experts (or a link that set it, so that its error can be fixed).
      const moe = anyExperts(presets.models[state.model.preset]);
      for (const pool of POOLS) $(`[data-field="${pool}_ep"]`).hidden = !moe && pools[pool].ep === 1;
      set($('#kv_transfer'), pools.kv_transfer);
    }
    for (const [field, none] of Object.entries(SERVING_NUMBERS)) set($(`#${field}`), w[field] ?? none);
    const spec = w.speculative;
    set($('#spec'), spec !== null);
    $('#spec-fields').hidden = spec === null;
    if (spec) {
      lastSpeculative = { ...spec };
      for (const [id, field] of Object.entries(SPEC_NUMBERS)) set($(`#${id}`), spec[field]);
      set(drafter, spec.draft_model ?? '');
    }
  }

  // Offline: the batch input shows the largest batch that fits, the one the engine ran
  // (result: the last result of these inputs, or null).
  function showResolved(result, state) {
    if (state?.mode === 'training' || state?.workload.serving !== 'offline') return;
    if (result?.workload === 'inference') $('#batch').value = String(result.scenario.workload.batch);
  }

  return { render, showResolved };
}
