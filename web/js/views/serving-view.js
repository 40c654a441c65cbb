// The Serving card of an inference result: the engine profile the result used, how requests
// are served (a static batch, a closed loop, an offered rate with its load, or prefill and
// decode pools), TTFT and TPOT as the engine reports them (means: the model gives no
// percentiles, and says so), TTFT's parts when the pools give them, and the roof that binds
// each phase. Every number is the engine's (result.summary, result.open_loop,
// result.disaggregated, the phases' ops); the roof of an aggregated phase is the one its
// ops spend most of their time under, as the latency chart's "bound" split shows it.
import { h, $ } from '../dom.js';
import * as fmt from '../format.js';
import { engineUsed } from '../engine-picker.js';
import { stageView } from './latency-chart.js';
import { BOUND_LABELS } from './palette.js';

const boundText = (bound) => (bound ? BOUND_LABELS[bound] ?? bound : fmt.DASH);
const perSecond = (x, unit) => `${fmt.num(x)} ${unit}/s`;
const plural = (n, one, many = `${one}s`) => `${fmt.int(n)} ${n === 1 ? one : many}`;

// The roof an aggregated phase spends most of its time under (its drawn stage's ops), or null.
export function phaseBound(phase) {
  if (!phase?.ops?.length) return null;
  const byBound = new Map();
  for (const op of stageView(phase).ops) byBound.set(op.bound, (byBound.get(op.bound) ?? 0) + op.total_time_s);
  const [bound, time] = [...byBound].reduce((a, b) => (b[1] > a[1] ? b : a));
  return time > 0 ? bound : null;
}

// What sets a disaggregated deployment's request rate (result.disaggregated.binds).
const BINDS = {
  clients: 'the clients: neither pool is full (latency-bound)',
  prefill: 'the prefill pool: its queue is loaded',
  decode_slots: 'the decode slots: every one is taken',
};

// How requests are served, in words, from the result. offline: the page ran the largest
// batch that fits (a static batch to the engine).
export function servingLines(result, { offline = false } = {}) {
  const w = result.scenario.workload;
  const lines = [];
  const d = result.disaggregated;
  if (d) {
    const pool = (p) => `${plural(p.workers, 'worker')}, ${plural(p.chips, 'chip')}, ${plural(p.ranks, 'rank')}`;
    lines.push(['Serving', `disaggregated: ${plural(w.batch, 'client')} of the whole deployment`]);
    lines.push(['Prefill pool', `${pool(d.prefill)} · ${plural(d.prefill.prompts_per_step, 'prompt')} a step of ${fmt.time(d.prefill.step_s)} · queue load ${fmt.percent(d.prefill.load)}`]);
    lines.push(['Decode pool', `${pool(d.decode)} · ${fmt.num(d.decode.running_per_rank)} running of ${fmt.int(d.decode.slots_per_rank)} slots a rank · a step of ${fmt.time(d.decode.step_s)}`]);
    lines.push(['KV cache move', `${fmt.gb(d.kv_transfer.bytes)} a request over ${d.kv_transfer.level} · ${fmt.time(d.kv_transfer.time_s)}, ${fmt.time(d.kv_transfer.exposed_s)} of it in TTFT${d.kv_transfer.layerwise ? ' (layer by layer)' : ''}`]);
    lines.push(['Request rate', `${perSecond(d.requests_per_s, 'requests')}, set by ${BINDS[d.binds] ?? d.binds}`]);
    return lines;
  }
  const o = result.open_loop;
  if (o) {
    lines.push(['Serving', `an offered ${perSecond(o.offered_requests_per_s, 'requests')} (an open loop) of a capacity of ${perSecond(o.capacity_requests_per_s, 'requests')}`]);
    lines.push(['Load', `${fmt.num(o.running_sequences)} running of ${fmt.int(o.slots)} slots a replica · prompt queue busy ${fmt.percent(o.prompt_load)} · mean wait ${fmt.time(o.queue_wait_s)}`
      + (o.saturated ? ' · saturated: the queue grows without bound' : '')]);
    return lines;
  }
  if (w.mode === 'concurrency') lines.push(['Serving', `a closed loop of ${plural(w.batch, 'client')} a replica (continuous batching)`]);
  else if (offline) lines.push(['Serving', `offline: a static batch of ${fmt.int(w.batch)}, the largest that fits`]);
  else lines.push(['Serving', `a static batch of ${fmt.int(w.batch)}`]);
  return lines;
}

// The latency lines: TTFT (with its parts when the pools give them) and TPOT, as means.
export function latencyLines(result) {
  const s = result.summary;
  const parts = result.disaggregated?.ttft_parts_s;
  const names = { prefill_wait: 'prefill queue', prefill: 'prefill', kv_transfer: 'KV move', decode_join: 'joining decode', slot_wait: 'waiting for a slot' };
  const ttftParts = parts ? ` = ${Object.entries(names).filter(([k]) => parts[k] > 0).map(([k, name]) => `${name} ${fmt.time(parts[k])}`).join(' + ')}` : '';
  return [
    ['TTFT', `${fmt.time(s.ttft_s)} mean${ttftParts}`],
    ['TPOT', s.tpot_s == null ? 'no decode step: one output token' : `${fmt.time(s.tpot_s)} mean`],
    ['Percentiles', 'not given: the engine reports means, not P50 or P99'],
  ];
}

// What binds each phase: the pools report it; an aggregated phase's ops show it.
export function boundLines(result) {
  const d = result.disaggregated;
  const prefill = d ? d.prefill.bound : phaseBound(result.phases?.prefill);
  const decode = d ? d.decode.bound : phaseBound(result.phases?.decode);
  return [['Prefill binds', boundText(prefill)], ['Decode binds', decode ? boundText(decode) : 'no decode step']];
}

export function renderServing(result, presets, { offline = false } = {}) {
  const rows = [
    ['Engine', engineUsed(result, presets.engines) ?? fmt.DASH],
    ...servingLines(result, { offline }),
    ...latencyLines(result),
    ...boundLines(result),
  ];
  $('#serving-facts').replaceChildren(...rows.flatMap(([term, text]) => [h('dt', { text: term }), h('dd', { text })]));
  const box = $('#serving-card');
  box.dataset.serving = result.disaggregated ? 'disaggregated' : result.open_loop ? 'server' : offline ? 'offline' : result.scenario.workload.mode ?? 'static';
}
