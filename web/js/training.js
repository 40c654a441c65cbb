// Training mode in the page state: its settings, the scenario they send and their keys in
// the link. The state holds only the active mode's settings (state.mode says which), so a
// link describes one workload; the form remembers the other mode's for the session.
//
// In training mode:
//   state.parallelism = { tp, pp, ep, dp (null: fill the system), sp, cp, zero, schedule, virtual_stages }
//     (no micro_batches: training derives them from the batch sizes)
//   state.workload = { seq_len, global_batch, micro_batch, recompute, precision, flash_attention,
//     dropout, overlap_grad_reduce, overlap_param_gather, tp_comm_overlap, train_tokens (null: not asked),
//     offload_optimizer, offload_parameters ("none" | "cpu" | "nvme"; the scenario's workload.offload),
//     framework (a presets/frameworks key, the scenario's top-level "framework"; "current": none
//     named, current practice, which the result's summary.framework says) }
// Link keys (after mode=training, model, system, chips, network, tp, pp[, ep][, dp]):
//   &sp=off&cp=1&zero=0&schedule=1f1b&vs=1&seq=4096&global_batch=256&micro_batch=1
//   &recompute=none&precision=bf16&flash=on&dropout=off
//   [&overlap_grad=off&overlap_param=off&tp_overlap=on]   (only when not the default)
//   [&tokens=3e11]                                        (only when asked)
//   [&offload_optimizer=cpu&offload_parameters=nvme]      (only when not "none")
//   [&framework=deepspeed]                                (the training software, when not "current")
export const MODES = ['inference', 'training'];
export const RECOMPUTE = ['none', 'selective', 'full'];
export const SCHEDULES = ['gpipe', '1f1b', 'interleaved_1f1b', 'zb_h1'];
// Where ZeRO-Offload / ZeRO-Infinity keep a chip's optimizer states or parameters.
export const OFFLOAD_TARGETS = ['none', 'cpu', 'nvme'];
export const TRAIN_PRECISIONS = ['bf16', 'fp16', 'fp8'];
export const ZERO_STAGES = [0, 1, 2, 3];

// What a scenario that leaves a field out gets (core: io/workload_json.cpp,
// io/parallelism_json.cpp); the required fields (sequence, batches, precision) take
// middle-of-the-road values for a first switch to training.
export const TRAINING_PARALLEL = { sp: false, cp: 1, zero: 0, schedule: '1f1b', virtual_stages: 1 };
export const TRAINING_WORKLOAD = {
  seq_len: 4096, global_batch: 256, micro_batch: 1, recompute: 'none', precision: 'bf16',
  flash_attention: true, dropout: false,
  overlap_grad_reduce: true, overlap_param_gather: true, tp_comm_overlap: false, train_tokens: null,
  offload_optimizer: 'none', offload_parameters: 'none', framework: 'current',
};
// The framework profile a training scenario gets when it names none (core: io/scenario_json.cpp).
export const DEFAULT_FRAMEWORK = 'current';
// The state's offload fields and their names under the scenario's workload.offload.
const OFFLOAD_FIELDS = { offload_optimizer: 'optimizer', offload_parameters: 'parameters' };

// The parallelism and workload of a training scenario document (its "parallelism" and
// "workload", and its top-level "framework" in the workload's state), with the engine's
// defaults for what it leaves out.
export function trainingFromDoc(par, w, framework = DEFAULT_FRAMEWORK) {
  const parallelism = { tp: par.tp ?? 1, pp: par.pp ?? 1, ep: par.ep ?? 1, dp: par.dp ?? null };
  for (const [key, value] of Object.entries(TRAINING_PARALLEL)) parallelism[key] = par[key] ?? value;
  const workload = {};
  for (const [key, value] of Object.entries(TRAINING_WORKLOAD)) workload[key] = w[key] ?? value;
  for (const [key, name] of Object.entries(OFFLOAD_FIELDS)) workload[key] = w.offload?.[name] ?? 'none';
  workload.train_tokens = w.train_tokens || null; // 0: not asked
  workload.framework = typeof framework === 'string' ? framework : DEFAULT_FRAMEWORK;
  return { parallelism, workload };
}

// The scenario's parallelism and workload for the engine. Every field is written out, so
// that two states that differ only in an engine default still read as different; ep only
// when the experts are spread (as inference sends it: a dense model's scenario has none);
// the framework (top level) only when one is named, so that the preset scenarios, which
// name none, still match.
export function trainingScenario({ parallelism: p, workload: w }) {
  const parallelism = { tp: p.tp, pp: p.pp };
  if ((p.ep ?? 1) !== 1) parallelism.ep = p.ep;
  if (p.dp !== null) parallelism.dp = p.dp;
  for (const key of Object.keys(TRAINING_PARALLEL)) parallelism[key] = p[key];
  const workload = { kind: 'training' };
  for (const key of Object.keys(TRAINING_WORKLOAD)) {
    if (key !== 'train_tokens' && key !== 'framework' && !(key in OFFLOAD_FIELDS)) workload[key] = w[key];
  }
  workload.offload = Object.fromEntries(Object.entries(OFFLOAD_FIELDS).map(([key, name]) => [name, w[key] ?? 'none']));
  if (w.train_tokens !== null) workload.train_tokens = w.train_tokens;
  const framework = w.framework ?? DEFAULT_FRAMEWORK;
  return { parallelism, workload, ...(framework !== DEFAULT_FRAMEWORK ? { framework } : {}) };
}

// Link keys: [key, where in the state, kind, default written (true) or only when not default].
const P = (s) => s.parallelism;
const W = (s) => s.workload;
const KEYS = [
  ['sp', P, 'sp', 'bool', true],
  ['cp', P, 'cp', 'number', true],
  ['zero', P, 'zero', 'number', true],
  ['schedule', P, 'schedule', SCHEDULES, true],
  ['vs', P, 'virtual_stages', 'number', true],
  ['seq', W, 'seq_len', 'number', true],
  ['global_batch', W, 'global_batch', 'number', true],
  ['micro_batch', W, 'micro_batch', 'number', true],
  ['recompute', W, 'recompute', RECOMPUTE, true],
  ['precision', W, 'precision', null, true], // choices: the page's precision list (state.js)
  ['flash', W, 'flash_attention', 'bool', true],
  ['dropout', W, 'dropout', 'bool', true],
  ['overlap_grad', W, 'overlap_grad_reduce', 'bool', false],
  ['overlap_param', W, 'overlap_param_gather', 'bool', false],
  ['tp_overlap', W, 'tp_comm_overlap', 'bool', false],
  ['tokens', W, 'train_tokens', 'number', false],
  ['offload_optimizer', W, 'offload_optimizer', OFFLOAD_TARGETS, false],
  ['offload_parameters', W, 'offload_parameters', OFFLOAD_TARGETS, false],
  ['framework', W, 'framework', 'framework', false], // a presets/frameworks key
];
export const TRAINING_KEYS = KEYS.map(([key]) => key);
const DEFAULTS = { ...TRAINING_PARALLEL, ...TRAINING_WORKLOAD };

// -> [[key, text]] in link order. `text` writes a number as the link keeps it.
export function trainingParams(state, text) {
  const out = [];
  for (const [key, slot, field, kind, always] of KEYS) {
    const value = slot(state)[field];
    if (value === null || (!always && value === DEFAULTS[field])) continue;
    if (kind === 'bool') out.push([key, value ? 'on' : 'off']);
    else if (kind === 'number') out.push([key, text(value)]);
    else out.push([key, value]);
  }
  return out;
}

// Reads the training keys of a link into `state` (already in training mode). `read` has
// the link's readers: { number, bool, choice(key, text, choices), precisions,
// frameworks (presets.frameworks) }.
export function readTraining(q, state, read) {
  for (const [key, slot, field, kind] of KEYS) {
    if (!q.has(key)) continue;
    const text = q.get(key);
    let value;
    if (kind === 'bool') value = read.bool(key, text);
    else if (kind === 'number') value = read.number(key, text);
    else if (kind === 'framework') value = read.choice(key, text, Object.keys(read.frameworks));
    else value = read.choice(key, text, kind ?? read.precisions);
    slot(state)[field] = value;
  }
}

// The state switched to training (or back), keeping the model, the machine and the shared
// parallel degrees (TP, PP, EP, DP). `other`: what that mode had when it was last left
// ({parallelism, workload, engine}), if anything; `inference`: the inference settings to
// start from when there is nothing to go back to.
export function switchMode(state, mode, { other = null, inference, maxSeqLen } = {}) {
  if (state.mode === mode) return state;
  const { tp, pp, dp } = state.parallelism;
  const ep = state.parallelism.ep ?? 1;
  const next = { ...structuredClone(state), mode };
  if (mode === 'training') {
    const start = other ?? {
      parallelism: { ...TRAINING_PARALLEL },
      workload: { ...TRAINING_WORKLOAD, seq_len: Math.min(TRAINING_WORKLOAD.seq_len, maxSeqLen ?? Infinity) },
    };
    next.parallelism = { tp, pp, ep, dp, ...Object.fromEntries(Object.keys(TRAINING_PARALLEL).map((k) => [k, start.parallelism[k]])) };
    next.workload = structuredClone(start.workload);
    next.engine = 'default'; // the serving software is an inference setting
  } else {
    const start = other ?? inference;
    next.parallelism = { tp, pp, ep, dp, micro_batches: start.parallelism.micro_batches ?? null };
    next.workload = structuredClone(start.workload);
    next.engine = start.engine;
  }
  return next;
}

// The chip of a machine, and the training formats it has a peak for.
export function chipOf(machine, presets) {
  const key = machine.kind === 'chip' ? machine.preset : presets.systems[machine.preset]?.chip;
  return presets.chips[key] ?? null;
}

export function trainingPrecisions(machine, presets) {
  const peaks = chipOf(machine, presets)?.peak_tflops ?? {};
  return TRAIN_PRECISIONS.filter((p) => peaks[p] > 0);
}
