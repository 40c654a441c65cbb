// The page's pure modules for parallelism and networks under Node: parallelism and network
// edits in the link, the scenario they send, the mapping picture's chip coordinates and the
// collective chart's series. No browser and no build needed; presets come from presets/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPresets } from '../support/presets.mjs';
import { fromHash, toHash, defaultState } from '../../web/js/state.js';
import { fromScenario, toScenario } from '../../web/js/scenario.js';
import { networkParams, presetNetwork, readNetwork, withTopology, newLevel } from '../../web/js/network.js';
import { boxes, chooseDim, colouring, coordinate, groupOf, unitsOf } from '../../web/js/views/mapping-layout.js';
import { algorithmRuns, binaryBytes, collectiveOption } from '../../web/js/views/collective-chart.js';
import { measuredCases } from '../../web/js/views/network-view.js';

const presets = loadPresets();

test('links from before pp and dp still load, and pp, dp, micro-batches round-trip', () => {
  const old = fromHash('#model=llama-2-70b&system=dgx-h100&chips=8&tp=8&batch=1&input=2048&output=256&precision=bf16&flash=on', presets);
  assert.equal(old.error, null);
  assert.deepEqual(old.state.parallelism, { tp: 8, pp: 1, ep: 1, dp: null, micro_batches: null });
  assert.match(toHash(old.state, presets), /&tp=8&pp=1&batch=1/);

  const hash = '#model=llama-3-70b&system=dgx-h100&chips=32&tp=8&pp=2&dp=2&mb=4&batch=32&input=2048&output=256&precision=bf16&flash=on';
  const { state, error } = fromHash(hash, presets);
  assert.equal(error, null);
  assert.deepEqual(state.parallelism, { tp: 8, pp: 2, ep: 1, dp: 2, micro_batches: 4 });
  assert.equal(toHash(state, presets), hash);
  assert.deepEqual(toScenario(state).parallelism, { tp: 8, pp: 2, dp: 2, micro_batches: 4 });
});

test('the two-node preset sends a top-level parallelism and leaves dp to the engine', () => {
  const s = toScenario(fromScenario(presets.scenarios['llama3-70b-2x-dgx-h100-pp2'], presets));
  assert.deepEqual(s.parallelism, { tp: 8, pp: 2 });
  assert.deepEqual(s.system, { preset: 'dgx-h100', count: 16 });
  assert.equal(s.workload.parallelism, undefined);
  // A scenario written the old way (parallelism under the workload) reads the same.
  const legacy = { model: 'llama-2-70b', system: 'dgx-h100', workload: { kind: 'inference', parallelism: { tp: 4 } } };
  assert.deepEqual(fromScenario(legacy, presets).parallelism, { tp: 4, pp: 1, ep: 1, dp: null, micro_batches: null });
});

test('network edits: only the differences go into the link, and the link restores the network', () => {
  const state = structuredClone(defaultState(presets));
  const preset = presetNetwork(state.machine, presets);
  assert.equal(preset.length, 2);
  assert.equal(preset[0].source, undefined, 'levels carry only the engine fields');
  const network = structuredClone(preset);
  network[1].link_gbps = 100;
  network[1] = withTopology(network[1], 'ring'); // a ring takes no oversubscription
  delete network[0].in_network_reduction;
  network.push(newLevel(network));
  state.machine.network = network;

  const params = Object.fromEntries(networkParams(network, preset));
  assert.equal(params.levels, '3');
  assert.equal(params['net1.link_gbps'], '100');
  assert.equal(params['net1.topology'], 'ring');
  assert.equal(params['net1.oversubscription'], 'none');
  assert.equal(params['net0.inr.efficiency'], 'none');
  assert.equal(params['net2.size'], '2');
  assert.equal(params['net0.name'], undefined, 'unchanged fields stay out of the link');

  const hash = toHash(state, presets);
  const back = fromHash(hash, presets);
  assert.equal(back.error, null);
  assert.deepEqual(back.state.machine.network, network);
  assert.deepEqual(toScenario(back.state).system, { preset: 'dgx-h100', count: 8, network });

  // Setting the preset's values back is no edit at all.
  const q = new URLSearchParams(`net1.link_gbps=${preset[1].link_gbps}`);
  assert.equal(readNetwork(q, preset), null);
});

test('a chip × count machine takes its reference system\'s network; a torus keeps its dimensions in the link', () => {
  assert.deepEqual(presetNetwork({ kind: 'chip', preset: 'h100-sxm' }, presets), presetNetwork({ kind: 'system', preset: 'dgx-h100' }, presets));
  assert.deepEqual(presetNetwork({ kind: 'chip', preset: 'gh200' }, presets), []);
  const { state } = fromHash('#system=tpu-v5e-pod&chips=64&net0.dims=8x32', presets);
  assert.deepEqual(state.machine.network[0].dims, [8, 32]);
  assert.match(toHash(state, presets), /net0\.dims=8x32/);
});

// TP 8 × DP 2 × PP 4 on 64 chips of 8-chip nodes, as the engine places them (order tp, dp,
// pp from the innermost: strides 1, 8, 16).
const RESULT = {
  summary: { chips: 64 },
  scenario: { system: { network: [{ name: 'NVLink', size: 8 }, { name: 'InfiniBand', size: 128 }] } },
  network: [
    { dimension: 'tp', size: 8, stride: 1, levels: [{ level: 0, name: 'NVLink', size: 8 }] },
    { dimension: 'dp', size: 2, stride: 8, levels: [{ level: 1, name: 'InfiniBand', size: 2 }] },
    { dimension: 'pp', size: 4, stride: 16, levels: [{ level: 1, name: 'InfiniBand', size: 4 }] },
  ],
};

test('the mapping picture places each chip by its coordinates (worked by hand)', () => {
  const [tp, dp, pp] = RESULT.network;
  // Chip 37 = 2 × 16 + 0 × 8 + 5: TP rank 5, replica 0, stage 2, in TP group 4 (chips 32–39).
  assert.deepEqual([coordinate(37, tp), coordinate(37, dp), coordinate(37, pp)], [5, 0, 2]);
  assert.equal(groupOf(37, tp), 4);
  // The groups of DP (stride 8, size 2): chips 0 and 8 talk; chip 37's partner is 45, group 21.
  assert.equal(groupOf(37, dp), groupOf(45, dp));
  assert.equal(groupOf(37, dp), 2 * 8 + 5);
  assert.equal(chooseDim(RESULT.network, 'auto'), pp);
  assert.equal(chooseDim(RESULT.network, 'tp'), tp);
  assert.equal(colouring(tp, 64).count, 8);

  const units = unitsOf(RESULT);
  assert.deepEqual([units.unit, units.boxes, units.detailed], [8, 8, true]);
  const list = boxes(units, colouring(pp, 64), RESULT.network);
  // Node 4 holds chips 32–39: all stage 2, one TP group, replica 0.
  assert.deepEqual([...list[4].counts], [[2, 8]]);
  assert.equal(list[4].text, 'chips 32–39 · TP group 4 · replica 0 · stage 2');

  // 4096 chips are drawn as at most 128 boxes of counts.
  const big = { ...RESULT, summary: { chips: 4096 } };
  const bigUnits = unitsOf(big);
  assert.equal(bigUnits.detailed, false);
  assert.ok(bigUnits.boxes <= 128 && bigUnits.box % 8 === 0, JSON.stringify(bigUnits));
});

const sweepOf = (algs) => ({
  ok: true, op: 'all_reduce', chips: 8, system: 'x', levels: [],
  points: algs.map((algorithm, i) => ({ bytes: 8 * 2 ** i, time_s: 1e-5, algbw_gbps: i, busbw_gbps: 2 * i, algorithm, bound_time_s: 1e-6 })),
});

test('the collective chart colours each algorithm\'s run and marks where the choice flips', () => {
  assert.equal(binaryBytes(8), '8\u00a0B');
  assert.equal(binaryBytes(32768), '32\u00a0KiB');
  assert.equal(binaryBytes(8589934592), '8\u00a0GiB');
  const sweep = sweepOf(['ring/LL', 'ring/LL', 'hierarchical', 'ring/simple', 'ring/simple']);
  assert.deepEqual(algorithmRuns(sweep.points).map((r) => [r.algorithm, r.first, r.last]),
    [['ring/LL', 0, 1], ['hierarchical', 2, 2], ['ring/simple', 3, 4]]);
  const option = collectiveOption(sweep, []);
  const ll = option.series.find((s) => s.name === 'ring/LL');
  // Its two points, then a bridge to the next size without a symbol, then gaps.
  assert.deepEqual(ll.data.map((d) => d.value[1]), [0, 2, 4, '-', '-']);
  assert.equal(ll.data[2].symbol, 'none');
  assert.deepEqual(ll.markLine.data.map((d) => d.name), ['→ hierarchical', '→ ring/simple']);
  assert.equal(ll.markLine.data[0].xAxis, Math.sqrt(16 * 32));
});

test('measured points: busbw cases of the same chip and collective, filled when the chip count matches', () => {
  const c = (chip, op, chips, primary = 'busbw_gbps') => ({
    id: `${chip}-${op}-${chips}`, kind: 'collective', primary, measured: 100, predicted: 90, error: 0.1, source: 's',
    scenario: { system: { chip }, op, chips, bytes: 1 << 20, algorithm: 'auto' },
  });
  const report = { ok: true, cases: [c('h100-sxm', 'all_reduce', 8), c('h100-sxm', 'all_reduce', 16), c('h100-sxm', 'all_gather', 8),
    c('a100-sxm-80gb', 'all_reduce', 8), c('h100-sxm', 'all_reduce', 8, 'time_s'), { kind: 'inference', scenario: {} }] };
  const cases = measuredCases(report, 'h100-sxm', 'all_reduce');
  assert.deepEqual(cases.map((x) => x.id), ['h100-sxm-all_reduce-8', 'h100-sxm-all_reduce-16']);
  const option = collectiveOption(sweepOf(['ring/LL', 'ring/LL']), cases);
  const filled = option.series.find((s) => s.name === 'measured, 8 chips');
  const hollow = option.series.find((s) => s.name === 'measured, other chip counts');
  assert.deepEqual(filled.data.map((d) => d.value), [[1 << 20, 100]]);
  assert.equal(hollow.data.length, 1);
  assert.equal(option.xAxis.max, 1 << 20, 'the axis reaches the measured sizes');
});
