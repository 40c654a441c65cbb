// The serving controls of inference in the form: static batch or continuous batching at a
// concurrency (the batch field then counts concurrent requests), the prefix cache's hit
// rate (a fraction of each prompt, as the acceptance rate is one), the beams of beam search,
// the share of the KV cache offloaded to the host (a fraction), and speculative decoding
// (off, or k draft tokens at an acceptance rate, drafted by a one-layer head or by a model
// preset). The state's fields are serving.js's.
import { h, $ } from './dom.js';
import { SERVING_NUMBERS, SPECULATIVE_START } from './serving.js';

const BATCH_LABELS = { static: 'Batch (sequences)', concurrency: 'Concurrent requests' };
const SERVING_HINTS = {
  static: 'One batch of equal requests, run to completion.',
  concurrency: 'The steady state of this many clients per replica, each sending its next request when its last one '
    + 'finishes (vLLM and SGLang --max-concurrency): new prefills stall the running batch.',
};
const SPEC_NUMBERS = { draft_tokens: 'draft_tokens', acceptance_rate: 'acceptance_rate' };

// update(edit): applies an edit to a copy of the state; readNumber(el): a number input's
// value, or undefined after recording why it is not one (in `invalid`, field id -> message).
export function createServingForm(presets, { update, readNumber, invalid }) {
  // The speculation last used this session: turned off and on again, it comes back.
  let lastSpeculative = { ...SPECULATIVE_START };

  const drafter = $('#draft_model');
  drafter.append(h('option', { value: '', text: 'One-layer head (MTP)' }),
    h('optgroup', { label: 'A draft model' }, Object.entries(presets.models).map(([key, doc]) => h('option', { value: key, text: doc.name }))));

  $('#serving').addEventListener('change', (e) => update((next) => { next.workload.serving = e.target.value; }));
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
    if (state.mode === 'training') return;
    const w = state.workload;
    const serving = w.serving ?? 'static';
    set($('#serving'), serving);
    $('#serving-hint').textContent = SERVING_HINTS[serving];
    $('label[for="batch"]').textContent = BATCH_LABELS[serving];
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

  return { render };
}
