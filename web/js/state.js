// The page state, its defaults, and its serialization: the URL hash.
//
// Hash format (URLSearchParams, keys in this order; missing keys take the default):
//   #[v=1&]model=llama-2-70b[&layers=40&gated_ffn=off ...architecture edits]
//      (a mixture-of-experts model's also: experts, top_k, expert_ffn, shared_experts,
//       imbalance, dense_layers; refused for a model without experts; a latent-attention
//       model's q_lora_rank … v_head_dim; a Mamba model's d_inner, d_state, d_conv and
//       dt_rank or mamba_heads, n_groups in place of heads … sliding_window; parallel_block=on
//       only when it differs from the preset; of a model in layer groups only hidden and vocab)
//      [&model_name=Qwen%2FQwen3-30B-A3B]   (the name of an imported model, hf-import.js)
//    &system=dgx-h100 | &chip=h100-sxm   &chips=8
//    [&levels=3&net1.link_gbps=100 ...network edits, see network.js]
//    [&sys.chip=h200-sxm&chip.hbm_gb=100&chip.peak_tflops.fp4=none&host.memory_gb=500
//                                              ...a custom chip and system, see hardware-edit.js]
//    &tp=8&pp=1[&ep=4][&dp=2&mb=4]&batch=1&input=2048&output=256   (no dp, mb: the engine's choice;
//                                                  no ep: 1; links from before pp existed have pp=1)
//    &precision=bf16 | &weights=bf16&kv_cache=fp8&activations=bf16
//    &flash=on
//    [&engine=tensorrt-llm-0.5]               (the serving engine and release, when not "default":
//                                               the unknown engine, current practice; engine-picker.js)
//    [&serving=concurrency|offline|server[&request_rate=20]]
//    [&prefill_workers=1&prefill_tp=4[&prefill_pp=2][&prefill_ep=4][&prefill_dp=2]
//     &decode_workers=1&decode_tp=4[&decode_pp=…][&decode_ep=…][&decode_dp=…][&decode_batch_per_rank=64]
//     [&kv_transfer=layerwise]]                (disaggregated prefill and decode pools: disaggregated.js)
//    [&prefix_cache_hit=0.5][&beams=4][&kv_offload=0.5][&prefill_chunk=512]
//    [&draft_tokens=4&acceptance_rate=0.8[&draft_model=KEY]]
//                                              (continuous batching, an offered request rate, offline,
//                                               prefix caching, beam search, KV-cache offload,
//                                               speculative decoding: serving.js)
//    [&table=decode&split=bound&decode=step&map=tp&coll=all_gather&coll_chips=16&sweep=context]
//                                              (view options, only when not the default)
//    [&tradeoff=hbm_stacks+chiplets[&tradeoff.1=3+4+5][&tradeoff.2=1+2+4]]
//                                              (the Trade-off card's knobs, once chosen, and the values
//                                               typed for each: tradeoff-plan.js)
//    [&search=on[&search.chips=8+16][&search.ttft_ms=2000][&search.tps_user=20][&search.rank=mfu]]
//                                              (the Search card, open, and its inputs as typed:
//                                               search-plan.js; not part of a pin)
//    [&pricing=owned&chip_usd=25000 ...&pkg=si_interposer&pkg.die1.area=814 ...]
//                                              (cost and the accelerator package, either mode: cost.js)
//    [&pin=[label=NAME&]SETTINGS ...]          (up to 3 pinned scenarios to compare, each its own
//                                               settings as above, URL-encoded, after the name the
//                                               person gave it, if any (at most 40 characters,
//                                               no control characters): compare.js)
// A training link starts with mode=training and has the training keys (training.js, the
// training software among them: [&framework=deepspeed], absent: current practice) in
// place of batch … engine; a link without a mode is an inference link. The keys of the
// other mode are refused.
// Numbers are kept as typed (even out-of-range ones) so a link restores exactly what its
// author saw, engine error included. The page writes `v=1` first (toLink); a link without it
// is v1. Unknown or unreadable fields are left out with a notice (fromHash), never the link;
// so is what is over the bounds of link-bounds.js (length, settings, one value's length).
import { BOOLEAN_FIELDS, DEFAULT_ENGINE, MODEL_FIELDS, PRECISIONS, PRECISION_ROLES, fromScenario, modelFields, numberText, presetValue } from './scenario.js';
import { isNetworkKey, networkParams, presetNetwork, readNetwork } from './network.js';
import { MODES, TRAINING_KEYS, readTraining, switchMode, trainingParams } from './training.js';
import { SERVING_KEYS, readServing, servingParams } from './serving.js';
import { isMoeField } from './moe.js';
import { isMlaField } from './attention.js';
import { ATTENTION_FIELDS, hasMamba, isMambaField } from './mamba.js';
import { SWEEP_CHOICES } from './sweep-plan.js';
import { TRADEOFF_KEYS, readTradeoffChoice, tradeoffParams } from './tradeoff-plan.js';
import { SEARCH_KEYS, readSearchChoice, searchParams } from './search-plan.js';
import { MAX_PINS, cleanLabel, labelProblems } from './compare.js';
import { costParams, isCostKey, readCost } from './cost.js';
import { hardwareParams, isHardwareKey, readHardware } from './hardware-edit.js';
import { boundLink, clipNotice, namedList } from './link-bounds.js';

export const DEFAULT_SCENARIO = 'llama2-70b-dgx-h100-tp8';

export const COLLECTIVE_OPS = ['all_reduce', 'all_gather', 'reduce_scatter', 'all_to_all', 'broadcast', 'send_recv'];

// View options with a fixed set of choices. `map`: the dimension that colours the mapping
// picture ("auto": PP stages, else DP replicas, else TP groups); `coll`: the collective of
// the network view.
// `table`: the phase of the operator table (prefill, decode; training: forward, backward).
export const VIEW_OPTIONS = {
  table: ['prefill', 'decode', 'forward', 'backward'],
  split: ['class', 'bound', 'op'],
  decode: ['total', 'step'],
  map: ['auto', 'tp', 'pp', 'dp', 'cp', 'ep'],
  coll: COLLECTIVE_OPS,
  sweep: SWEEP_CHOICES,
};
// coll_chips: the chip count of the network view (null: the scenario's TP group); tradeoff:
// the Trade-off card's knobs and values (null: the card's own, tradeoff-plan.js); search: the
// Search card's inputs (null: the card is closed, search-plan.js).
const DEFAULT_VIEW = {
  table: 'prefill', split: 'class', decode: 'total', map: 'auto', coll: 'all_reduce', coll_chips: null, sweep: 'throughput', tradeoff: null, search: null,
};

export function defaultState(presets) {
  return { ...fromScenario(presets.scenarios[DEFAULT_SCENARIO], presets), view: { ...DEFAULT_VIEW } };
}

const PARALLEL_KEYS = { tp: 'tp', pp: 'pp', ep: 'ep', dp: 'dp', mb: 'micro_batches' }; // dp, mb may be null
// Written only when not this (a link of a dense model has no ep).
const PARALLEL_DEFAULTS = { ep: 1 };
const WORKLOAD_KEYS = { batch: 'batch', input: 'input_tokens', output: 'output_tokens' };
// The keys of one mode only; "flash" and "precision" belong to both.
const INFERENCE_KEYS = ['mb', ...Object.keys(WORKLOAD_KEYS), ...PRECISION_ROLES, 'engine', ...SERVING_KEYS];
const onOff = (b) => (b ? 'on' : 'off');

export function toHash(state, presets) {
  const q = new URLSearchParams();
  const training = state.mode === 'training';
  if (training) q.set('mode', 'training');
  q.set('model', state.model.preset);
  for (const field of MODEL_FIELDS) {
    if (field in state.model.edits) {
      const v = state.model.edits[field];
      q.set(field, BOOLEAN_FIELDS.includes(field) ? onOff(v) : numberText(v));
    }
  }
  if (typeof state.model.name === 'string') q.set('model_name', state.model.name);
  q.set(state.machine.kind === 'chip' ? 'chip' : 'system', state.machine.preset);
  q.set('chips', numberText(state.machine.count));
  for (const [key, text] of networkParams(state.machine.network, presetNetwork(state.machine, presets))) q.set(key, text);
  for (const [key, text] of hardwareParams(state.machine, presets)) q.set(key, text);
  for (const [key, field] of Object.entries(PARALLEL_KEYS)) {
    const value = state.parallelism[field];
    if (value != null && value !== PARALLEL_DEFAULTS[field]) q.set(key, numberText(value));
  }
  if (training) {
    for (const [key, text] of trainingParams(state, numberText)) q.set(key, text);
    for (const [key, text] of costParams(state.cost, numberText)) q.set(key, text);
    viewParams(q, state.view);
    return '#' + q.toString();
  }
  for (const [key, field] of Object.entries(WORKLOAD_KEYS)) q.set(key, numberText(state.workload[field]));
  const p = state.workload.precision;
  if (p.weights === p.kv_cache && p.kv_cache === p.activations) q.set('precision', p.weights);
  else for (const role of PRECISION_ROLES) q.set(role, p[role]);
  q.set('flash', onOff(state.workload.flash_attention));
  if (state.engine !== DEFAULT_ENGINE) q.set('engine', state.engine);
  for (const [key, text] of servingParams(state.workload, numberText)) q.set(key, text);
  for (const [key, text] of costParams(state.cost, numberText)) q.set(key, text);
  viewParams(q, state.view);
  return '#' + q.toString();
}

function viewParams(q, view) {
  for (const [key, value] of Object.entries(view)) {
    if (key !== 'tradeoff' && key !== 'search' && value !== DEFAULT_VIEW[key]) q.set(key, key === 'coll_chips' ? numberText(value) : value);
  }
  for (const [key, text] of tradeoffParams(view.tradeoff)) q.set(key, text);
  for (const [key, text] of searchParams(view.search)) q.set(key, text);
}

const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

function readNumber(key, text) {
  if (!NUMBER.test(text)) throw new Error(`${key} = "${text}" is not a number`);
  return Number(text);
}

function readBool(key, text) {
  if (['on', 'true', '1'].includes(text)) return true;
  if (['off', 'false', '0'].includes(text)) return false;
  throw new Error(`${key} = "${text}" should be on or off`);
}

function readChoice(key, text, choices) {
  if (!choices.includes(text)) throw new Error(`${key} = "${text}" is not one of ${choices.join(', ')}`);
  return text;
}

function readPreset(kind, text, table) {
  if (!Object.hasOwn(table, text)) throw new Error(`there is no ${kind} preset "${text}"`);
  return text;
}

// The version of the link format the page writes (`v=1`); a link without one is read as v1.
export const LINK_VERSION = 1;
// The most bad fields one link may drop before it is given up for the default.
const MAX_IGNORED = 12;

// The link the page writes: the version first, then the settings (toHash), then one `pin=` per
// pinned scenario (compare.js), each the settings of that scenario, URL-encoded.
export function toLink(state, presets, pins = []) {
  const pinned = pins.slice(0, MAX_PINS).map((pin) => `&pin=${encodeURIComponent(pinText(pin, presets))}`);
  return `#v=${LINK_VERSION}&` + toHash(state, presets).slice(1) + pinned.join('');
}

// A pin's settings, after its name when it has one (`label=`); without the Trade-off card's
// choice, which a pinned scenario does not use.
function pinText(pin, presets) {
  const settings = toHash({ ...pin, view: { ...pin.view, tradeoff: null, search: null } }, presets).slice(1);
  const label = cleanLabel(pin.label);
  return label ? `${new URLSearchParams({ label })}&${settings}` : settings;
}

// -> { state, pins, error }: as readSettings, plus the pinned scenarios (`pin=` keys, read the
// same tolerant way; one that cannot be read at all is left out, named in the error).
export function fromHash(hash, presets) {
  const { params: q, note } = boundLink(hash.replace(/^#/, ''), { nested: ['pin'] });
  const withNote = (error) => clipNotice([note, error].filter(Boolean).join(' ') || null);
  if (!q.has('pin')) {
    const { state, error } = readSettings('#' + q.toString(), presets);
    return { state, error: withNote(error), pins: [] };
  }
  const texts = q.getAll('pin');
  q.delete('pin');
  const main = readSettings('#' + q.toString(), presets);
  const pins = [];
  const notes = [];
  texts.slice(0, MAX_PINS).forEach((text, i) => {
    const inner = new URLSearchParams(text);
    inner.delete('pin');
    const label = inner.get('label');
    inner.delete('label');
    const read = inner.toString() ? readSettings('#' + inner.toString(), presets) : { unreadable: true };
    if (read.unreadable) notes.push(`pinned scenario ${i + 1} could not be read and was left out`);
    else {
      if (cleanLabel(label)) read.state.label = cleanLabel(label);
      pins.push(read.state);
      const problems = labelProblems(label);
      if (problems) notes.push(`pinned scenario ${i + 1}'s name (label) ${problems}`);
      if (read.error) notes.push(`in pinned scenario ${i + 1}: ${read.error}`);
    }
  });
  const extra = texts.length - MAX_PINS;
  if (extra > 0) notes.push(extra === 1 ? `pinned scenario ${MAX_PINS + 1} was left out (at most ${MAX_PINS} are kept)` : `pinned scenarios ${MAX_PINS + 1} to ${texts.length} were left out (at most ${MAX_PINS} are kept)`);
  const error = [main.error, notes.length ? `Compare: ${notes.join('; ')}.` : null].filter(Boolean).join(' ') || null;
  return { state: main.state, pins, error: withNote(error) };
}

// -> { state, error[, unreadable] }: error is a sentence for the reader when part of the hash (or
// all of it) could not be used. Tolerant: an unknown field, a field of the other mode, a repeated
// field or a field whose value cannot be read is left out and named; the rest of the link is kept.
// Only a link of which nothing can be used falls back to the default scenario (unreadable: true).
function readSettings(hash, presets) {
  const fallback = defaultState(presets);
  const text = hash.replace(/^#/, '');
  if (!text) return { state: fallback, error: null };
  const { params: q, note: bounds } = boundLink(text);
  const notes = [];
  readVersion(q, notes);
  const ignored = screen(q);
  for (let round = 0; round <= MAX_IGNORED; round++) {
    try {
      const state = parse(q, presets, fallback);
      return { state, error: ignoredSentence(bounds, notes, ignored) };
    } catch (e) {
      const culprit = round < MAX_IGNORED ? blame(q, presets, fallback, e.message) : null;
      if (culprit === null) {
        return {
          state: fallback,
          error: [bounds, `This link's settings could not be read (${e.message}), so the default scenario is shown instead.`].filter(Boolean).join(' '),
          unreadable: true,
        };
      }
      ignored.push(e.message);
      q.delete(culprit);
    }
  }
}

function readVersion(q, notes) {
  if (!q.has('v')) return;
  const text = q.get('v');
  q.delete('v');
  if (!/^\d{1,6}$/.test(text)) notes.push(`its version v = "${text}" is not a number`);
  else if (Number(text) > LINK_VERSION) {
    notes.push(`it was made by a newer version of Envelope (link v${Number(text)}; this page reads v${LINK_VERSION})`);
  }
}

// Takes out the keys no parse can use: unknown, of the other mode, or given twice (the first
// value is kept). -> the sentences naming them.
function screen(q) {
  const mode = MODES.includes(q.get('mode')) ? q.get('mode') : 'inference';
  const foreign = new Set(mode === 'training' ? INFERENCE_KEYS : TRAINING_KEYS.filter((k) => k !== 'flash' && k !== 'precision'));
  const out = [];
  const seen = new Set();
  for (const [key, value] of [...q.entries()]) {
    if (seen.has(key)) continue;
    seen.add(key);
    if (!KNOWN_KEYS.has(key) && !isNetworkKey(key) && !isCostKey(key) && !isHardwareKey(key)) out.push(`unknown setting "${key}"`);
    else if (foreign.has(key)) out.push(`"${key}" is not a setting of ${mode}`);
    else {
      if (q.getAll(key).length > 1) {
        out.push(`"${key}" is given twice (the first value is used)`);
        q.delete(key);
        q.append(key, value);
      }
      continue;
    }
    q.delete(key);
  }
  return out;
}

// The key whose removal gets past `message` (the link parses, or fails for another reason);
// the keys the message names are tried first (heads=12 on a Mamba model: heads, not model).
function blame(q, presets, base, message) {
  const keys = [...q.keys()];
  const named = keys.filter((k) => message.startsWith(`${k} = `) || message.includes(`"${k}"`));
  for (const key of [...named, ...keys.filter((k) => !named.includes(k))]) {
    const rest = new URLSearchParams(q);
    rest.delete(key);
    try {
      parse(rest, presets, base);
      return key;
    } catch (e) {
      if (e.message !== message) return key;
    }
  }
  return null;
}

// bounds: the sentence of link-bounds.js, or null. Each reason is cut at 200 characters and
// at most a few are named, so that the notice stays short whatever the link holds.
function ignoredSentence(bounds, notes, ignored) {
  if (!bounds && notes.length === 0 && ignored.length === 0) return null;
  const parts = bounds ? [bounds] : [];
  if (notes.length) parts.push(`This link ${notes.join('; ')}.`);
  if (ignored.length) {
    parts.push(`Part of this link was ignored: ${namedList(ignored.map((s) => (s.length > 200 ? `${s.slice(0, 199)}…` : s)))}. Its other settings are shown.`);
  }
  return parts.join(' ');
}

const KNOWN_KEYS = new Set([
  'mode', 'model', ...MODEL_FIELDS, 'model_name', 'system', 'chip', 'chips', ...Object.keys(PARALLEL_KEYS), ...Object.keys(WORKLOAD_KEYS),
  'precision', ...PRECISION_ROLES, 'flash', 'engine', ...SERVING_KEYS, ...TRAINING_KEYS, ...Object.keys(VIEW_OPTIONS), 'coll_chips',
  ...TRADEOFF_KEYS, ...SEARCH_KEYS,
]);

function parse(q, presets, base) {
  const mode = q.has('mode') ? readChoice('mode', q.get('mode'), MODES) : 'inference';
  const training = mode === 'training';
  // A training link starts from the default scenario switched to training.
  const state = training ? switchMode(base, 'training') : structuredClone(base);
  const get = (key) => q.get(key);

  if (q.has('model')) state.model = { preset: readPreset('model', get('model'), presets.models), edits: {} };
  const model = presets.models[state.model.preset];
  for (const field of MODEL_FIELDS) {
    if (!q.has(field)) continue;
    if (!modelFields(model).includes(field)) throw new Error(notEditable(field, model));
    const value = BOOLEAN_FIELDS.includes(field) ? readBool(field, get(field)) : readNumber(field, get(field));
    if (value !== presetValue(model, field)) state.model.edits[field] = value;
  }
  if (q.has('model_name') && get('model_name') !== model.name) state.model.name = get('model_name');

  if (q.has('system') && q.has('chip')) throw new Error('both "system" and "chip" are given');
  if (q.has('system')) {
    const key = readPreset('system', get('system'), presets.systems);
    state.machine = { kind: 'system', preset: key, count: presets.systems[key].count, network: null };
  } else if (q.has('chip')) {
    const key = readPreset('chip', get('chip'), presets.chips);
    state.machine = { kind: 'chip', preset: key, count: state.machine.count, network: null };
  }
  if (q.has('chips')) state.machine.count = readNumber('chips', get('chips'));
  state.machine.network = readNetwork(q, presetNetwork(state.machine, presets)) ?? state.machine.network;
  readHardware(q, state.machine, presets, { number: readNumber });

  for (const [key, field] of Object.entries(PARALLEL_KEYS)) {
    if (q.has(key)) state.parallelism[field] = readNumber(key, get(key));
  }
  if (training) {
    readTraining(q, state, { number: readNumber, bool: readBool, choice: readChoice, precisions: PRECISIONS, frameworks: presets.frameworks ?? {} });
    readCost(q, state, { number: readNumber, choice: readChoice });
    readView(q, state);
    return state;
  }
  for (const [key, field] of Object.entries(WORKLOAD_KEYS)) {
    if (q.has(key)) state.workload[field] = readNumber(key, get(key));
  }
  if (q.has('precision')) {
    const p = readChoice('precision', get('precision'), PRECISIONS);
    state.workload.precision = { weights: p, kv_cache: p, activations: p };
  }
  for (const role of PRECISION_ROLES) {
    if (q.has(role)) state.workload.precision[role] = readChoice(role, get(role), PRECISIONS);
  }
  if (q.has('flash')) state.workload.flash_attention = readBool('flash', get('flash'));
  if (q.has('engine')) state.engine = readPreset('engine', get('engine'), presets.engines);
  readServing(q, state.workload, { number: readNumber, choice: readChoice, preset: readPreset }, presets);
  readCost(q, state, { number: readNumber, choice: readChoice });
  readView(q, state);
  return state;
}

// Why a link's architecture key does not apply to its model.
function notEditable(field, model) {
  if (Array.isArray(model.layer_groups)) {
    return `"${field}" is a setting of one kind of layer and ${model.name} has ${model.layer_groups.length} layer groups (only hidden and vocab are edited)`;
  }
  if (isMoeField(field)) return `"${field}" is a mixture-of-experts setting and ${model.name} has no experts`;
  if (isMlaField(field)) return `"${field}" is a latent-attention (MLA) setting and ${model.name} has no MLA`;
  if (isMambaField(field)) {
    return hasMamba(model) ? `"${field}" is not a setting of ${model.name}'s version of Mamba`
      : `"${field}" is a Mamba setting and ${model.name} has no Mamba layers`;
  }
  if (hasMamba(model) && (ATTENTION_FIELDS.includes(field) || field === 'parallel_block')) {
    return `"${field}" is an attention setting and ${model.name} has Mamba layers, without attention`;
  }
  return `"${field}" is not a setting of ${model.name}`;
}

function readView(q, state) {
  for (const [key, choices] of Object.entries(VIEW_OPTIONS)) {
    if (q.has(key)) state.view[key] = readChoice(key, q.get(key), choices);
  }
  if (q.has('coll_chips')) state.view.coll_chips = readNumber('coll_chips', q.get('coll_chips'));
  const tradeoff = readTradeoffChoice((key) => q.get(key));
  if (tradeoff) state.view.tradeoff = tradeoff;
  const search = readSearchChoice((key) => q.get(key));
  if (search) state.view.search = search;
}

