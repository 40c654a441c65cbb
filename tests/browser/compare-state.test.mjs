// Compare and Sweep, the pure parts under Node: links with pinned scenarios (v=1, tolerant:
// old links keep working, a bad pin is left out with a notice), the deltas and column labels,
// the sweep's values, and the sweep chart's option.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPresets } from '../support/presets.mjs';
import { defaultState, fromHash, toLink } from '../../web/js/state.js';
import { MAX_PINS, change, changeText, columnLabels, compareRows, timeParts, verdict } from '../../web/js/compare.js';
import { geometricValues, ownPoint, sweepRequest, SWEEP_POINTS } from '../../web/js/sweep-plan.js';
import { sweepOption, sweepDescription } from '../../web/js/views/sweep-view.js';
import { compareOption } from '../../web/js/views/compare-view.js';

const presets = loadPresets();

test('a link with pinned scenarios round-trips, and one without pins reads as before', () => {
  const base = defaultState(presets);
  const a = structuredClone(base);
  a.workload.batch = 16;
  const b = structuredClone(base);
  b.parallelism.tp = 4;
  b.machine.count = 4;
  const current = structuredClone(base);
  current.workload.input_tokens = 8000;
  current.view.sweep = 'context';
  const link = toLink(current, presets, [a, b]);
  assert.match(link, /^#v=1&/);
  assert.equal((link.match(/&pin=/g) ?? []).length, 2);
  const back = fromHash(link, presets);
  assert.equal(back.error, null);
  assert.deepEqual(back.state, current);
  assert.deepEqual(back.pins, [a, b]);
  // The same link without pins: the state alone, no pins, no notice.
  const plain = fromHash(toLink(current, presets), presets);
  assert.deepEqual(plain, { state: current, error: null, pins: [] });
  // A link written before pins and sweeps existed.
  const old = fromHash('#model=llama-2-70b&system=dgx-h100&chips=8&tp=8&batch=4&input=2048&output=256&precision=bf16&flash=on', presets);
  assert.equal(old.error, null);
  assert.deepEqual(old.pins, []);
  assert.equal(old.state.view.sweep, 'throughput');
});

test('a pin is read as tolerantly as the link: a bad field is left out with a notice, an empty pin is dropped', () => {
  const base = defaultState(presets);
  const good = toLink(base, presets).slice('#v=1&'.length);
  const withBad = encodeURIComponent(`${good}&frobnicate=1`);
  const out = fromHash(`#v=1&model=llama-2-70b&pin=${withBad}&pin=${encodeURIComponent('model=gpt-9')}&pin=`, presets);
  assert.equal(out.pins.length, 2);
  assert.deepEqual(out.pins[0], base);
  assert.match(out.error, /Compare: in pinned scenario 1: .*frobnicate/);
  assert.match(out.error, /in pinned scenario 2: .*gpt-9/);
  assert.match(out.error, /pinned scenario 3 could not be read/);
  // More than MAX_PINS: the rest are named and left out.
  const many = Array.from({ length: MAX_PINS + 1 }, () => `pin=${encodeURIComponent(good)}`).join('&');
  const capped = fromHash(`#v=1&model=llama-2-70b&${many}`, presets);
  assert.equal(capped.pins.length, MAX_PINS);
  assert.match(capped.error, new RegExp(`pinned scenario ${MAX_PINS + 1} was left out`));
  // The page writes at most MAX_PINS.
  assert.equal((toLink(base, presets, [base, base, base, base, base]).match(/&pin=/g) ?? []).length, MAX_PINS);
});

const inference = (over = {}) => ({
  workload: 'inference',
  scenario: { model: { name: 'Llama 2 70B' }, system: { name: 'DGX H100', count: 8 }, parallelism: { tp: 8, pp: 1, dp: 1 },
    workload: { batch: 1, input_tokens: 2048, output_tokens: 256, precision: { weights: 'bf16', kv_cache: 'bf16' } }, engine: { name: 'default' } },
  summary: { ttft_s: 0.1, tpot_s: 0.02, e2e_latency_s: 5.2, output_tokens_per_s: 50, output_tokens_per_s_per_chip: 6.25, chips: 8 },
  memory: { total_bytes: 30e9 },
  ...over,
});

test('deltas are against the first column; better and worse follow each number\'s direction', () => {
  assert.equal(change(2, 3), 0.5);
  assert.equal(change(0, 3), null);
  assert.equal(changeText(0.123), '+12.3%');
  assert.equal(changeText(-0.5), '−50.0%');
  assert.equal(changeText(1.5), '+150%');
  assert.equal(changeText(0), '±0%');
  assert.equal(verdict(-0.2, -1), 'better');
  assert.equal(verdict(0.2, -1), 'worse');
  assert.equal(verdict(0.2, 0), null);

  const base = inference();
  const faster = inference({ summary: { ...base.summary, ttft_s: 0.05, output_tokens_per_s: 75 } });
  faster.scenario = structuredClone(base.scenario);
  faster.scenario.workload.batch = 4;
  const rows = compareRows([base, faster]);
  const ttft = rows.find((r) => r.id === 'ttft');
  assert.equal(ttft.cells[1].delta, '−50.0%');
  assert.equal(ttft.cells[1].verdict, 'better');
  const tput = rows.find((r) => r.id === 'throughput');
  assert.equal(tput.cells[1].delta, '+50.0%');
  assert.equal(tput.cells[1].verdict, 'better');
  assert.equal(rows.find((r) => r.id === 'memory').cells[1].verdict, 'same');
  assert.ok(!rows.some((r) => r.id === 'step'), 'no training rows for inference results');
  // Columns are named by what differs.
  assert.deepEqual(columnLabels([base, faster]), ['batch 1', 'batch 4']);
  assert.deepEqual(columnLabels([base, base]), ['same settings', 'same settings']);
  // A pin that did not compute: dashes, no delta.
  const missing = compareRows([base, null]).find((r) => r.id === 'ttft').cells[1];
  assert.equal(missing.delta, '');
  assert.deepEqual(timeParts(base).map(([k]) => k), ['prefill', 'decode']);
  const { option } = compareOption([base, faster], ['Pin 1', 'Current']);
  assert.deepEqual(option.yAxis.data, ['Pin 1', 'Current']);
  assert.equal(option.series.length, 2);
});

test('sweep values: 64 at most, geometric, ascending, with the scenario\'s own value', () => {
  const v = geometricValues(1, 4096, 64, 24);
  assert.ok(v.length <= 64 && v.length > 40, String(v.length));
  assert.ok(v.includes(24));
  assert.equal(v[0], 1);
  assert.equal(v.at(-1), 4096);
  for (let i = 1; i < v.length; i++) assert.ok(v[i] > v[i - 1]);
  const full = geometricValues(128, 131072, 64, 3000);
  assert.equal(full.length, 64);
  assert.ok(full.includes(3000));
  const scenario = { model: 'llama-2-70b', workload: { batch: 8, input_tokens: 2048, output_tokens: 256 } };
  const batch = sweepRequest(scenario, 'throughput', { ok: true, largest_batch: 300, longest_context: 50000 });
  assert.equal(batch.axis, 'batch');
  assert.equal(batch.values.at(-1), 600);
  assert.ok(batch.values.length <= SWEEP_POINTS);
  const ctx = sweepRequest(scenario, 'memory', { ok: true, largest_batch: 300, longest_context: 50000 });
  assert.equal(ctx.axis, 'input_tokens');
  assert.equal(ctx.values.at(-1), 75000);
  assert.ok(ctx.values.includes(2048));
  assert.equal(sweepRequest({ workload: { kind: 'training' } }, 'throughput'), null);
});

test('the sweep chart marks the scenario\'s own point, greys what does not fit, and lists refused values', () => {
  const point = (value, fits, ok = true) => (ok ? { value, ok, fits, chips: 8, output_tokens_per_s: value * 10, output_tokens_per_s_per_chip: value,
    output_tokens_per_s_per_user: 100 / value, ttft_s: value / 100, tpot_s: 0.01 * value, e2e_latency_s: value, memory_bytes: value * 1e9,
    capacity_bytes: 80e9, weights_bytes: 1e9, kv_cache_bytes: 1e9, activation_bytes: 1e9 }
    : { value, ok: false, error: { path: 'parallelism.tp', message: 'no' } });
  const answer = { ok: true, axis: 'batch', current: 2, points: [point(1, true), point(2, true), point(4, false), point(8, true, false)] };
  assert.equal(ownPoint(answer).value, 2);
  const { option } = sweepOption(answer, 'throughput', { overlays: [{ label: 'Pin 1', answer }] });
  const byName = Object.fromEntries(option.series.map((s) => [s.name, s.data.map((d) => d.value)]));
  assert.deepEqual(byName['tokens/s per chip'], [[1, 1], [2, 2]]);
  assert.deepEqual(byName['does not fit'], [[4, 4]]);
  assert.deepEqual(byName['this scenario'], [[2, 2]]);
  assert.equal(byName['Pin 1'].length, 3);
  assert.equal(option.xAxis.type, 'log');
  const context = sweepOption({ ...answer, axis: 'input_tokens' }, 'context').option;
  assert.deepEqual(context.series.find((s) => s.name === 'this scenario').data.length, 2); // TTFT and TPOT
  assert.match(sweepDescription(answer, 'throughput'), /1 do not fit.*1 are not valid/);
});
