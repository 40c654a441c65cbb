// The "Custom chip" and "Custom system" editors under Hardware: they start from the selected
// preset's values (the chip of chip × count, or the system preset's chip) and keep what
// differs in the state (machine.chip, machine.host: hardware-edit.js), so that the edited
// hardware travels in the scenario and the link. Input ids follow the engine's error paths
// (system.chip.hbm_gb -> #chip-hbm_gb, system.host.memory_gb -> #host-memory_gb), so that
// an engine error shows at its field (views/errors.js). The chip count is "Number of chips"
// and the levels that join the chips are the Network editor (network-editor.js).
import { h, $ } from './dom.js';
import { num } from './format.js';
import {
  HOST_FIELDS, chipFieldId, chipFields, chipKeyOf, effectiveChip, fieldValue, hostFieldId, hostOf,
  normalizeMachine, presetChipKey, presetHost,
} from './hardware-edit.js';

function fieldBlock(id, field, group) {
  const label = h('label', { for: id, text: field.label, title: field.title });
  const input = h('input', {
    id, type: 'number', inputmode: 'decimal', min: 0, step: field.step ?? 'any',
    placeholder: field.optional ? 'none' : null, 'aria-describedby': `${id}-error`, dataset: { key: field.key },
  });
  const error = h('p', { class: 'field-error', id: `${id}-error`, role: 'alert', hidden: true });
  // data-label: how the general error line names this field.
  return h('div', { class: 'field', dataset: { field: id, label: `${group}: ${field.label}` } }, label, input, error);
}

// update(edit): applies edit(next) to a copy of the state; readNumber(el, {optional}) and
// invalid: the form's (form.js), so that a half-typed entry is reported like any other.
export function createHardwareEditor(presets, { update, readNumber, invalid }) {
  const chipBox = $('#chip-edit-fields');
  const hostBox = $('#system-edit-fields');
  const sysChip = $('#sys-chip');
  sysChip.append(...Object.entries(presets.chips).map(([key, doc]) => h('option', { value: key, text: doc.name })));
  let chipShape = null;

  function editMachine(change) {
    update((next) => {
      change(next.machine);
      normalizeMachine(next.machine, presets);
    });
  }

  chipBox.addEventListener('input', (e) => {
    const el = e.target;
    const { key } = el.dataset;
    if (!key) return;
    const field = chipFields(presets.chips[chipKeyOf(currentMachine, presets)]).find((f) => f.key === key);
    const value = readNumber(el, { optional: Boolean(field?.optional) });
    editMachine((machine) => {
      machine.chip ??= { preset: chipKeyOf(machine, presets), edits: {} };
      // Not a number (yet): the preset's value stands meanwhile; the field keeps its message.
      if (value === undefined) delete machine.chip.edits[key];
      else machine.chip.edits[key] = value;
    });
  });

  hostBox.addEventListener('input', (e) => {
    const el = e.target;
    const { key } = el.dataset;
    if (!key) return;
    const value = readNumber(el);
    editMachine((machine) => {
      machine.host = hostOf(machine, presets);
      machine.host[key] = value === undefined ? presetHost(machine, presets)[key] : value;
    });
  });

  // Another chip in the system: its own values, without the edits of the one before.
  sysChip.addEventListener('change', () => editMachine((machine) => {
    machine.chip = { preset: sysChip.value, edits: {} };
  }));

  const clearInvalid = (prefix) => {
    for (const id of [...invalid.keys()]) if (id.startsWith(prefix)) invalid.delete(id);
  };
  $('#chip-edit-reset').addEventListener('click', () => {
    clearInvalid('chip-');
    editMachine((machine) => {
      machine.chip = machine.kind === 'system' && machine.chip?.preset !== presetChipKey(machine, presets)
        ? { preset: machine.chip.preset, edits: {} } : null;
    });
  });
  $('#system-edit-reset').addEventListener('click', () => {
    clearInvalid('host-');
    editMachine((machine) => {
      machine.host = null;
      if (machine.kind === 'system') machine.chip = null;
    });
  });

  let currentMachine = null;

  // Writes a value unless someone is typing in that input (force: a restored link).
  function write(el, value, force) {
    if (!force && document.activeElement === el) return;
    el.value = value === undefined || value === null ? '' : String(value);
    invalid.delete(el.id);
  }

  function render(state, { force = false } = {}) {
    const machine = state.machine;
    currentMachine = machine;
    const chipKey = chipKeyOf(machine, presets);
    const base = presets.chips[chipKey];
    const chip = effectiveChip(machine, presets);
    const fields = chipFields(base);
    const shape = JSON.stringify([chipKey, fields.map((f) => f.key)]);
    if (shape !== chipShape) {
      const focused = document.activeElement?.id;
      chipBox.replaceChildren(...fields.map((f) => fieldBlock(chipFieldId(f.key), f, 'Custom chip')));
      chipShape = shape;
      if (focused?.startsWith('chip-')) document.getElementById(focused)?.focus();
      clearInvalid('chip-');
    }
    if (!hostBox.firstChild) hostBox.append(...HOST_FIELDS.map((f) => fieldBlock(hostFieldId(f.key), f, 'Custom system')));

    const edits = machine.chip?.edits ?? {};
    for (const f of fields) {
      const el = document.getElementById(chipFieldId(f.key));
      el.closest('.field').classList.toggle('edited', f.key in edits);
      write(el, fieldValue(chip, f.key), force);
    }
    const host = hostOf(machine, presets);
    const hostBase = presetHost(machine, presets);
    for (const f of HOST_FIELDS) {
      const el = document.getElementById(hostFieldId(f.key));
      el.closest('.field').classList.toggle('edited', host[f.key] !== hostBase[f.key]);
      write(el, host[f.key], force);
    }

    const system = machine.kind === 'system';
    const swapped = system && chipKey !== presetChipKey(machine, presets);
    $('[data-field="sys-chip"]').hidden = !system;
    sysChip.value = chipKey;
    sysChip.closest('.field').classList.toggle('edited', swapped);

    const chipEdited = Object.keys(edits).length > 0 || [...invalid.keys()].some((id) => id.startsWith('chip-'));
    $('#chip-edit-badge').hidden = !chipEdited;
    $('#chip-edit-badge').textContent = 'edited';
    $('#chip-edit-reset').hidden = !chipEdited;
    $('#chip-edit-hint').textContent = `Starts from ${base?.name ?? chipKey}: ${num(fieldValue(base, 'peak_tflops.bf16'))} TFLOP/s bf16, `
      + `${num(base?.hbm_gb)} GB at ${num(base?.hbm_tb_s)} TB/s. An empty peak: the chip has no such mode.`;

    const systemEdited = swapped || machine.host != null || [...invalid.keys()].some((id) => id.startsWith('host-'));
    $('#system-edit-badge').hidden = !systemEdited;
    $('#system-edit-badge').textContent = 'edited';
    $('#system-edit-reset').hidden = !systemEdited;
    const what = system ? presets.systems[machine.preset]?.name ?? machine.preset : `${base?.name ?? chipKey} × ${num(machine.count)}`;
    $('#system-edit-hint').textContent = `Starts from ${what}. Its chip count is “Number of chips” above; the levels that join the chips, Network below. `
      + 'The host side of each chip serves KV-cache and training offload.';
  }

  return { render };
}
