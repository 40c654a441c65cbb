// The mode switch and the training inputs of the form: the training workload (Workload
// section) and the parallel settings only training has (Parallelism section: SP, CP, ZeRO,
// schedule, virtual stages). Inputs of the other mode are hidden, not removed, and the
// settings a mode had when it was left come back when it is chosen again.
import { h, $ } from './dom.js';
import { defaultState } from './state.js';
import { chipOf, switchMode, trainingPrecisions } from './training.js';

// Number inputs and where their value lives; `optional` ones may stay empty (null).
const NUMBERS = {
  cp: ['parallelism', 'cp'],
  virtual_stages: ['parallelism', 'virtual_stages'],
  seq_len: ['workload', 'seq_len'],
  global_batch: ['workload', 'global_batch'],
  micro_batch: ['workload', 'micro_batch'],
  train_tokens: ['workload', 'train_tokens', 'optional'],
};
const CHECKBOXES = {
  sp: ['parallelism', 'sp'],
  train_flash: ['workload', 'flash_attention'],
  dropout: ['workload', 'dropout'],
  overlap_grad_reduce: ['workload', 'overlap_grad_reduce'],
  overlap_param_gather: ['workload', 'overlap_param_gather'],
  tp_comm_overlap: ['workload', 'tp_comm_overlap'],
};
const SELECTS = {
  zero: ['parallelism', 'zero', Number],
  schedule: ['parallelism', 'schedule', String],
  recompute: ['workload', 'recompute', String],
  train_precision: ['workload', 'precision', String],
};

const showVirtualStages = (p) => p.schedule === 'interleaved_1f1b' || p.virtual_stages !== 1;

// current(): the form's state; update(edit): applies an edit to a copy and hands it on;
// readNumber(el, {optional}): the form's number reader (records entries that are not numbers).
export function createTrainingForm(presets, { current, update, onChange, readNumber }) {
  const left = { inference: null, training: null }; // what each mode had when it was left

  for (const radio of document.querySelectorAll('input[name="mode"]')) {
    radio.addEventListener('change', (e) => {
      const state = current();
      const mode = e.target.value;
      left[state.mode] = { parallelism: state.parallelism, workload: state.workload, engine: state.engine };
      const fallback = defaultState(presets);
      onChange(switchMode(state, mode, {
        other: left[mode],
        inference: fallback,
        maxSeqLen: presets.models[state.model.preset]?.max_seq_len,
      }));
    });
  }

  for (const [id, [part, key, optional]] of Object.entries(NUMBERS)) {
    $(`#${id}`).addEventListener('input', (e) => update((next) => {
      const value = readNumber(e.target, { optional: Boolean(optional) });
      if (value !== undefined) next[part][key] = value;
    }));
  }
  for (const [id, [part, key]] of Object.entries(CHECKBOXES)) {
    $(`#${id}`).addEventListener('change', (e) => update((next) => { next[part][key] = e.target.checked; }));
  }
  for (const [id, [part, key, type]] of Object.entries(SELECTS)) {
    $(`#${id}`).addEventListener('change', (e) => update((next) => {
      next[part][key] = type(e.target.value);
      // The interleaved schedule needs more than one chunk per stage, and only it takes them.
      if (id === 'schedule') {
        const p = next.parallelism;
        if (p.schedule === 'interleaved_1f1b' && p.virtual_stages === 1) p.virtual_stages = 2;
        if (p.schedule !== 'interleaved_1f1b') p.virtual_stages = 1;
      }
    }));
  }

  // The chip's training formats, and the state's own if the chip lacks it (so that the
  // engine's error shows at the field instead of the select silently changing it).
  function fillPrecisions(state) {
    const select = $('#train_precision');
    const formats = trainingPrecisions(state.machine, presets);
    const chosen = state.workload.precision;
    const chip = chipOf(state.machine, presets)?.name ?? 'this chip';
    const key = [...formats, chosen].join(' ');
    if (select.dataset.formats === key) return;
    select.dataset.formats = key;
    select.replaceChildren(...formats.map((p) => h('option', { value: p, text: p })),
      formats.includes(chosen) ? null : h('option', { value: chosen, text: `${chosen} (not on ${chip})` }));
  }

  // set(el, value): the form's writer (leaves a number input alone while it is typed in).
  function render(state, set) {
    const training = state.mode === 'training';
    for (const el of document.querySelectorAll('#inputs [data-mode]')) el.hidden = el.dataset.mode !== state.mode;
    $(`#mode-${state.mode}`).checked = true;
    if (!training) return;
    fillPrecisions(state);
    const all = { ...NUMBERS, ...CHECKBOXES, ...SELECTS };
    for (const [id, [part, key]] of Object.entries(all)) set($(`#${id}`), state[part][key] ?? '');
    $('[data-field="virtual_stages"]').hidden = !showVirtualStages(state.parallelism);
  }

  // The micro-batches the batch sizes give (from the last result of these inputs).
  function showResolved(result) {
    const hint = $('#micro_batch-hint');
    const ok = result?.workload === 'training';
    hint.hidden = !ok;
    hint.textContent = ok
      ? `${result.summary.micro_batches} micro-batches per replica and step: global batch ÷ (micro-batch × DP ${result.scenario.parallelism.dp}).`
      : '';
  }

  return { render, showResolved };
}
