// The mode switch and the training inputs of the form: the training workload (Workload
// section) and the parallel settings only training has (Parallelism section: SP, CP, ZeRO,
// schedule, virtual stages). Inputs of the other mode are hidden, not removed, and the
// settings a mode had when it was left come back when it is chosen again.
import { h, $ } from './dom.js';
import { defaultState } from './state.js';
import { fromScenario } from './scenario.js';
import { int } from './format.js';
import { hostOf } from './hardware-edit.js';
import { DEFAULT_FRAMEWORK, TRAINING_PARALLEL, TRAINING_WORKLOAD, chipOf, switchMode, trainingPrecisions } from './training.js';

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
  offload_optimizer: ['workload', 'offload_optimizer', String],
  offload_parameters: ['workload', 'offload_parameters', String],
  framework: ['workload', 'framework', String],
};

const showVirtualStages = (p) => p.schedule === 'interleaved_1f1b' || p.virtual_stages !== 1;

// The training preset the first switch to training falls back on when the scenario's own
// model and machine cannot train in memory (Llama-2-70B on one DGX H100, the default, cannot).
export const TRAINING_FALLBACK = 'train-llama3-8b-8-h100';

// Memory-lean training settings: one sequence per micro-batch, every layer recomputed, the
// optimizer states sharded over the replicas, the norms split over the TP group.
function leanStart(state, maxSeqLen) {
  return {
    parallelism: { ...TRAINING_PARALLEL, zero: 1, sp: state.parallelism.tp > 1 },
    workload: { ...TRAINING_WORKLOAD, seq_len: Math.min(TRAINING_WORKLOAD.seq_len, maxSeqLen ?? Infinity), micro_batch: 1, recompute: 'full' },
  };
}

const sameMachine = (a, b) => JSON.stringify([a.model, a.machine]) === JSON.stringify([b.model, b.machine]);
const sameScenario = (a, b) => JSON.stringify({ ...a, view: null }) === JSON.stringify({ ...b, view: null });

// current(): the form's state; update(edit): applies an edit to a copy and hands it on;
// onChange(state, {notice}): hands on a new state; readNumber(el, {optional}): the form's
// number reader (records entries that are not numbers); check(state) -> {ok, fits}: whether
// a state computes, and fits in memory.
export function createTrainingForm(presets, { current, update, onChange, readNumber, check = () => ({ ok: true, fits: true }) }) {
  const left = { inference: null, training: null }; // what each mode had when it was left
  // The training software: current practice (no framework named) first, then each profile.
  const all = Object.entries(presets.frameworks ?? {});
  const frameworks = [...all.filter(([key]) => key === DEFAULT_FRAMEWORK), ...all.filter(([key]) => key !== DEFAULT_FRAMEWORK)];
  $('#framework').append(...frameworks.map(([key, doc]) => h('option', {
    value: key, text: key === DEFAULT_FRAMEWORK ? `Unknown: ${doc.name}` : doc.name })));
  // After a fallback to the training preset: the inference state it replaced, and the
  // training state it loaded (back to inference with the same model and machine restores it).
  let replaced = null;

  // The first switch to training: the model and machine kept, with the usual training
  // settings if they fit, else with lean ones; if neither fits, the fallback preset. A
  // scenario the engine refuses (a batch that does not split over the replicas) stays, so
  // that its error shows at its field.
  function firstTraining(state, maxSeqLen) {
    const plain = switchMode(state, 'training', { maxSeqLen });
    const first = check(plain);
    if (first.fits || !first.ok) return { next: plain };
    const lean = switchMode(state, 'training', { other: leanStart(state, maxSeqLen), maxSeqLen });
    if (check(lean).fits) return { next: lean };
    const doc = presets.scenarios[TRAINING_FALLBACK];
    if (!doc) return { next: plain };
    const next = { ...fromScenario(doc, presets), view: state.view };
    replaced = { inference: state, training: next };
    const model = presets.models[state.model.preset]?.name ?? state.model.preset;
    return {
      next,
      notice: `Training ${model} on ${int(state.machine.count)} ${state.machine.count === 1 ? 'chip' : 'chips'} does not fit in memory, ` +
        `even with full recomputation and ZeRO 1, so training starts from the preset “${doc.name}”. ` +
        'Switching back to Inference returns to your scenario.',
    };
  }

  for (const radio of document.querySelectorAll('input[name="mode"]')) {
    radio.addEventListener('change', (e) => {
      const state = current();
      const mode = e.target.value;
      const maxSeqLen = presets.models[state.model.preset]?.max_seq_len;
      left[state.mode] = { parallelism: state.parallelism, workload: state.workload, engine: state.engine };
      if (mode === 'training' && replaced && sameScenario(state, replaced.inference)) {
        onChange({ ...structuredClone(replaced.training), view: state.view });
        return;
      }
      if (mode === 'training' && !left.training && state.mode !== 'training') {
        const { next, notice } = firstTraining(state, maxSeqLen);
        onChange(next, { notice });
        return;
      }
      if (mode === 'inference' && replaced && sameMachine(state, replaced.training)) {
        replaced.training = state; // with its edits, for the next switch to training
        onChange({ ...structuredClone(replaced.inference), view: state.view });
        return;
      }
      replaced = null;
      onChange(switchMode(state, mode, {
        other: left[mode],
        inference: defaultState(presets),
        maxSeqLen,
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

  // NVMe offload needs the host's NVMe bandwidth: without one (the system preset gives none,
  // and no custom host sets it) its options are off, unless the state already chose NVMe (so
  // that the engine's error shows at the field instead of the select silently changing it).
  function fillOffload(state) {
    const nvme = (hostOf(state.machine, presets).nvme_gbps ?? 0) > 0;
    for (const id of ['offload_optimizer', 'offload_parameters']) {
      const option = $(`#${id} option[value="nvme"]`);
      option.disabled = !nvme && state.workload[id] !== 'nvme';
      option.textContent = nvme ? 'NVMe' : 'NVMe (no NVMe bandwidth for this system: set one under Custom system)';
    }
  }

  // set(el, value): the form's writer (leaves a number input alone while it is typed in).
  function render(state, set) {
    const training = state.mode === 'training';
    for (const el of document.querySelectorAll('#inputs [data-mode]')) el.hidden = el.dataset.mode !== state.mode;
    $(`#mode-${state.mode}`).checked = true;
    if (!training) return;
    fillPrecisions(state);
    fillOffload(state);
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
      ? `${int(result.summary.micro_batches)} ${result.summary.micro_batches === 1 ? 'micro-batch' : 'micro-batches'} per replica and step: global batch ÷ (micro-batch × DP ${result.scenario.parallelism.dp}).`
      : '';
  }

  return { render, showResolved };
}
