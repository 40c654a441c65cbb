// The bridge between the page state and the engine's scenario JSON (the same schema as
// presets/scenarios/*.json, the CLI and the tests).
import { cleanLevel, presetNetwork, sameNetwork } from './network.js';
import { trainingFromDoc, trainingScenario } from './training.js';
import { MOE_FIELDS, hasExperts, isMoeField, moeFieldsOf, moePatch, moeValue } from './moe.js';
import { MLA_FIELDS, hasMla, isMlaField, mlaFieldsOf, mlaPatch, mlaValue } from './attention.js';
import { ATTENTION_FIELDS, MAMBA_FIELDS, hasMamba, isMambaField, mambaFieldsFor, mambaFieldsOf, mambaPatch, mambaValue } from './mamba.js';
import { MODEL_WIDE_FIELDS, isGrouped, mergePatch } from './layer-groups.js';
import { disaggregatedOf, servingFromDoc, servingScenario } from './serving.js';
import { costFromDoc, costScenario } from './cost.js';
import { hardwareFromDoc, hardwarePatch } from './hardware-edit.js';

// sliding_window: 0 (or absent) is full attention (METHODOLOGY §6.3); ffn: 0 is no MLP (a
// Mamba block only); parallel_block: attention and MLP side by side (GPT-J, Falcon; §6.2).
export const ARCH_FIELDS = ['layers', 'hidden', 'heads', 'kv_heads', 'head_dim', 'sliding_window', 'ffn', 'vocab', 'gated_ffn', 'parallel_block'];
// The architecture fields that are on or off (a checkbox; "on"/"off" in the link).
export const BOOLEAN_FIELDS = ['gated_ffn', 'parallel_block'];
// Every editable architecture field: the mixture's (moe.js) only for a model with experts,
// the latent attention's (attention.js) only for a model with MLA, the Mamba mixer's
// (mamba.js) in place of the attention's for a model of Mamba layers; of a model in the
// layer_groups form only the model-wide ones (layer-groups.js).
export const MODEL_FIELDS = [...ARCH_FIELDS, ...MOE_FIELDS, ...MLA_FIELDS, ...MAMBA_FIELDS];
// The engine's formats (core/common/precision.hpp): the plain ones, then the block-scaled
// nvfp4, mxfp4 and mxfp8, whose bytes count their scales (METHODOLOGY §7.1).
export const PRECISIONS = ['fp32', 'tf32', 'bf16', 'fp16', 'fp8', 'int8', 'fp4', 'int4', 'nvfp4', 'mxfp4', 'mxfp8'];
export const PRECISION_ROLES = ['weights', 'kv_cache', 'activations'];
// The engine profile a scenario gets when it names none (core: io/scenario_json.cpp).
export const DEFAULT_ENGINE = 'default';

// The system as scenarios and collective requests name it; an edited network travels
// with it, else the engine takes the preset's.
export function systemRef(machine) {
  const system = machine.kind === 'chip'
    ? { chip: machine.preset, count: machine.count }
    : { preset: machine.preset, count: machine.count };
  if (machine.network) system.network = machine.network;
  // An edited chip (or another chip in a system) and an edited host (hardware-edit.js).
  return Object.assign(system, hardwarePatch(machine));
}

export function toScenario(state) {
  const { model, machine, parallelism: p, workload: w } = state;
  const modelRef = modelReference(model);
  // The cost block (cost.js) only when some input differs from the engine's defaults.
  const cost = costScenario(state.cost);
  if (state.mode === 'training') return { model: modelRef, system: systemRef(machine), ...trainingScenario(state), ...(cost ? { cost } : {}) };
  const { weights, kv_cache, activations } = w.precision;
  // dp and micro_batches left out: the engine fills the system with replicas and picks
  // the micro-batch count itself; ep only when the experts are spread (1 is the default).
  const parallelism = { tp: p.tp, pp: p.pp };
  if ((p.ep ?? 1) !== 1) parallelism.ep = p.ep;
  if (p.dp !== null) parallelism.dp = p.dp;
  if (p.micro_batches !== null) parallelism.micro_batches = p.micro_batches;
  // Disaggregated: each pool has its own layout, and the scenario none of its own.
  const disaggregated = disaggregatedOf(w);
  const scenario = {
    model: modelRef,
    system: systemRef(machine),
    ...(disaggregated ? {} : { parallelism }),
    workload: {
      kind: 'inference',
      batch: w.batch,
      input_tokens: w.input_tokens,
      output_tokens: w.output_tokens,
      precision: weights === kv_cache && kv_cache === activations ? weights : { ...w.precision },
      flash_attention: w.flash_attention,
      ...servingScenario(w),
    },
  };
  if (disaggregated) scenario.disaggregated = disaggregated;
  if (state.engine !== DEFAULT_ENGINE) scenario.engine = state.engine;
  if (cost) scenario.cost = cost;
  return scenario;
}

// The model as a scenario names it: the preset, or the preset with the edited fields over
// it (the mixture's nested under "moe", the latent attention's under "mla", the Mamba mixer's
// under "mamba", as model documents have them), and the name of an
// imported model (hf-import.js) when it has one.
function modelReference(model) {
  const named = typeof model.name === 'string';
  if (Object.keys(model.edits).length === 0 && !named) return model.preset;
  const plain = Object.fromEntries(Object.entries(model.edits)
    .filter(([field]) => !isMoeField(field) && !isMlaField(field) && !isMambaField(field)));
  return { preset: model.preset, ...(named ? { name: model.name } : {}), ...plain,
    ...moePatch(model.edits), ...mlaPatch(model.edits), ...mambaPatch(model.edits) };
}

// The model document the engine will compute with: the preset with the edits merged in.
export function modelDocument(model, presets) {
  const preset = presets.models[model.preset];
  const ref = modelReference(model);
  if (typeof ref === 'string') return preset;
  const { preset: _key, ...patch } = ref;
  return mergePatch(preset, patch);
}

// JSON text of a scenario for the engine. JSON has no infinity, and JSON.stringify writes
// it as null, which the engine would report as "is required"; a number beyond double range
// (a link with batch=1e400) goes out as a literal beyond range instead, so that the engine
// names the field's allowed range. ±Infinity is swapped for a marker string that occurs
// nowhere else in the text, and the quoted marker then becomes the literal.
export function scenarioText(scenario) {
  const plain = JSON.stringify(scenario);
  let tag = 0;
  while (plain.includes(`~inf${tag}~`)) tag += 1;
  const marker = (v) => `~inf${tag}~${v > 0 ? '+' : '-'}`;
  return JSON.stringify(scenario, (_key, v) => (typeof v === 'number' && !Number.isFinite(v) ? marker(v) : v))
    .replaceAll(`"${marker(1)}"`, '1e999')
    .replaceAll(`"${marker(-1)}"`, '-1e999');
}

// A number as the page writes it into a link: beyond double range it stays beyond range.
export function numberText(v) {
  if (Number.isFinite(v)) return String(v);
  return v > 0 ? '1e999' : '-1e999';
}

function presetKey(ref) {
  if (typeof ref === 'string') return ref;
  if (ref && typeof ref.preset === 'string') return ref.preset;
  return null;
}

// A scenario document -> the scenario part of the page state. Throws on what the form
// cannot show (an inline model or system without a preset behind it).
export function fromScenario(doc, presets) {
  const modelKey = presetKey(doc.model);
  if (!presets.models[modelKey]) throw new Error(`unknown model ${JSON.stringify(modelKey)}`);
  const preset = presets.models[modelKey];
  const edits = {};
  const model = { preset: modelKey, edits };
  if (typeof doc.model?.name === 'string' && doc.model.name !== preset.name) model.name = doc.model.name;
  if (typeof doc.model === 'object') {
    for (const field of ARCH_FIELDS) {
      if (field in doc.model && doc.model[field] !== presetValue(preset, field)) edits[field] = doc.model[field];
    }
    const moe = moeFieldsOf(doc.model);
    if (Object.keys(moe).length && !hasExperts(preset)) throw new Error(`model ${JSON.stringify(modelKey)} has no experts to edit`);
    for (const [field, value] of Object.entries(moe)) {
      if (value !== moeValue(preset, field)) edits[field] = value;
    }
    const mla = mlaFieldsOf(doc.model);
    if (Object.keys(mla).length && !hasMla(preset)) throw new Error(`model ${JSON.stringify(modelKey)} has no latent attention to edit`);
    for (const [field, value] of Object.entries(mla)) {
      if (value !== mlaValue(preset, field)) edits[field] = value;
    }
    const mamba = mambaFieldsOf(doc.model);
    if (Object.keys(mamba).length && !hasMamba(preset)) throw new Error(`model ${JSON.stringify(modelKey)} has no Mamba layers to edit`);
    for (const [field, value] of Object.entries(mamba)) {
      if (value !== mambaValue(preset, field)) edits[field] = value;
    }
    const layerEdits = Object.keys(edits).filter((field) => !modelFields(preset).includes(field));
    if (layerEdits.length) {
      const why = isGrouped(preset) ? 'has layer groups' : hasMamba(preset) ? 'has Mamba layers, without attention' : 'has no such fields';
      throw new Error(`model ${JSON.stringify(modelKey)} ${why}: the form cannot edit its ${layerEdits.join(', ')}`);
    }
  }

  let machine;
  const sys = doc.system;
  if (sys && typeof sys === 'object' && 'chip' in sys && !('preset' in sys)) {
    const chip = presetKey(sys.chip);
    if (!presets.chips[chip]) throw new Error(`unknown chip ${JSON.stringify(chip)}`);
    machine = { kind: 'chip', preset: chip, count: sys.count ?? 1, network: null };
  } else {
    const key = presetKey(sys);
    if (!presets.systems[key]) throw new Error(`unknown system ${JSON.stringify(key)}`);
    machine = { kind: 'system', preset: key, count: sys?.count ?? presets.systems[key].count, network: null };
  }
  if (Array.isArray(sys?.network) && !sameNetwork(sys.network, presetNetwork(machine, presets))) {
    machine.network = sys.network.map(cleanLevel);
  }
  hardwareFromDoc(sys, machine, presets);

  const w = doc.workload ?? {};
  // Top-level "parallelism"; older scenarios kept it under the workload.
  const par = doc.parallelism ?? w.parallelism ?? {};
  const cost = costFromDoc(doc.cost);
  if (w.kind === 'training') {
    return { mode: 'training', model, machine, engine: DEFAULT_ENGINE, ...trainingFromDoc(par, w, doc.framework), cost };
  }
  const p = w.precision ?? 'bf16';
  const precision = typeof p === 'string'
    ? { weights: p, kv_cache: p, activations: p }
    : { weights: p.weights ?? 'bf16', kv_cache: p.kv_cache ?? p.weights ?? 'bf16', activations: p.activations ?? p.weights ?? 'bf16' };
  const engine = typeof doc.engine === 'string' ? doc.engine : DEFAULT_ENGINE;
  if (!presets.engines?.[engine]) throw new Error(`unknown engine ${JSON.stringify(engine)}`);
  return {
    mode: 'inference',
    model,
    machine,
    engine,
    parallelism: {
      tp: par.tp ?? 1,
      pp: par.pp ?? 1,
      ep: par.ep ?? 1,
      dp: par.dp ?? null, // absent: as many replicas as fill the system
      micro_batches: par.micro_batches || null, // 0 or absent: the engine's choice
    },
    workload: {
      batch: w.batch ?? 1,
      input_tokens: w.input_tokens ?? 1024,
      output_tokens: w.output_tokens ?? 128,
      precision,
      flash_attention: w.flash_attention ?? true,
      ...servingFromDoc(w, presets, doc.disaggregated),
    },
    cost,
  };
}

// The preset scenario that the state reproduces exactly, if any.
export function matchingScenario(state, presets) {
  const mine = JSON.stringify(toScenario(state));
  for (const [key, doc] of Object.entries(presets.scenarios)) {
    try {
      if (JSON.stringify(toScenario(fromScenario(doc, presets))) === mine) return key;
    } catch {
      // a preset the form cannot represent never matches
    }
  }
  return null;
}

// A preset's value of an editable field (a mixture field: undefined for a dense model; an
// MLA field: undefined without MLA; a Mamba field: undefined without Mamba; the sliding
// window and the parallel block of a flat model: 0 and false when it leaves them out).
export function presetValue(doc, field) {
  if (isMoeField(field)) return moeValue(doc, field);
  if (isMlaField(field)) return mlaValue(doc, field);
  if (isMambaField(field)) return mambaValue(doc, field);
  if (field === 'sliding_window' && !isGrouped(doc)) return doc?.sliding_window ?? 0;
  if (field === 'parallel_block' && !isGrouped(doc)) return doc?.parallel_block ?? false;
  return doc?.[field];
}

// The fields the architecture editor shows for a preset: the mixture's only when it has
// experts, the latent attention's only when it has MLA; for Mamba layers the mixer's in
// place of the attention's (and no parallel block: there is no attention beside the MLP);
// the model-wide ones of a model in the layer_groups form.
export function modelFields(doc) {
  if (isGrouped(doc)) return MODEL_WIDE_FIELDS;
  const mamba = hasMamba(doc);
  const layer = mamba ? ARCH_FIELDS.filter((f) => !ATTENTION_FIELDS.includes(f) && f !== 'parallel_block') : ARCH_FIELDS;
  return [...layer, ...(hasExperts(doc) ? MOE_FIELDS : []), ...(hasMla(doc) ? MLA_FIELDS : []), ...mambaFieldsFor(doc)];
}

// The state's architecture, flat: the preset's fields (mixture and MLA ones included) under the edits.
export function architecture(state, presets) {
  const doc = presets.models[state.model.preset];
  const flat = { ...doc };
  for (const field of MODEL_FIELDS) flat[field] = presetValue(doc, field);
  return { ...flat, ...state.model.edits };
}
