// The views' pure parts under Node: the one duration formatter of the headlines, where the
// chip-count error goes, the breakdown's colours and its spoken description, the latency
// chart's top operators. No browser and no build needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fmt from '../../web/js/format.js';
import { placeEngineError } from '../../web/js/views/errors.js';
import { STEP_PARTS, breakdownDescription, stepParts } from '../../web/js/views/breakdown-chart.js';
import { STEP_COLORS } from '../../web/js/views/palette.js';
import { TOP_OPERATORS, groupsFor, latencyOption } from '../../web/js/views/latency-chart.js';

const NBSP = '\u00a0';

test('every headline time reads in the unit a person would say', () => {
  // 22,500 s of time to first token is 6.25 hours; training already read days this way.
  assert.equal(fmt.duration(22500), `6.25${NBSP}h`);
  assert.deepEqual(fmt.durationParts(22500), { value: '6.25', unit: 'h' });
  assert.equal(fmt.duration(0.0837), `83.7${NBSP}ms`);
  assert.equal(fmt.duration(90), `90${NBSP}s`);
  assert.equal(fmt.duration(1800), `30${NBSP}min`);
  assert.equal(fmt.duration(7190), `2${NBSP}h`, 'not "120 min"');
  assert.equal(fmt.duration(27.4 * 86400), `27.4${NBSP}days`);
  assert.equal(fmt.duration(NaN), fmt.DASH);
  assert.deepEqual(fmt.durationParts(undefined), { value: fmt.DASH, unit: '' });
});

test('"needs more chips" goes to DP when DP was set, to the chip count otherwise, with a hint in inference', () => {
  const error = { path: 'parallelism', message: 'tp × cp × dp × pp = 8 needs more chips than system.count = 4' };
  const inference = (dp) => ({ mode: 'inference', parallelism: { tp: 2, pp: 2, dp } });
  assert.deepEqual(placeEngineError(error, inference(2)), { path: 'parallelism.dp', note: 'TP × PP × DP = 8 chips needed.' });
  assert.deepEqual(placeEngineError(error, inference(null)), { path: 'parallelism', note: 'TP × PP × DP = 8 chips needed.' });
  assert.deepEqual(placeEngineError(error, { mode: 'training', parallelism: { tp: 2, pp: 2, dp: 2, cp: 1 } }),
    { path: 'parallelism.dp', note: null });
  // Other errors keep their path and get no note.
  assert.deepEqual(placeEngineError({ path: 'parallelism.tp', message: 'TP = 3 must divide 64 heads' }, inference(2)),
    { path: 'parallelism.tp', note: null });
});

test('the parts of a training step have clearly different colours', () => {
  const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const keys = Object.keys(STEP_PARTS);
  for (const key of keys) assert.ok(STEP_COLORS[key], key);
  for (let i = 0; i < keys.length; i++) {
    for (let j = i + 1; j < keys.length; j++) {
      const [a, b] = [rgb(STEP_COLORS[keys[i]]), rgb(STEP_COLORS[keys[j]])];
      const distance = Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
      assert.ok(distance > 80, `${keys[i]} and ${keys[j]}: ${STEP_COLORS[keys[i]]} vs ${STEP_COLORS[keys[j]]}`);
    }
  }
});

test('the breakdown is described with formatted values and leaves out missing parts', () => {
  const summary = { step_time_s: 8.93, breakdown: { compute_s: 7.09, tp_s: 1.7, cp_s: NaN, dp_s: 0.0464, optimizer_s: undefined } };
  const parts = stepParts(summary, { recompute: 'none' });
  assert.deepEqual(parts.map((p) => p.key), ['compute_s', 'tp_s', 'dp_s']);
  const text = breakdownDescription(summary, parts);
  assert.equal(text, `Where the step goes: 8.93${NBSP}s in all: Compute 7.09${NBSP}s (79.4%), TP communication 1.7${NBSP}s (19.0%), ` +
    `DP gradient sync 46.4${NBSP}ms (0.5%).`);
  assert.doesNotMatch(text, /NaN|undefined/);
  assert.doesNotMatch(parts[0].about, /recomputation/);
  assert.match(stepParts(summary, { recompute: 'full' })[0].about, /recomputation included/);
});

test('split by operator: the top operators get distinct hues, the rest one "other" part', () => {
  const ops = Array.from({ length: 14 }, (_, i) => ({ name: `op${i}`, class: 'matmul', bound: 'compute', total_time_s: 14 - i }));
  const { groups, keyOf } = groupsFor('op', [{ ops, time: 105 }]);
  assert.equal(groups.length, TOP_OPERATORS + 1);
  assert.deepEqual(groups.slice(0, 3).map((g) => g.key), ['op0', 'op1', 'op2'], 'largest first');
  assert.equal(new Set(groups.map((g) => g.color)).size, groups.length, 'no two alike');
  assert.equal(groups.at(-1).label, 'Other operators');
  assert.equal(keyOf(ops[13]), groups.at(-1).key);
  assert.equal(keyOf(ops[0]), 'op0');
  // As many as there are hues: no "other".
  const few = groupsFor('op', [{ ops: ops.slice(0, TOP_OPERATORS + 1), time: 100 }]);
  assert.equal(few.groups.length, TOP_OPERATORS + 1);
  assert.ok(few.groups.every((g) => g.key.startsWith('op')));
});

test('the latency chart lays out for its width: legend below, unpaged, and the critical stage named', () => {
  const op = (name, stage, t) => ({ name, class: 'matmul', bound: 'compute', total_time_s: t, stage });
  const phase = (t) => ({ time_s: t, steps: 10, ops: [op('a', 0, 1), op('b', 0, 0.5), op('a', 1, 0.4)] });
  const result = { phases: { prefill: phase(2), decode: phase(3) } };
  for (const width of [340, 1000]) {
    const { option, height } = latencyOption(result, { split: 'op', decode: 'total' }, width);
    assert.equal(option.legend.type, 'plain');
    const lastGrid = option.grid.at(-1);
    assert.ok(option.legend.top >= lastGrid.top + lastGrid.height);
    assert.ok(height > option.legend.top);
    assert.match(option.title[0].text, /stage 0 \(the critical stage\)/);
    assert.doesNotMatch(option.title[0].text, /busiest/);
    assert.doesNotMatch(option.aria.label.description, /NaN|undefined/);
  }
});
