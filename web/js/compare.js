// Compare: the scenarios a person pinned, side by side with the current one. Pure (the Node
// tests import it): what a column is called (the settings in which the scenarios differ), the
// headline rows with each value's change against the first column (the baseline), and the
// parts of each scenario's latency or step for the overlaid bars. The pins themselves are page
// states (state.js writes them into the link as `pin=` keys); main.js keeps them.
import * as fmt from './format.js';
import { usd, joules, kwh, watts } from './cost-format.js';

// Pins kept beside the current scenario: four columns at most.
export const MAX_PINS = 3;

// A pin's name, which the person may give it (else its automatic one, "Pin 1"): kept in the
// pin's state as `label` and in the link (state.js). At most MAX_LABEL characters, without
// control characters (tabs and line breaks become spaces) or the invisible marks that
// reorder text (bidirectional overrides), spaces collapsed and trimmed.
export const MAX_LABEL = 40;
const LINE_BREAKS = /[\t\n\r\v\f\u0085\u2028\u2029]/gu;
const CONTROLS = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

const plainLabel = (text) => text.replace(LINE_BREAKS, ' ').replace(CONTROLS, '').replace(/\s+/gu, ' ').trim();

// -> the name, or null when nothing is left.
export function cleanLabel(text) {
  if (typeof text !== 'string') return null;
  return Array.from(plainLabel(text)).slice(0, MAX_LABEL).join('').trim() || null;
}

// What cleanLabel takes out of a name read from a link, in words ("was shortened to 40
// characters"), or null when nothing.
export function labelProblems(text) {
  if (typeof text !== 'string') return null;
  const out = [];
  if (text.replace(LINE_BREAKS, ' ').search(CONTROLS) >= 0) out.push('had control characters, which were taken out');
  if (Array.from(plainLabel(text)).length > MAX_LABEL) out.push(`was shortened to ${MAX_LABEL} characters`);
  return out.length ? out.join(' and ') : null;
}

// The name a pin goes by: its own, else "Pin 2" (i: its place, from 0).
export const pinName = (pin, i) => cleanLabel(pin?.label) ?? `Pin ${i + 1}`;

// The headline rows: id, label, how to read a value from a result, how to show it, and which
// way is better (-1 lower, +1 higher, 0 neither): the performance headlines, then the Cost
// card's (result.cost; a row without a price shows dashes).
const ROWS = [
  ['ttft', 'Time to first token', (r) => r.summary?.ttft_s, fmt.time, -1, 'inference'],
  ['tpot', 'Time per output token', (r) => r.summary?.tpot_s, fmt.time, -1, 'inference'],
  ['e2e', 'End-to-end latency', (r) => r.summary?.e2e_latency_s, fmt.duration, -1, 'inference'],
  ['throughput', 'Output tokens/s', (r) => r.summary?.output_tokens_per_s, fmt.num, 1, 'inference'],
  ['throughput_chip', 'Output tokens/s per chip', (r) => r.summary?.output_tokens_per_s_per_chip, fmt.num, 1, 'inference'],
  ['step', 'Step time', (r) => r.summary?.step_time_s, fmt.duration, -1, 'training'],
  ['tokens', 'Tokens/s', (r) => r.summary?.tokens_per_s, fmt.num, 1, 'training'],
  ['tokens_chip', 'Tokens/s per chip', (r) => r.summary?.tokens_per_s_per_chip, fmt.num, 1, 'training'],
  ['mfu', 'MFU', (r) => r.summary?.mfu, fmt.percent, 1, 'training'],
  ['memory', 'Memory per chip', (r) => r.memory?.total_bytes ?? r.memory?.stage?.total_bytes, fmt.bytes, -1, null],
  ['chips', 'Chips', (r) => r.summary?.chips, fmt.int, 0, null],
  ['cost_output', '$ per million output tokens', (r) => r.cost?.usd_per_m_output_tokens, usd, -1, 'inference'],
  ['cost_input', '$ per million input tokens', (r) => r.cost?.usd_per_m_input_tokens, usd, -1, 'inference'],
  ['cost_request', '$ per request', (r) => r.cost?.usd_per_request, usd, -1, 'inference'],
  ['energy_token', 'Energy per output token', (r) => r.cost?.joules_per_output_token, joules, -1, 'inference'],
  ['energy_request', 'Energy per request', (r) => r.cost?.joules_per_request, joules, -1, 'inference'],
  ['cost_step', '$ per step', (r) => r.cost?.usd_per_step, usd, -1, 'training'],
  ['energy_step', 'Energy per step (IT)', (r) => r.cost?.energy_kwh_per_step, kwh, -1, 'training'],
  ['cost_total', '$ to train', (r) => r.cost?.usd_total, usd, -1, 'training'],
  ['energy_total', 'Energy to train', (r) => r.cost?.facility_energy_kwh, kwh, -1, 'training'],
  ['chip_hours', 'Chip-hours', (r) => r.cost?.chip_hours, fmt.compact, -1, 'training'],
  ['power_chip', 'Power per chip (facility)', (r) => r.cost?.power_w_per_chip?.facility, watts, 0, null],
];

const finite = (x) => typeof x === 'number' && Number.isFinite(x);

// The change from base to value as a fraction (0.123 = +12.3%); null when either is missing
// or the base is 0.
export function change(base, value) {
  if (!finite(base) || !finite(value) || base === 0) return null;
  return (value - base) / Math.abs(base);
}

// "+12.3%", "−4.0%", "±0%".
export function changeText(fraction) {
  if (fraction === null) return '';
  const p = fraction * 100;
  if (Math.abs(p) < 0.05) return '±0%';
  const digits = Math.abs(p) >= 100 ? 0 : 1;
  return `${p > 0 ? '+' : '−'}${Math.abs(p).toFixed(digits)}%`;
}

// -> 'better' | 'worse' | 'same' | null for a change of a row whose better direction is `better`.
export function verdict(fraction, better) {
  if (fraction === null || better === 0) return null;
  if (Math.abs(fraction) < 0.0005) return 'same';
  return Math.sign(fraction) === better ? 'better' : 'worse';
}

// The settings of a result that a column header may name, as [key, text].
export function features(result) {
  const s = result?.scenario ?? {};
  const p = s.parallelism ?? {};
  const w = s.workload ?? {};
  const out = [
    ['model', s.model?.name ?? 'model'],
    ['system', `${s.system?.name ?? 'system'} × ${fmt.int(s.system?.count)}`],
    ['tp', `TP ${fmt.int(p.tp)}`], ['pp', `PP ${fmt.int(p.pp)}`], ['dp', `DP ${fmt.int(p.dp)}`],
  ];
  if (result?.workload === 'training') {
    out.push(['seq_len', `sequence ${fmt.int(w.seq_len)}`], ['global_batch', `global batch ${fmt.int(w.global_batch)}`],
      ['micro_batch', `micro-batch ${fmt.int(w.micro_batch)}`], ['zero', `ZeRO ${fmt.int(p.zero)}`]);
  } else {
    out.push(['batch', `${w.mode === 'concurrency' ? 'concurrency' : 'batch'} ${fmt.int(w.batch)}`],
      ['input', `${fmt.int(w.input_tokens)} in`], ['output', `${fmt.int(w.output_tokens)} out`]);
  }
  const prec = w.precision;
  if (prec && typeof prec === 'object') out.push(['precision', `weights ${prec.weights} · KV ${prec.kv_cache}`]);
  else if (typeof prec === 'string') out.push(['precision', prec]);
  out.push(['engine', s.engine?.name ?? '']);
  return out.filter(([, text]) => text);
}

// Column headings: for each result, the features in which the compared results differ
// (all of them when there is one result), joined with " · "; "same settings" when none differ.
export function columnLabels(results) {
  const all = results.map((r) => (r ? features(r) : []));
  const differs = (key) => new Set(all.map((f) => f.find(([k]) => k === key)?.[1] ?? '')).size > 1;
  return all.map((f) => {
    const named = results.length > 1 ? f.filter(([k]) => differs(k)) : f;
    return named.length ? named.map(([, t]) => t).join(' · ') : 'same settings';
  });
}

// The headline rows for results (null: a scenario that did not evaluate): a row is kept when
// one result has its number. Cells hold the value, its text and its change against column 0.
export function compareRows(results) {
  const rows = [];
  for (const [id, label, get, show, better, mode] of ROWS) {
    const values = results.map((r) => (r && (!mode || r.workload === mode) ? get(r) : null));
    if (!values.some(finite)) continue;
    const base = values[0];
    rows.push({
      id, label, better,
      cells: values.map((v, i) => {
        const c = i === 0 ? null : change(base, v);
        return { value: finite(v) ? v : null, text: finite(v) ? show(v) : fmt.DASH, change: c, delta: changeText(c), verdict: verdict(c, better) };
      }),
    });
  }
  return rows;
}

const STEP_PARTS = [['compute_s', 'compute'], ['tp_s', 'TP'], ['cp_s', 'CP'], ['pp_s', 'PP hand-offs'], ['ep_s', 'EP'],
  ['zero3_s', 'ZeRO-3'], ['bubble_s', 'bubble'], ['dp_s', 'DP sync'], ['optimizer_s', 'optimizer'], ['offload_s', 'offload']];

// The parts of one result's time, for the overlaid bars: inference: prefill (TTFT) and
// decode (the rest of the request); training: the step's breakdown. -> [[key, label, seconds]]
export function timeParts(result) {
  if (!result) return [];
  if (result.workload === 'training') {
    const b = result.summary?.breakdown ?? {};
    return STEP_PARTS.filter(([k]) => finite(b[k]) && b[k] > 0).map(([k, label]) => [k, label, b[k]]);
  }
  const ttft = result.summary?.ttft_s;
  const e2e = result.summary?.e2e_latency_s;
  const parts = [];
  if (finite(ttft)) parts.push(['prefill', 'prefill (TTFT)', ttft]);
  if (finite(e2e) && finite(ttft) && e2e - ttft > 0) parts.push(['decode', 'decode', e2e - ttft]);
  return parts;
}
