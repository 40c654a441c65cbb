// The inputs panel: fills the controls from the presets, shows a state, and turns every
// edit into a new state. It never evaluates anything itself.
import { h, $ } from './dom.js';
import { DEFAULT_ENGINE, PRECISIONS, PRECISION_ROLES, fromScenario, matchingScenario } from './scenario.js';
import { engineChoices } from './engine-picker.js';
import { anyExperts } from './layer-groups.js';
import { createArchForm } from './arch-form.js';
import { createServingForm } from './serving-form.js';
import { createCostForm } from './cost-form.js';
import { int, num } from './format.js';
import { createNetworkEditor } from './network-editor.js';
import { createHardwareEditor } from './hardware-editor.js';
import { effectiveChip } from './hardware-edit.js';
import { createPickers } from './picker.js';
import { createTrainingForm } from './training-form.js';
import { networkOf } from './network.js';
import { createHfImport } from './hf-import.js';
import { syncStartFrom } from './start-from.js';
import { followChips } from './layout-follow.js';

// Number inputs and where their value lives in the state (training's: training-form.js).
const NUMBER_FIELDS = {
  chips: (s) => [s.machine, 'count'],
  tp: (s) => [s.parallelism, 'tp'],
  pp: (s) => [s.parallelism, 'pp'],
  ep: (s) => [s.parallelism, 'ep'],
};
const INFERENCE_FIELDS = {
  batch: (s) => [s.workload, 'batch'],
  input: (s) => [s.workload, 'input_tokens'],
  output: (s) => [s.workload, 'output_tokens'],
};
// Number inputs that may stay empty: the engine chooses (shown as the placeholder).
const OPTIONAL_FIELDS = {
  dp: (s) => [s.parallelism, 'dp'],
};
const OPTIONAL_INFERENCE_FIELDS = {
  micro_batches: (s) => [s.parallelism, 'micro_batches'],
};

function fillSelects(presets) {
  const scenarioSelect = $('#scenario-preset');
  scenarioSelect.append(h('option', { value: '', text: 'Custom scenario' }));
  for (const [kind, label] of [['inference', 'Inference'], ['training', 'Training']]) {
    const docs = Object.entries(presets.scenarios).filter(([, doc]) => (doc.workload?.kind ?? 'inference') === kind);
    if (docs.length) scenarioSelect.append(h('optgroup', { label }, docs.map(([key, doc]) => h('option', { value: key, text: doc.name }))));
  }

  for (const [key, doc] of Object.entries(presets.models)) {
    $('#model').append(h('option', { value: key, text: doc.name }));
  }

  const systems = h('optgroup', { label: 'Systems' });
  for (const [key, doc] of Object.entries(presets.systems)) {
    systems.append(h('option', { value: `system:${key}`, text: doc.name }));
  }
  const chips = h('optgroup', { label: 'Single chip type × count' });
  for (const [key, doc] of Object.entries(presets.chips)) {
    chips.append(h('option', { value: `chip:${key}`, text: doc.name }));
  }
  $('#hardware').append(systems, chips);

  for (const role of PRECISION_ROLES) {
    $(`#${role}`).append(...PRECISIONS.map((p) => h('option', { value: p, text: p })));
  }

  // The engine, then its release (engine-picker.js); current practice when it is unknown.
  const { unknown, groups } = engineChoices(presets.engines);
  if (unknown) $('#engine').append(h('option', { value: unknown.key, text: unknown.text }));
  for (const group of groups) {
    $('#engine').append(h('optgroup', { label: group.label }, group.releases.map((r) => h('option', { value: r.key, text: r.text }))));
  }
}

// The chip, then the innermost level of the network (its bandwidth per chip, one direction).
// `invalid`: the entries that are not numbers; a bandwidth from an entry that is not a
// number, or not above zero, is left out rather than shown.
function hardwareHint(machine, presets, invalid = new Map()) {
  const first = networkOf(machine, presets)[0];
  const perChip = first ? first.links_per_chip * first.link_gbps : NaN;
  const typed = !invalid.has('net-0-links_per_chip') && !invalid.has('net-0-link_gbps');
  const net = first && typed && Number.isFinite(perChip) && first.links_per_chip > 0 && first.link_gbps > 0
    ? ` · ${first.name}, ${num(perChip)} GB/s per chip`
    : '';
  if (machine.kind === 'system') {
    const sys = presets.systems[machine.preset];
    // The chip in use: another one put in the system, or edited (hardware-edit.js).
    const inUse = effectiveChip(machine, presets);
    return `${systemChips(machine.count, sys, inUse.name ?? sys.chip)}${net}`;
  }
  const chip = effectiveChip(machine, presets);
  const bf16 = chip.peak_tflops?.bf16;
  return `${num(chip.hbm_gb)} GB HBM at ${num(chip.hbm_tb_s)} TB/s` + (bf16 ? ` · ${num(bf16)} TFLOPS bf16` : '') + net;
}

// The chips the scenario uses of a system preset: "8 × H100 per system", and when the
// count differs, "1 × H100, of the 8 in one system" or "16 × H100: 2 systems of 8".
function systemChips(count, sys, chip) {
  if (!Number.isFinite(count) || count === sys.count || count < 1) return `${sys.count} × ${chip} per system`;
  if (count < sys.count) return `${int(count)} × ${chip}, of the ${sys.count} in one system`;
  const systems = count / sys.count;
  return Number.isInteger(systems) ? `${int(count)} × ${chip}: ${int(systems)} systems of ${sys.count}`
    : `${int(count)} × ${chip}, in systems of ${sys.count}`;
}

// What the engine profile changes, in one line.
function engineHint(doc, key) {
  if (!doc) return '';
  const parts = [
    key === DEFAULT_ENGINE ? 'no engine named: the common ground of current releases' : null,
    doc.kv_read_once_per_group ? 'GQA-aware decode attention' : 'decode attention reads the KV cache once per query head',
    doc.launch_overhead_us > 0 ? `eager launches (+${num(doc.launch_overhead_us)} µs per kernel)` : 'CUDA graphs',
    doc.all_reduce?.implementation === 'custom' ? 'custom one-shot all-reduce' : 'library all-reduce (NCCL/RCCL/HCCL)',
  ];
  if (doc.kv_read_allocated_length) parts.push('static KV cache shapes');
  return parts.filter(Boolean).join(' · ');
}

// Sets a control, except a number input the person is typing in: rewriting it would undo
// a half-typed entry (an emptied field, a leading minus) on every keystroke.
// Returns whether it wrote.
function setValue(el, value, force) {
  if (el.type === 'checkbox') el.checked = Boolean(value);
  else if (force || el.type !== 'number' || document.activeElement !== el) el.value = String(value);
  else return false;
  return true;
}

// onChange(state, {notice}): a new state from an edit; check(state) -> {ok, fits}: whether a
// state computes and fits in memory (the first switch to training looks for one that does);
// importHf(text) -> the engine's import of a Hugging Face config.json (hf-import.js).
export function createForm(presets, { onChange, check, importHf }) {
  fillSelects(presets);
  createPickers(presets); // type to filter the model and hardware lists (picker.js)
  let current = null;
  const invalid = new Map(); // field id -> message, for entries that are not numbers at all

  const clone = () => structuredClone(current);

  // A number input's value, or undefined after recording why it is not one. `optional`:
  // an empty entry is valid and reads as null (the engine's choice), not an error.
  function readNumber(el, { optional = false } = {}) {
    const text = el.value.trim();
    if (optional && text === '' && el.validity.valid) {
      invalid.delete(el.id);
      return null;
    }
    const value = el.type === 'number' ? el.valueAsNumber : Number(text);
    // A number beyond double range (5,000 digits): it is a number, out of range; the engine
    // names the field's range (scenario.js sends it as a literal beyond range).
    if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text) && !Number.isFinite(Number(text))) {
      invalid.delete(el.id);
      return Number(text);
    }
    if (text === '' || !Number.isFinite(value)) {
      // Typed but unreadable (the browser empties the value): "1e", or more digits than
      // any number has.
      invalid.set(el.id, el.validity?.badInput ? 'Not a number, or too large to be one: enter a number.' : 'Enter a number.');
      return undefined;
    }
    invalid.delete(el.id);
    return value;
  }

  // Applies an edit to a copy of the current state and hands it on.
  function update(edit) {
    const next = clone();
    edit(next);
    onChange(next);
  }
  const network = createNetworkEditor(presets, { update, readNumber, invalid });
  const hardware = createHardwareEditor(presets, { update, readNumber, invalid });
  const training = createTrainingForm(presets, { current: () => current, update, onChange, readNumber, check });
  createHfImport(presets, { importHf, current: () => current, onChange });
  const serving = createServingForm(presets, { update, readNumber, invalid });
  const cost = createCostForm(presets, { update, readNumber, invalid });
  const arch = createArchForm(presets, { current: () => current, onChange, readNumber });

  $('#scenario-preset').addEventListener('change', (e) => {
    const key = e.target.value;
    if (!key) {
      render(current); // "Custom" is a description, not a choice: show the real match again
      return;
    }
    // The collective's chip count starts again from the new scenario's TP group.
    onChange({ ...fromScenario(presets.scenarios[key], presets), view: { ...current.view, coll_chips: null } });
  });

  $('#model').addEventListener('change', (e) => {
    const next = clone();
    next.model = { preset: e.target.value, edits: {} };
    // Expert parallelism is for a model with experts: a dense model starts again from EP 1.
    if (!anyExperts(presets.models[next.model.preset])) next.parallelism.ep = 1;
    onChange(next);
  });

  $('#hardware').addEventListener('change', (e) => {
    const [kind, preset] = e.target.value.split(':');
    const next = clone();
    const count = kind === 'system' ? presets.systems[preset].count : next.machine.count;
    next.machine = { kind, preset, count, network: null }; // a new machine comes with its own network
    onChange(followChips(next, current.machine.count, { presets, check }));
  });

  const numberFields = [[NUMBER_FIELDS, false], [INFERENCE_FIELDS, false], [OPTIONAL_FIELDS, true], [OPTIONAL_INFERENCE_FIELDS, true]];
  for (const [fields, optional] of numberFields) {
    for (const [id, slot] of Object.entries(fields)) {
      $(`#${id}`).addEventListener('input', (e) => {
        const next = clone();
        const value = readNumber(e.target, { optional });
        if (value !== undefined) {
          const [obj, key] = slot(next);
          obj[key] = value;
        }
        // A new chip count brings TP (and a typed DP that filled the chips) along.
        onChange(id === 'chips' ? followChips(next, current.machine.count, { presets, check }) : next);
      });
    }
  }

  for (const role of PRECISION_ROLES) {
    $(`#${role}`).addEventListener('change', (e) => update((next) => { next.workload.precision[role] = e.target.value; }));
  }
  $('#engine').addEventListener('change', (e) => update((next) => { next.engine = e.target.value; }));
  $('#flash').addEventListener('change', (e) => update((next) => { next.workload.flash_attention = e.target.checked; }));

  for (const name of ['split', 'decode', 'table']) {
    for (const radio of document.querySelectorAll(`input[name="${name}"]`)) {
      radio.addEventListener('change', (e) => {
        const next = clone();
        next.view[name] = e.target.value;
        onChange(next);
      });
    }
  }

  function render(state, { force = false } = {}) {
    current = state;
    // A rewritten input shows a valid value again, so its "not a number" error goes.
    const set = (el, value) => setValue(el, value, force) && invalid.delete(el.id);
    const match = matchingScenario(state, presets);
    $('#scenario-preset').value = match ?? '';
    syncStartFrom();
    $('#scenario-hint').textContent = match
      ? presets.scenarios[match].description
      : 'Edited from a preset. Pick one above to start over.';

    set($('#model'), state.model.preset);
    arch.render(state, set);
    const moe = anyExperts(presets.models[state.model.preset]);

    set($('#hardware'), `${state.machine.kind}:${state.machine.preset}`);
    const inference = state.mode !== 'training';
    const fields = inference ? { ...NUMBER_FIELDS, ...OPTIONAL_FIELDS, ...INFERENCE_FIELDS, ...OPTIONAL_INFERENCE_FIELDS }
      : { ...NUMBER_FIELDS, ...OPTIONAL_FIELDS };
    for (const [id, slot] of Object.entries(fields)) {
      const [obj, key] = slot(state);
      set($(`#${id}`), obj[key] ?? (id === 'ep' ? 1 : ''));
    }
    // EP: for a model with experts (or a link that set it, so that its error can be fixed).
    const ep = state.parallelism.ep ?? 1;
    $('[data-field="ep"]').hidden = !moe && ep === 1;
    $('#dp-hint').textContent = moe
      ? 'Empty: as many as fill the chips. EP groups are carved out of DP when EP divides DP; otherwise the experts are folded over TP × DP (EP over the TP group: TEP), and EP must divide TP × DP.'
      : 'Empty: as many as fill the chips.';
    network.render(state, { force });
    hardware.render(state, { force });
    // After the network's inputs: a rewritten one has dropped its "not a number".
    $('#hardware-hint').textContent = hardwareHint(state.machine, presets, invalid);
    training.render(state, set);
    cost.render(state, set);
    serving.render(state, set);
    if (inference) {
      for (const role of PRECISION_ROLES) set($(`#${role}`), state.workload.precision[role]);
      set($('#flash'), state.workload.flash_attention);
      set($('#engine'), state.engine);
      $('#engine-hint').textContent = engineHint(presets.engines[state.engine], state.engine);
    }

    // The phase radios of the mode's own table (prefill or forward when the view names the other mode's).
    const phases = inference ? ['prefill', 'decode'] : ['forward', 'backward'];
    const view = { ...state.view, table: phases.includes(state.view.table) ? state.view.table : phases[0] };
    for (const name of ['split', 'decode', 'table']) {
      const radio = $(`input[name="${name}"][value="${view[name]}"]`);
      if (radio) radio.checked = true;
    }
  }

  // A new state from outside (a restored hash, a preset) replaces whatever was half-typed.
  function reset(state) {
    render(state, { force: true });
  }

  // Entries the engine never sees because they are not numbers: field id -> message.
  const localErrors = () => new Map(invalid);

  // What the engine chose for the fields left empty, from the last result of these inputs.
  function showResolved(result) {
    const dp = result?.scenario.parallelism?.dp; // none when disaggregated: each pool has its own
    $('#dp').placeholder = dp != null ? `auto: ${dp}` : 'auto';
    $('#micro_batches').placeholder = result?.workload === 'inference' && result.pipeline ? `auto: ${result.pipeline.micro_batches}` : 'auto';
    training.showResolved(result);
    cost.showResolved(result);
    serving.showResolved(result, current);
  }

  return { render, reset, localErrors, showResolved };
}
