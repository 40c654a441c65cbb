// The page's pure modules for the serving view under Node: the engine picker (engine and
// release, unknown = current practice, the profile a result used), the serving modes an
// offered request rate (server) and offline, disaggregated prefill and decode pools in the
// link and in the scenario sent to the engine, where their errors go, the curve the card
// asks for in each mode, and the Serving card's lines from an engine result. No browser and
// no build needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPresets } from '../support/presets.mjs';
import { fromHash, toHash } from '../../web/js/state.js';
import { fromScenario, matchingScenario, toScenario } from '../../web/js/scenario.js';
import { REQUEST_RATE_START, withOfflineBatch } from '../../web/js/serving.js';
import { disaggregatedStart } from '../../web/js/disaggregated.js';
import { engineChoices, engineUsed } from '../../web/js/engine-picker.js';
import { curvePlan, markOf } from '../../web/js/serving-curve.js';
import { curveDescription, curveOption } from '../../web/js/views/curve-chart.js';
import { boundLines, latencyLines, phaseBound, servingLines } from '../../web/js/views/serving-view.js';
import { fieldsForPath } from '../../web/js/views/errors.js';
import { ANCHORS, explain } from '../../web/js/explain.js';

const presets = loadPresets();
const OLD_LINK = '#model=llama-2-70b&system=dgx-h100&chips=8&tp=8&pp=1&batch=1&input=2048&output=256&precision=bf16&flash=on';

test('the engine picker: current practice first, then each engine with its releases, from the presets', () => {
  const { unknown, groups } = engineChoices(presets.engines);
  assert.equal(unknown.key, 'default');
  assert.equal(unknown.text, 'Unknown engine: Current practice (2025)');
  const byLabel = Object.fromEntries(groups.map((g) => [g.label, g.releases.map((r) => r.key)]));
  assert.deepEqual(byLabel['TensorRT-LLM'].sort(), ['tensorrt-llm-0.19', 'tensorrt-llm-0.5']);
  assert.deepEqual(byLabel.vLLM, ['vllm-v1']);
  assert.deepEqual(byLabel.SGLang, ['sglang-0.5']);
  assert.deepEqual(byLabel['Intel Gaudi software'], ['intel-gaudi-1.18']);
  // Every profile is offered exactly once.
  const offered = [unknown.key, ...groups.flatMap((g) => g.releases.map((r) => r.key))].sort();
  assert.deepEqual(offered, Object.keys(presets.engines).sort());
  // The result says which profile it used; an unnamed engine is current practice, said so.
  const result = (name) => ({ scenario: { engine: { name } } });
  assert.equal(engineUsed(result('vLLM V1 (0.8 and later)'), presets.engines), 'vLLM V1 (0.8 and later)');
  assert.equal(engineUsed(result('Current practice (2025)'), presets.engines), 'Current practice (2025), as no engine is named');
  // The engine is in the link only when named.
  const { state } = fromHash(`${OLD_LINK}&engine=sglang-0.5`, presets);
  assert.equal(toScenario(state).engine, 'sglang-0.5');
  assert.equal('engine' in toScenario(fromHash(OLD_LINK, presets).state), false);
});

test('an offered request rate: serving=server with request_rate, in the link and the scenario', () => {
  const hash = `${OLD_LINK}&serving=server&request_rate=2.5`;
  const { state, error } = fromHash(hash, presets);
  assert.equal(error, null);
  assert.equal(state.workload.serving, 'server');
  assert.equal(state.workload.request_rate, 2.5);
  assert.equal(toHash(state, presets), hash);
  const sent = toScenario(state);
  assert.equal(sent.workload.mode, 'server');
  assert.equal(sent.workload.request_rate, 2.5);
  assert.deepEqual(fromScenario(sent, presets).workload, state.workload);
  // serving=server alone starts at one request per second; a rate without it is refused.
  assert.equal(fromHash(`${OLD_LINK}&serving=server`, presets).state.workload.request_rate, REQUEST_RATE_START);
  assert.match(fromHash(`${OLD_LINK}&request_rate=3`, presets).error, /"request_rate" is a setting of serving=server/);
  assert.match(fromHash(`${OLD_LINK}&serving=batching`, presets).error, /not one of static, concurrency, server, offline/);
  // Out of range stays as typed, for the engine to name the field; its errors go to its input.
  assert.equal(fromHash(`${OLD_LINK}&serving=server&request_rate=0`, presets).state.workload.request_rate, 0);
  assert.equal(fieldsForPath('workload.request_rate')[0], 'request_rate');
});

test('offline: a static batch to the engine, with the largest batch the engine\'s fit gives', () => {
  const hash = `${OLD_LINK}&serving=offline`;
  const { state, error } = fromHash(hash, presets);
  assert.equal(error, null);
  assert.equal(state.workload.serving, 'offline');
  assert.equal(toHash(state, presets), hash);
  const sent = toScenario(state);
  assert.equal('mode' in sent.workload, false, 'a static batch');
  assert.equal(matchingScenario(state, presets), 'llama2-70b-dgx-h100-tp8', 'the same scenario as the static preset, before the batch');
  // The fit answer of `envelope fit` (a made-up largest batch): the batch it gives.
  assert.equal(withOfflineBatch(sent, { ok: true, largest_batch: 97 }).workload.batch, 97);
  assert.equal(sent.workload.batch, 1, 'the scenario it started from is unchanged');
  assert.equal(withOfflineBatch(sent, { ok: true, largest_batch: 0 }), sent, 'none fits: the scenario as it is');
  assert.equal(withOfflineBatch(sent, { ok: false }), sent);
});

test('disaggregated pools: in the link and the scenario, with no top-level layout, and back', () => {
  const hash = `${OLD_LINK}&serving=concurrency&prefill_workers=2&prefill_tp=2&decode_workers=1&decode_tp=4&decode_dp=2`
    + '&decode_batch_per_rank=64&kv_transfer=layerwise';
  const { state, error } = fromHash(hash, presets);
  assert.equal(error, null);
  assert.deepEqual(state.workload.disaggregated, {
    prefill: { workers: 2, tp: 2, pp: 1, ep: 1, dp: 1 },
    decode: { workers: 1, tp: 4, pp: 1, ep: 1, dp: 2, batch_per_rank: 64 },
    kv_transfer: 'layerwise',
  });
  assert.equal(toHash(state, presets), hash);
  const sent = toScenario(state);
  assert.equal('parallelism' in sent, false, 'each pool has its own layout');
  assert.deepEqual(sent.disaggregated, {
    prefill: { workers: 2, parallelism: { tp: 2 } },
    decode: { workers: 1, parallelism: { tp: 4, dp: 2 }, batch_per_rank: 64 },
    kv_transfer: 'layerwise',
  });
  assert.equal(sent.workload.mode, 'concurrency');
  assert.deepEqual(fromScenario(sent, presets).workload, state.workload);
  // Turned on, it starts from one worker a pool, each with half the aggregated TP.
  assert.deepEqual(disaggregatedStart({ tp: 8 }), {
    prefill: { workers: 1, tp: 4, pp: 1, ep: 1, dp: 1 }, decode: { workers: 1, tp: 4, pp: 1, ep: 1, dp: 1, batch_per_rank: null }, kv_transfer: 'after_prefill',
  });
  assert.equal(disaggregatedStart({ tp: 1 }).prefill.tp, 1);
  // A pool's key without prefill_workers is refused and named; the rest of the link is kept.
  const stray = fromHash(`${OLD_LINK}&decode_tp=4`, presets);
  assert.match(stray.error, /"decode_tp" is a setting of disaggregated serving, which needs "prefill_workers"/);
  assert.equal(stray.state.workload.disaggregated, null);
  assert.match(fromHash(`${OLD_LINK}&prefill_workers=1&kv_transfer=later`, presets).error, /kv_transfer = "later" is not one of after_prefill, layerwise/);
  assert.match(fromHash('#mode=training&prefill_workers=1', presets).error, /"prefill_workers" is not a setting of training/);
  // The engine's errors find the pools' inputs.
  assert.equal(fieldsForPath('disaggregated.decode.parallelism.tp')[0], 'decode_tp');
  assert.equal(fieldsForPath('disaggregated.prefill.workers')[0], 'prefill_workers');
  assert.equal(fieldsForPath('disaggregated.prefill.parallelism.moe_tp')[0], 'prefill_tp');
  assert.equal(fieldsForPath('disaggregated')[0], 'disagg');
});

test('the curve the card asks for: the scenario\'s own, or for a request rate the closed loop with the rate\'s point', () => {
  const concurrency = toScenario(fromHash(`${OLD_LINK}&serving=concurrency`, presets).state);
  assert.deepEqual(curvePlan(concurrency), { curve: concurrency, mark: null });
  const server = toScenario(fromHash(`${OLD_LINK.replace("batch=1", "batch=64")}&serving=server&request_rate=5`, presets).state);
  const plan = curvePlan(server);
  assert.equal(plan.curve.workload.mode, 'concurrency');
  assert.equal('request_rate' in plan.curve.workload, false);
  assert.equal(plan.curve.workload.batch, 64);
  assert.deepEqual(plan.mark, { scenario: server, axis: 'batch', values: [64] });
  // The sweep's answer (as `envelope sweep --json` gives it for Llama-3-8B on one H100 at 5 requests/s).
  const answer = { ok: true, points: [{ value: 64, ok: true, fits: true, output_tokens_per_s_per_chip: 640, output_tokens_per_s_per_user: 219.6 }] };
  const mark = markOf(answer, '5 requests/s');
  assert.deepEqual(mark, { x: 219.6, y: 640, fits: true, label: '5 requests/s' });
  assert.equal(markOf({ ok: true, points: [{ ok: false }] }, 'x'), null);
  assert.equal(markOf(null, 'x'), null);
  // The chart marks that point instead of the curve's own batch.
  const point = (batch, chip, user) => ({ batch, output_tokens_per_s_per_chip: chip, output_tokens_per_s_per_user: user, ttft_s: 0.1, tpot_s: 1 / user, fits: true });
  const curve = { ok: true, batch: 64, points: [point(1, 10, 300), point(64, 900, 150)] };
  const { option } = curveOption(curve, { concurrency: true, mark });
  const own = option.series.find((s) => s.name === 'this scenario');
  assert.deepEqual(own.data.map((d) => d.value), [[219.6, 640]]);
  assert.equal(option.series.some((s) => s.name === 'this concurrency'), false);
  assert.match(curveDescription(curve, { concurrency: true, mark }), /This scenario \(5 requests\/s\) gives 640 tokens\/s per chip at 220 tokens\/s per user\./);
});

// Result fragments as `envelope eval` gives them (Llama-2-70B fp8 on a DGX H100, 64 clients,
// prefill TP 4 and decode TP 4; Llama-3-8B fp8 on one H100 at 5 requests/s).
const DISAGGREGATED = {
  scenario: { workload: { mode: 'concurrency', batch: 64 } },
  summary: { ttft_s: 2.2785, tpot_s: 0.013393 },
  disaggregated: {
    prefill: { workers: 1, chips: 4, ranks: 1, prompts_per_step: 4, step_s: 0.3543, load: 0.98, bound: 'compute' },
    decode: { workers: 1, chips: 4, ranks: 1, running_per_rank: 38, step_s: 0.013393, slot_use: 0.59375, bound: 'memory', slots_per_rank: 64 },
    kv_transfer: { bytes: 335544320, level: 'NVLink4 + NVSwitch', time_s: 0.00023, exposed_s: 0.00023, layerwise: false },
    binds: 'prefill', requests_per_s: 11.24,
    ttft_parts_s: { prefill_wait: 2.1765, prefill: 0.0951, kv_transfer: 0.00023, decode_join: 0.0067, slot_wait: 0 },
  },
};
const SERVER = {
  scenario: { workload: { mode: 'server', batch: 64, request_rate: 5 } },
  summary: { ttft_s: 0.0211, tpot_s: 0.00455 },
  open_loop: { offered_requests_per_s: 5, capacity_requests_per_s: 40.44, slots: 64, running_sequences: 2.994, prompt_load: 0.0734, queue_wait_s: 0.00058, saturated: false },
  phases: { prefill: { time_s: 1, ops: [{ bound: 'compute', total_time_s: 0.7 }, { bound: 'memory', total_time_s: 0.3 }] },
    decode: { time_s: 1, ops: [{ bound: 'compute', total_time_s: 0.2 }, { bound: 'memory', total_time_s: 0.5 }, { bound: 'network', total_time_s: 0.1 }] } },
};

test('the Serving card: the pools, the load, TTFT\'s parts, means without percentiles, what binds each phase', () => {
  const lines = Object.fromEntries(servingLines(DISAGGREGATED));
  assert.match(lines.Serving, /disaggregated: 64 clients/);
  assert.match(lines['Prefill pool'], /^1 worker, 4 chips, 1 rank · 4 prompts a step of 354\sms · queue load 98\.0%$/);
  assert.match(lines['Decode pool'], /38 running of 64 slots a rank/);
  assert.match(lines['Request rate'], /11\.2 requests\/s, set by the prefill pool/);
  const latency = Object.fromEntries(latencyLines(DISAGGREGATED));
  assert.match(latency.TTFT, /mean = prefill queue 2\.18\ss \+ prefill 95\.1\sms \+ KV move 230\sµs \+ joining decode 6\.7\sms$/);
  assert.match(latency.Percentiles, /not given: the engine reports means/);
  assert.deepEqual(boundLines(DISAGGREGATED), [['Prefill binds', 'Compute-bound'], ['Decode binds', 'Memory-bound']]);

  const server = Object.fromEntries(servingLines(SERVER));
  assert.match(server.Serving, /an offered 5 requests\/s \(an open loop\) of a capacity of 40\.4 requests\/s/);
  assert.match(server.Load, /2\.99 running of 64 slots a replica · prompt queue busy 7\.3% · mean wait 580\sµs$/);
  assert.match(Object.fromEntries(servingLines({ ...SERVER, open_loop: { ...SERVER.open_loop, saturated: true } })).Load, /saturated/);
  // An aggregated phase binds where its ops spend most of their time.
  assert.equal(phaseBound(SERVER.phases.prefill), 'compute');
  assert.equal(phaseBound(SERVER.phases.decode), 'memory');
  assert.equal(phaseBound({ ops: [] }), null);
  assert.deepEqual(boundLines(SERVER), [['Prefill binds', 'Compute-bound'], ['Decode binds', 'Memory-bound']]);

  const plain = { scenario: { workload: { batch: 97 } }, summary: {} };
  assert.match(Object.fromEntries(servingLines(plain)).Serving, /^a static batch of 97$/);
  assert.match(Object.fromEntries(servingLines(plain, { offline: true })).Serving, /^offline: a static batch of 97, the largest that fits$/);
  assert.match(Object.fromEntries(servingLines({ scenario: { workload: { mode: 'concurrency', batch: 8 } } })).Serving, /closed loop of 8 clients a replica/);
});

test('"How?" of an open loop or of pools: the engine\'s model in words, not a static batch\'s formula', () => {
  const result = (extra) => ({ ok: true, workload: 'inference', ...extra, memory: {} });
  const server = explain('ttft', result(SERVER));
  assert.equal(server.anchor, ANCHORS.server);
  assert.match(server.lines[0], /open loop at the offered rate: the M\/D\/1 wait for prefill/);
  const pools = explain('throughput', result({ ...DISAGGREGATED, phases: SERVER.phases }));
  assert.equal(pools.anchor, ANCHORS.disaggregated);
  assert.match(pools.lines[0], /prefill and decode pools/);
  assert.equal(pools.title, 'Output throughput');
});
