// What the Trade-off view asks the engine for (engine.tradeoff(); core/cost/trade_off.hpp):
// one or two knobs of the design and their values, with defaults around the scenario, and how
// each answer point reads as performance against cost. Pure: the Node tests import it.

// The knobs, in the order offered; `package`: needs the scenario's cost.package; `network`:
// needs a system network (one bare chip has none: core/io/tradeoff_json.cpp).
export const KNOBS = {
  hbm_stacks: { label: 'HBM stacks', package: true, integer: true },
  die_area_mm2: { label: 'Logic die area (mm²)', package: true },
  chiplets: { label: 'Chiplets', package: true, integer: true },
  process_node: { label: 'Process node', package: true, text: true },
  scale_up_gbps: { label: 'Scale-up GB/s per chip', integer: false, network: true },
  chips_per_system: { label: 'Chips per scale-up domain', integer: true, network: true },
};
export const KNOB_NAMES = Object.keys(KNOBS);
export const MAX_VALUES = 64;
export const MAX_POINTS = 1024;
// The process nodes offered by default, oldest first (presets/costs/process-nodes.json).
const NODE_CHOICES = ['7nm-actuary-2022', '5nm-actuary-2022', '3nm-actuary-2022'];

const unique = (xs) => [...new Set(xs)];
const round = (x) => Number(x.toPrecision(3));

// Whether the evaluated system has a network to vary (result.scenario: as the engine resolved
// it; no result yet: assumed, and the engine says otherwise).
export const hasNetwork = (result) => !result?.scenario?.system || (result.scenario.system.network?.length ?? 0) > 0;

// The knobs a scenario can turn: the package's only when it has one (HBM stacks only with HBM),
// the network's only when its system has one.
export function availableKnobs(scenario, result = null) {
  const pkg = scenario?.cost?.package;
  const network = hasNetwork(result);
  return KNOB_NAMES.filter((k) => (!KNOBS[k].package || (pkg && (k !== 'hbm_stacks' || (pkg.hbm?.stacks ?? 0) > 0)))
    && (!KNOBS[k].network || network));
}

// What a knob that cannot be turned needs, in words.
export const knobNeeds = (knob) => (KNOBS[knob].network ? 'needs a system network' : `needs a package${knob === 'hbm_stacks' ? ' with HBM' : ''}`);

// The knobs the view starts with: the HBM stacks and the chiplets of a package, else the
// scale-up bandwidth alone; none when nothing can be turned.
export function defaultKnobs(scenario, result = null) {
  const can = availableKnobs(scenario, result);
  if (can.includes('hbm_stacks')) return ['hbm_stacks', 'chiplets'];
  if (can.includes('chiplets')) return ['die_area_mm2', 'chiplets'];
  if (can.includes('scale_up_gbps')) return ['scale_up_gbps', null];
  return [null, null];
}

// -> values around the scenario's own. `base`: { hbm_stacks, die_area_mm2, chiplets, node,
// scale_up_gbps, chips_per_system } of the scenario (baseSettings).
export function defaultValues(knob, base) {
  switch (knob) {
    case 'hbm_stacks': {
      const s = Math.max(1, base.hbm_stacks ?? 4);
      return unique([s - 2, s - 1, s, s + 1, s + 3].filter((v) => v >= 1 && v <= 64));
    }
    case 'die_area_mm2': {
      const a = base.die_area_mm2 ?? 400;
      return unique([0.5, 0.75, 1, 1.25, 1.5].map((f) => round(a * f)));
    }
    case 'chiplets': return [1, 2, 4, 8];
    case 'process_node': return unique([...NODE_CHOICES, ...(typeof base.node === 'string' ? [base.node] : [])]);
    case 'scale_up_gbps': {
      const g = base.scale_up_gbps ?? 450;
      return unique([0.25, 0.5, 1, 2, 4].map((f) => round(g * f)));
    }
    case 'chips_per_system': {
      const n = Math.max(1, base.chips_per_system ?? 8);
      return unique([n / 2, n, n * 2, n * 4, n * 9].map((v) => Math.max(1, Math.round(v))));
    }
    default: return [];
  }
}

// The scenario's own setting of each knob: the package as the scenario gives it, the network
// from its evaluated result (result.scenario: the system as the engine resolved it).
export function baseSettings(scenario, result) {
  const s = result?.scenario ?? {};
  const pkg = scenario?.cost?.package ?? null;
  const level = Array.isArray(s.system?.network) ? s.system.network[0] : null;
  const logic = pkg ? pkg.dies.reduce((a, d) => a + d.area_mm2 * (d.count ?? 1), 0) : null;
  return {
    hbm_stacks: pkg?.hbm?.stacks ?? null,
    die_area_mm2: logic,
    chiplets: pkg ? pkg.dies.reduce((a, d) => a + (d.count ?? 1), 0) : null,
    node: pkg?.dies?.[0]?.node ?? null,
    scale_up_gbps: level ? level.links_per_chip * level.link_gbps : null,
    chips_per_system: level?.size ?? null,
  };
}

export const valuesText = (values) => values.join(', ');

// "4, 5, 6" -> { values } | { error }: a plain sentence naming what is wrong.
export function parseValues(knob, text) {
  const parts = String(text ?? '').split(/[,;\s]+/).filter(Boolean);
  if (!parts.length) return { error: 'Give one value or more, separated by commas.' };
  if (parts.length > MAX_VALUES) return { error: `At most ${MAX_VALUES} values (${parts.length} given).` };
  if (KNOBS[knob]?.text) return { values: unique(parts) };
  const values = [];
  for (const p of parts) {
    const v = Number(p);
    if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(p) || !Number.isFinite(v)) return { error: `“${p}” is not a number.` };
    if (v <= 0) return { error: `${KNOBS[knob].label}: ${p} is not above zero.` };
    if (KNOBS[knob].integer && !Number.isInteger(v)) return { error: `${KNOBS[knob].label}: ${p} is not a whole number.` };
    values.push(v);
  }
  return { values: unique(values) };
}

// -> { request } | { error }: axes [{knob, text}] (a null knob is left out).
export function tradeoffRequest(scenario, axes) {
  const knobs = [];
  let points = 1;
  for (const [i, axis] of axes.entries()) {
    if (!axis?.knob) continue;
    const read = parseValues(axis.knob, axis.text);
    if (read.error) return { error: read.error, axis: i };
    knobs.push({ knob: axis.knob, values: read.values });
    points *= read.values.length;
  }
  if (!knobs.length) return { error: 'Choose a knob.', axis: 0 };
  if (points > MAX_POINTS) return { error: `${points} designs: at most ${MAX_POINTS} (fewer values, or one knob).`, axis: knobs.length - 1 };
  return { request: { scenario, knobs } };
}

// How a point reads: x the cost, y the performance (training: the step time, lower is better).
export function axesOf(workload) {
  return workload === 'training'
    ? { x: 'usd_per_step', y: 'step_time_s', xLabel: '$ per step', yLabel: 'Step time (s)', lowerIsBetter: true }
    : { x: 'usd_per_chip_hour', y: 'output_tokens_per_s_per_chip', xLabel: '$ per chip-hour', yLabel: 'Output tokens/s per chip', lowerIsBetter: false };
}

// The scenario itself as a point of the chart, from its result.
export function currentPoint(result) {
  if (!result?.cost) return null;
  return result.workload === 'training'
    ? { usd_per_step: result.cost.usd_per_step, step_time_s: result.summary.step_time_s }
    : { usd_per_chip_hour: result.cost.usd_per_chip_hour, output_tokens_per_s_per_chip: result.summary.output_tokens_per_s_per_chip };
}

// A point's setting in words: "HBM stacks 5 · Chiplets 2".
export const settingText = (setting) => Object.entries(setting ?? {})
  .map(([k, v]) => `${KNOBS[k]?.label.replace(/ \(.*\)$/, '') ?? k} ${v}`).join(' · ');

// ---- the link (state.js) ------------------------------------------------------------------
// state.view.tradeoff: null (the card's own choice: defaultKnobs, values around the scenario)
// or what the person chose: { knobs: [knob, knob | null], values: [values | null, values | null] }
// (null values: around the scenario). Written only when chosen, values joined by spaces:
//   tradeoff=hbm_stacks+chiplets        the knobs, one or two
//   tradeoff.1=3+4+5&tradeoff.2=1+2     the values of each, when typed
export const TRADEOFF_KEYS = ['tradeoff', 'tradeoff.1', 'tradeoff.2'];
const MAX_LINK_TEXT = 2000;

const words = (text) => String(text).split(/[,;\s]+/).filter(Boolean);
const quoted = (text) => `"${text.length > 48 ? `${text.slice(0, 47)}…` : text}"`;

// -> [[key, text]] in link order.
export function tradeoffParams(choice) {
  if (!choice?.knobs?.[0]) return [];
  const out = [['tradeoff', choice.knobs.filter(Boolean).join(' ')]];
  choice.knobs.forEach((knob, i) => {
    if (knob && choice.values?.[i]) out.push([`tradeoff.${i + 1}`, choice.values[i].join(' ')]);
  });
  return out;
}

// get(key) -> the link's text for a key, or null. -> the choice, or null when the link names
// none. Throws a sentence that starts with the key it is about (`tradeoff.1 = "…": …`) or
// names it in quotes, as state.js's other readers do.
export function readTradeoffChoice(get) {
  const text = get('tradeoff');
  if (text === null) {
    const stray = TRADEOFF_KEYS.slice(1).find((k) => get(k) !== null);
    if (stray) throw new Error(`"${stray}" gives the values of a trade-off knob, but the link names no knob (tradeoff=…)`);
    return null;
  }
  const knobs = words(text);
  if (knobs.length === 0 || knobs.length > 2) {
    throw new Error(`tradeoff = ${quoted(text)} should name one or two knobs of ${KNOB_NAMES.join(', ')}`);
  }
  const unknown = knobs.find((k) => !KNOB_NAMES.includes(k));
  if (unknown) throw new Error(`tradeoff = ${quoted(text)}: ${quoted(unknown)} is not one of ${KNOB_NAMES.join(', ')}`);
  if (knobs[0] === knobs[1]) throw new Error(`tradeoff = ${quoted(text)} names the same knob twice`);
  const values = [null, null];
  for (const i of [0, 1]) {
    const key = TRADEOFF_KEYS[i + 1];
    const given = get(key);
    if (given === null) continue;
    if (!knobs[i]) throw new Error(`"${key}" gives the values of a second knob, but tradeoff = ${quoted(text)} names one`);
    if (given.length > MAX_LINK_TEXT) throw new Error(`${key} = ${quoted(given)} is too long (${given.length} characters, at most ${MAX_LINK_TEXT})`);
    const read = parseValues(knobs[i], given);
    if (read.error) throw new Error(`${key} = ${quoted(given)}: ${read.error.replace(/\.$/, '')}`);
    values[i] = read.values;
  }
  if (values[0] && values[1] && values[0].length * values[1].length > MAX_POINTS) {
    throw new Error(`tradeoff.2 = ${quoted(get('tradeoff.2'))}: ${values[0].length} × ${values[1].length} = `
      + `${values[0].length * values[1].length} designs, at most ${MAX_POINTS}`);
  }
  return { knobs: [knobs[0], knobs[1] ?? null], values };
}
