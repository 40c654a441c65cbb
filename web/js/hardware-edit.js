// A custom chip and a custom system, as the page holds them: pure functions for the state,
// the scenario and the link (the editors are hardware-editor.js).
//
// State (both optional; absent or null: the preset's, as with machine.network):
//   machine.chip = { preset: KEY, edits: { 'hbm_gb': 100, 'peak_tflops.bf16': 1200, 'peak_tflops.fp4': null } }
//       the chip in use (a system preset's own, another chip put in the system, or the chip of
//       chip × count) and its fields that differ from that chip preset; null removes a field
//       (a peak the chip does not have: no such mode).
//   machine.host = { link_gbps, memory_gb, memory_gbps, nvme_gbps }: the whole host side of each
//       chip, when it differs from the preset's (the system's, or the chip's reference system's).
// Scenario (SCHEMA.md "Preset references"): system.chip = KEY or {preset: KEY, ...patch} (a JSON
// Merge Patch over the chip preset); system.host = the whole host object.
// Link: &sys.chip=h200-sxm (a system with another chip) &chip.hbm_gb=100&chip.peak_tflops.fp4=none
//       &host.memory_gb=500 — only what differs from the presets.

export const PEAK_FORMATS = ['fp32', 'tf32', 'bf16', 'fp16', 'fp8', 'int8', 'fp4', 'int4'];
export const HOST_KEYS = ['link_gbps', 'memory_gb', 'memory_gbps', 'nvme_gbps'];

// The chip fields the editor shows, for a chip preset: every format's peak (empty: no such
// mode), HBM, the efficiencies (the per-format matrix ones the preset has) and the TDP.
const BASE_FIELDS = [
  { key: 'hbm_gb', label: 'HBM (GB)', title: 'Memory capacity per chip' },
  { key: 'hbm_tb_s', label: 'HBM bandwidth (TB/s)', title: 'Peak memory bandwidth per chip' },
  { key: 'efficiency.matrix.default', label: 'Matrix efficiency', step: 0.01, title: 'Achievable fraction of the matrix peak, for formats without their own' },
  { key: 'efficiency.memory', label: 'Memory efficiency', step: 0.01, title: 'Achievable fraction of the HBM bandwidth (streaming kernels)' },
  { key: 'efficiency.attention', label: 'Attention efficiency', step: 0.01, optional: true, title: 'Fused attention’s fraction of the matrix peak; 0 or empty: the matrix efficiency' },
  { key: 'efficiency.attention_half_keys', label: 'Attention row work (keys)', step: 'any', optional: true, title: 'Fixed work of each query row of fused attention, in keys: a row of k keys runs at k / (k + this) of the attention efficiency (short prompts run slower); 0 or empty: none' },
  { key: 'efficiency.attention_backward', label: 'Attention backward efficiency', step: 0.01, optional: true, title: 'Training: fused attention backward’s fraction of the matrix peak; 0 or empty: the forward’s' },
  { key: 'efficiency.attention_backward_half_keys', label: 'Attention backward row work (keys)', step: 'any', optional: true, title: 'Training: the backward’s row work, in its keys; 0 or empty: the forward’s' },
  { key: 'tdp_w', label: 'TDP (W)', optional: true, title: 'Board power at full activity (for energy and owned cost)' },
];

export function chipFields(doc) {
  const peaks = PEAK_FORMATS.map((f) => ({ key: `peak_tflops.${f}`, label: `Peak ${f} (TFLOP/s)`, optional: true,
    title: `Dense datasheet peak in ${f}; empty: the chip has no ${f} mode` }));
  const perFormat = Object.keys(doc?.efficiency?.matrix ?? {}).filter((k) => PEAK_FORMATS.includes(k))
    .map((f) => ({ key: `efficiency.matrix.${f}`, label: `Matrix efficiency, ${f}`, step: 0.01, title: `Achievable fraction of the ${f} peak` }));
  const [hbm, bw, matrix, ...rest] = BASE_FIELDS;
  return [...peaks, hbm, bw, matrix, ...perFormat, ...rest];
}

// Every chip key a link may name (the per-format matrix efficiencies of any format), and those
// that "none" may remove (the optional fields).
const ALL_CHIP_FIELDS = chipFields({ efficiency: { matrix: Object.fromEntries(PEAK_FORMATS.map((f) => [f, 1])) } });
const CHIP_KEYS = new Set(ALL_CHIP_FIELDS.map((f) => f.key));
const OPTIONAL_KEYS = new Set(ALL_CHIP_FIELDS.filter((f) => f.optional).map((f) => f.key));
export const HOST_FIELDS = [
  { key: 'link_gbps', label: 'Host link (GB/s)', title: 'Chip ↔ host bandwidth, one direction (PCIe)' },
  { key: 'memory_gb', label: 'Host memory per chip (GB)' },
  { key: 'memory_gbps', label: 'Host memory bandwidth per chip (GB/s)' },
  { key: 'nvme_gbps', label: 'NVMe per chip (GB/s)' },
];

export const fieldValue = (doc, key) => key.split('.').reduce((o, k) => (o == null ? undefined : o[k]), doc);

// The key of the chip the system preset (or chip × count) has.
export function presetChipKey(machine, presets) {
  if (machine.kind === 'chip') return machine.preset;
  const ref = presets.systems[machine.preset]?.chip;
  return typeof ref === 'string' ? ref : ref?.preset;
}
export const chipKeyOf = (machine, presets) => machine.chip?.preset ?? presetChipKey(machine, presets);

// The chip the engine computes with: the preset with the edits over it.
export function effectiveChip(machine, presets) {
  remember(presets);
  const doc = structuredClone(presets.chips[chipKeyOf(machine, presets)] ?? {});
  for (const [key, value] of Object.entries(machine.chip?.edits ?? {})) setPath(doc, key, value);
  return doc;
}

function setPath(doc, key, value) {
  const parts = key.split('.');
  let o = doc;
  for (const p of parts.slice(0, -1)) o = (o[p] && typeof o[p] === 'object') ? o[p] : (o[p] = {});
  if (value === null) delete o[parts.at(-1)];
  else o[parts.at(-1)] = value;
}

// The host a machine has when nobody edited it (METHODOLOGY §30.1; SCHEMA.md system.host).
export function presetHost(machine, presets) {
  const system = machine.kind === 'system' ? presets.systems[machine.preset]
    : presets.systems[presets.chips[machine.preset]?.reference_system];
  return Object.fromEntries(HOST_KEYS.map((k) => [k, system?.host?.[k] ?? 0]));
}
export const hostOf = (machine, presets) => ({ ...presetHost(machine, presets), ...(machine.host ?? {}) });

// Drops what equals the presets: edits equal to the chip's values, a chip equal to the
// preset's without edits, a host equal to the preset's. Changes `machine` in place.
export function normalizeMachine(machine, presets) {
  remember(presets);
  if (machine.kind === 'chip' && machine.chip && machine.chip.preset !== machine.preset) machine.chip = null;
  if (machine.chip) {
    const base = presets.chips[machine.chip.preset];
    const edits = {};
    for (const [key, value] of Object.entries(machine.chip.edits ?? {})) {
      const theirs = fieldValue(base, key);
      if (value === null ? theirs !== undefined : value !== theirs) edits[key] = value;
    }
    machine.chip = Object.keys(edits).length || machine.chip.preset !== presetChipKey(machine, presets)
      ? { preset: machine.chip.preset, edits } : null;
  }
  if (machine.host && HOST_KEYS.every((k) => machine.host[k] === presetHost(machine, presets)[k])) machine.host = null;
  return machine;
}

// The chip presets, kept by every function here that is given them: systemRef (scenario.js)
// is not, and needs them for the case below.
let chipPresets = null;
const remember = (presets) => { chipPresets = presets?.chips ?? chipPresets; };

// What systemRef (scenario.js) adds to the system: { chip?, host? }.
// A system preset names its chip by key, and the engine drops the nulls of an override
// merged into a key (SCHEMA.md, "Preset references"): a chip with a field removed goes to a
// system as the whole chip document instead.
export function hardwarePatch(machine) {
  const out = {};
  const removes = Object.values(machine.chip?.edits ?? {}).some((v) => v === null);
  if (machine.chip && removes && machine.kind === 'system' && chipPresets?.[machine.chip.preset]) {
    out.chip = structuredClone(chipPresets[machine.chip.preset]);
    for (const [key, value] of Object.entries(machine.chip.edits)) setPath(out.chip, key, value);
  } else if (machine.chip) {
    const patch = {};
    for (const [key, value] of Object.entries(machine.chip.edits ?? {})) setPath(patch, key, value);
    // setPath deletes for null: a removal has to travel as null in a merge patch.
    for (const [key, value] of Object.entries(machine.chip.edits ?? {})) if (value === null) setNull(patch, key);
    out.chip = Object.keys(patch).length ? { preset: machine.chip.preset, ...patch } : machine.chip.preset;
  }
  if (machine.host) out.host = { ...machine.host };
  return out;
}

function setNull(doc, key) {
  const parts = key.split('.');
  let o = doc;
  for (const p of parts.slice(0, -1)) o = (o[p] && typeof o[p] === 'object') ? o[p] : (o[p] = {});
  o[parts.at(-1)] = null;
}

// A scenario document's system -> machine.chip and machine.host (fromScenario).
export function hardwareFromDoc(sys, machine, presets) {
  remember(presets);
  if (!sys || typeof sys !== 'object') return machine;
  const ref = sys.chip;
  const key = typeof ref === 'string' ? ref : ref?.preset;
  if (machine.kind === 'system' && typeof key === 'string' && presets.chips[key]) machine.chip = { preset: key, edits: {} };
  if (ref && typeof ref === 'object' && presets.chips[key]) {
    machine.chip ??= { preset: key, edits: {} };
    for (const fieldKey of CHIP_KEYS) {
      const value = fieldValue(ref, fieldKey);
      if (value === null || typeof value === 'number') machine.chip.edits[fieldKey] = value;
    }
  }
  if (sys.host && typeof sys.host === 'object') {
    machine.host = Object.fromEntries(HOST_KEYS.map((k) => [k, typeof sys.host[k] === 'number' ? sys.host[k] : presetHost(machine, presets)[k]]));
  }
  return normalizeMachine(machine, presets);
}

// ---- the link -----------------------------------------------------------------------

const numberText = (v) => (Number.isFinite(v) ? String(v) : v > 0 ? '1e999' : '-1e999');

// [key, text] pairs for the link; none for the presets' chip and host.
export function hardwareParams(machine, presets) {
  const out = [];
  if (machine.chip) {
    if (machine.kind === 'system' && machine.chip.preset !== presetChipKey(machine, presets)) out.push(['sys.chip', machine.chip.preset]);
    for (const [key, value] of Object.entries(machine.chip.edits ?? {})) out.push([`chip.${key}`, value === null ? 'none' : numberText(value)]);
  }
  if (machine.host) {
    const base = presetHost(machine, presets);
    for (const k of HOST_KEYS) if (machine.host[k] !== base[k]) out.push([`host.${k}`, numberText(machine.host[k])]);
  }
  return out;
}

export const isHardwareKey = (key) => key === 'sys.chip'
  || (key.startsWith('chip.') && CHIP_KEYS.has(key.slice(5)))
  || (key.startsWith('host.') && HOST_KEYS.includes(key.slice(5)));

// Reads the link's chip and host keys into machine (after the system, chip and count).
// Throws, naming the key, on what cannot be read. read: { number(key, text) }.
export function readHardware(q, machine, presets, { number }) {
  const keys = [...q.keys()].filter(isHardwareKey);
  if (keys.length === 0) return machine;
  if (q.has('sys.chip')) {
    const key = q.get('sys.chip');
    if (machine.kind !== 'system') throw new Error('"sys.chip" is a setting of a system preset, and this link names a single chip type');
    if (!Object.hasOwn(presets.chips, key)) throw new Error(`sys.chip = "${key}" is not a chip preset`);
    machine.chip = { preset: key, edits: {} };
  }
  for (const key of keys.filter((k) => k.startsWith('chip.'))) {
    machine.chip ??= { preset: presetChipKey(machine, presets), edits: {} };
    const text = q.get(key);
    const field = key.slice(5);
    if (text === 'none') {
      if (!OPTIONAL_KEYS.has(field)) {
        throw new Error(`${key} = "none": only a peak, an attention setting or the TDP can be left out`);
      }
      machine.chip.edits[field] = null;
    } else machine.chip.edits[field] = number(key, text);
  }
  const hostKeys = keys.filter((k) => k.startsWith('host.'));
  if (hostKeys.length) {
    machine.host = { ...presetHost(machine, presets), ...(machine.host ?? {}) };
    for (const key of hostKeys) machine.host[key.slice(5)] = number(key, q.get(key));
  }
  return normalizeMachine(machine, presets);
}

// ---- engine errors ------------------------------------------------------------------

// The editor's input for an engine error path (views/errors.js), or null:
// system.chip.peak_tflops.bf16 -> chip-peak_tflops-bf16, system.host.memory_gb -> host-memory_gb.
export const chipFieldId = (key) => `chip-${key.replaceAll('.', '-')}`;
export const hostFieldId = (key) => `host-${key}`;
export function hardwareField(path) {
  const chip = String(path).match(/^system\.chip\.(.+)$/);
  if (chip) {
    if (CHIP_KEYS.has(chip[1])) return chipFieldId(chip[1]);
    if (chip[1] === 'peak_tflops') return chipFieldId('peak_tflops.bf16');
    if (chip[1] === 'efficiency' || chip[1] === 'efficiency.matrix') return chipFieldId('efficiency.matrix.default');
    return null;
  }
  const host = String(path).match(/^system\.host(?:\.(\w+))?$/);
  if (host) return hostFieldId(HOST_KEYS.includes(host[1]) ? host[1] : 'link_gbps');
  return null;
}
