// The page's pure modules for inference serving under Node: continuous batching, beam
// search, KV-cache offload and speculative decoding in the link and in the scenario sent to the engine (absent: the old
// defaults, so older links load unchanged), where their errors go, the "does it fit?"
// answer in words and its Apply, and the throughput–latency chart's option. No browser and
// no build needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPresets } from '../support/presets.mjs';
import { fromHash, toHash, defaultState } from '../../web/js/state.js';
import { fromScenario, matchingScenario, toScenario } from '../../web/js/scenario.js';
import { switchMode } from '../../web/js/training.js';
import { fitSummary, applyFewestChips, applyFormats } from '../../web/js/inference-fit.js';
import { fieldsForPath, placeEngineError } from '../../web/js/views/errors.js';
import { curveDescription, curveOption, currentPoint } from '../../web/js/views/curve-chart.js';

const presets = loadPresets();

const OLD_LINK = '#model=llama-2-70b&system=dgx-h100&chips=8&tp=8&pp=1&batch=1&input=2048&output=256&precision=bf16&flash=on';

test('a link without the serving keys is a static batch without speculation, and sends what it sent before', () => {
  const { state, error } = fromHash(OLD_LINK, presets);
  assert.equal(error, null);
  assert.equal(state.workload.serving, 'static');
  assert.equal(state.workload.speculative, null);
  assert.equal(state.workload.beams, 1);
  assert.equal(state.workload.kv_offload, 0);
  assert.equal(toHash(state, presets), OLD_LINK);
  const sent = toScenario(state);
  for (const key of ['mode', 'speculative', 'beams', 'kv_offload', 'prefix_cache_hit']) assert.equal(key in sent.workload, false, key);
  // The preset scenarios are still recognised as themselves.
  assert.equal(matchingScenario(state, presets), 'llama2-70b-dgx-h100-tp8');
  for (const [key, doc] of Object.entries(presets.scenarios)) {
    if ((doc.workload?.kind ?? 'inference') === 'inference') assert.equal(matchingScenario(fromScenario(doc, presets), presets), key, key);
  }
});

test('continuous batching and speculation round-trip through the link and reach the engine', () => {
  const hash = `${OLD_LINK}&serving=concurrency&draft_tokens=4&acceptance_rate=0.8&draft_model=llama-3.1-8b&split=bound`;
  const { state, error } = fromHash(hash, presets);
  assert.equal(error, null);
  assert.equal(state.workload.serving, 'concurrency');
  assert.deepEqual(state.workload.speculative, { draft_tokens: 4, acceptance_rate: 0.8, draft_model: 'llama-3.1-8b' });
  assert.equal(state.view.split, 'bound');
  assert.equal(toHash(state, presets), hash);
  const sent = toScenario(state);
  assert.equal(sent.workload.mode, 'concurrency');
  assert.deepEqual(sent.workload.speculative, { draft_tokens: 4, acceptance_rate: 0.8, draft_model: 'llama-3.1-8b' });
  assert.equal(matchingScenario(state, presets), null);
  // The scenario reads back as the same state; a one-layer head has no draft_model.
  assert.deepEqual(fromScenario(sent, presets).workload, state.workload);
  const head = fromHash(`${OLD_LINK}&draft_tokens=2&acceptance_rate=0.6`, presets).state;
  assert.deepEqual(toScenario(head).workload.speculative, { draft_tokens: 2, acceptance_rate: 0.6 });
  assert.match(toHash(head, presets), /&draft_tokens=2&acceptance_rate=0\.6$/);
  // A draft model given as {preset} reads as that preset.
  const doc = { ...sent, workload: { ...sent.workload, speculative: { draft_tokens: 3, acceptance_rate: 0.5, draft_model: { preset: 'llama-3-8b' } } } };
  assert.equal(fromScenario(doc, presets).workload.speculative.draft_model, 'llama-3-8b');
  // Out-of-range numbers stay as typed, for the engine to name the field.
  assert.equal(fromHash(`${OLD_LINK}&draft_tokens=100`, presets).state.workload.speculative.draft_tokens, 100);
});

test('beams and KV offload: in the link and the scenario only when not 1 and 0, read back as typed', () => {
  const hash = `${OLD_LINK}&prefix_cache_hit=0.25&beams=4&kv_offload=0.5&draft_tokens=2&acceptance_rate=0.6`;
  const { state, error } = fromHash(hash, presets);
  assert.equal(error, null);
  assert.equal(state.workload.beams, 4);
  assert.equal(state.workload.kv_offload, 0.5);
  assert.equal(toHash(state, presets), hash);
  const sent = toScenario(state);
  assert.equal(sent.workload.beams, 4);
  assert.equal(sent.workload.kv_offload, 0.5);
  assert.equal(matchingScenario(state, presets), null);
  assert.deepEqual(fromScenario(sent, presets).workload, state.workload);
  // The defaults written out in a link are the defaults: the link the page writes back leaves them out.
  const plain = fromHash(`${OLD_LINK}&beams=1&kv_offload=0`, presets).state;
  assert.equal(toHash(plain, presets), OLD_LINK);
  assert.equal(matchingScenario(plain, presets), 'llama2-70b-dgx-h100-tp8');
  // Out of range stays as typed, for the engine to name the field; a word is refused.
  assert.equal(fromHash(`${OLD_LINK}&beams=100`, presets).state.workload.beams, 100);
  assert.match(fromHash(`${OLD_LINK}&kv_offload=half`, presets).error, /kv_offload = "half" is not a number/);
  assert.match(fromHash('#mode=training&beams=4', presets).error, /"beams" is not a setting of training/);
  assert.match(fromHash('#mode=training&kv_offload=0.5', presets).error, /"kv_offload" is not a setting of training/);
  // Across a switch to training and back they stay.
  const back = switchMode(switchMode(state, 'training', { maxSeqLen: 4096 }), 'inference', { other: state, inference: defaultState(presets) });
  assert.equal(back.workload.beams, 4);
  assert.equal(back.workload.kv_offload, 0.5);
});

test('beams and KV offload errors at their inputs; a system without a host points at the KV offload', () => {
  assert.equal(fieldsForPath('workload.beams')[0], 'beams');
  assert.equal(fieldsForPath('workload.kv_offload')[0], 'kv_offload');
  const inference = (kv_offload) => ({ mode: 'inference', workload: { kv_offload } });
  const placed = placeEngineError({ path: 'system.host.link_gbps', message: 'm' }, inference(0.5));
  assert.equal(placed.path, 'workload.kv_offload');
  assert.match(placed.note, /preset describes its host, such as DGX H100/);
  assert.deepEqual(placeEngineError({ path: 'system.host.link_gbps', message: 'm' }, inference(0)), { path: 'system.host.link_gbps', note: null });
  // Training's host errors still go to its offload selects.
  const training = { mode: 'training', workload: { offload_optimizer: 'cpu', offload_parameters: 'none', kv_offload: 0.5 } };
  assert.equal(placeEngineError({ path: 'system.host.link_gbps', message: 'm' }, training).path, 'workload.offload.optimizer');
});

test('link fields that cannot be read say why and are ignored, the rest kept', () => {
  const cases = [
    [`${OLD_LINK}&acceptance_rate=0.5`, /speculative decoding, which needs "draft_tokens"/],
    [`${OLD_LINK}&draft_tokens=4&draft_model=no-such-model`, /no model preset "no-such-model"/],
    [`${OLD_LINK}&serving=batching`, /serving = "batching" is not one of static, concurrency/],
    [`${OLD_LINK}&draft_tokens=four`, /draft_tokens = "four" is not a number/],
    ['#mode=training&serving=concurrency', /"serving" is not a setting of training/],
    ['#mode=training&draft_tokens=4', /"draft_tokens" is not a setting of training/],
  ];
  for (const [hash, message] of cases) {
    const { state, error } = fromHash(hash, presets);
    assert.match(error ?? '', message, hash);
    const kept = fromHash(hash.startsWith(OLD_LINK) ? OLD_LINK : '#mode=training', presets).state;
    assert.deepEqual({ model: state.model, machine: state.machine, batch: state.workload.batch },
      { model: kept.model, machine: kept.machine, batch: kept.workload.batch }, hash);
  }
  assert.throws(() => fromScenario({ model: 'llama-3-8b', system: 'dgx-h100',
    workload: { kind: 'inference', batch: 1, speculative: { draft_tokens: 2, acceptance_rate: 0.5, draft_model: { preset: 'llama-3-8b', layers: 2 } } } }, presets),
  /draft model only as a preset/);
});

test('the serving settings stay across a switch to training and back', () => {
  const inference = fromHash(`${OLD_LINK}&serving=concurrency&draft_tokens=4&acceptance_rate=0.8`, presets).state;
  const training = switchMode(inference, 'training', { maxSeqLen: 4096 });
  assert.equal('serving' in training.workload, false);
  const back = switchMode(training, 'inference', { other: inference, inference: defaultState(presets) });
  assert.equal(back.workload.serving, 'concurrency');
  assert.deepEqual(back.workload.speculative, inference.workload.speculative);
});

test('engine errors of serving find their inputs', () => {
  assert.equal(fieldsForPath('workload.mode')[0], 'serving');
  assert.equal(fieldsForPath('workload.speculative')[0], 'spec');
  assert.equal(fieldsForPath('workload.speculative.draft_tokens')[0], 'draft_tokens');
  assert.equal(fieldsForPath('workload.speculative.acceptance_rate')[0], 'acceptance_rate');
  assert.equal(fieldsForPath('workload.speculative.draft_model')[0], 'draft_model');
  assert.equal(fieldsForPath('workload.speculative.draft_model.heads')[0], 'draft_model');
});

test('the fit answer in words, and its Apply', () => {
  // Answers as `envelope fit` gives them (DeepSeek-V3 in fp8 at batch 8: on an HGX H200,
  // on 8 and on 16 H100s, and Llama-3.1-405B in bf16 on 8 H100s at TP 1).
  const fits = { ok: true, fits: true, largest_batch: 611, longest_context: 195829, fewest_chips: { tp: 8, pp: 1, chips: 8 } };
  assert.deepEqual(fitSummary(fits), { fits: true, headline: 'Largest batch that fits: 611 · Longest context: 195,829 tokens', detail: null, fewest: null, formats: [] });
  assert.equal(fitSummary(fits, { concurrency: true }).headline, 'Largest concurrency that fits: 611 · Longest context: 195,829 tokens');
  const more = { ok: true, fits: false, largest_batch: 1, longest_context: 723, fewest_chips: { tp: 8, pp: 2, chips: 16 } };
  assert.deepEqual(fitSummary(more), {
    fits: false, headline: 'Fits on 16 chips (TP 8 × PP 2)', fewest: { tp: 8, pp: 2, chips: 16 },
    detail: 'At this layout it fits up to batch 1 at this context, or a context of 723 tokens at this batch.', formats: [],
  });
  const none = { ok: true, fits: false, largest_batch: 0, longest_context: 0, fewest_chips: null };
  assert.deepEqual(fitSummary(none), { fits: false, headline: 'Does not fit on this system', detail: null, fewest: null, formats: [] });
  // The engine's 8-bit options, in words; only one that fits gets applied.
  const narrow = { ...none, lower_precision: [
    { weights: 'bf16', kv_cache: 'fp8', fits: false, largest_batch: 0 },
    { weights: 'fp8', kv_cache: 'fp8', fits: true, largest_batch: 36 }] };
  assert.deepEqual(fitSummary(narrow, { concurrency: true }).formats, [
    { weights: 'bf16', kv_cache: 'fp8', fits: false, text: 'With an fp8 KV cache it still does not fit here.' },
    { weights: 'fp8', kv_cache: 'fp8', fits: true, text: 'With fp8 weights and KV cache it fits here (concurrency up to 36).' }]);
  const bf16 = fromHash('#model=llama-3.1-70b&chip=h100-sxm&chips=1&tp=1&batch=8&precision=bf16', presets).state;
  const options = fitSummary(narrow).formats;
  assert.equal(applyFormats(bf16, options[0]), null);
  assert.deepEqual(applyFormats(bf16, options[1]).workload.precision, { weights: 'fp8', kv_cache: 'fp8', activations: 'bf16' });
  assert.equal(bf16.workload.precision.weights, 'bf16', 'the state it started from is unchanged');
  assert.equal(fitSummary({ ok: false, error: { path: '', message: 'x' } }), null);

  const state = fromHash('#model=deepseek-v3&chip=h100-sxm&chips=16&tp=4&pp=1&dp=4&mb=2&batch=8', presets).state;
  const next = applyFewestChips(state, more.fewest_chips);
  assert.deepEqual(next.parallelism, { ...state.parallelism, tp: 8, pp: 2, dp: 1 });
  assert.equal(state.parallelism.tp, 4, 'the state it started from is unchanged');
  assert.match(toHash(next, presets), /&tp=8&pp=2&dp=1&mb=2&/);
  assert.equal(applyFewestChips(state, null), null);
});

// A small curve as engine.curve() returns it: batch 4 does not fit; the scenario's is 2.
const point = (batch, chip, user, fits) => ({ batch, output_tokens_per_s_per_chip: chip, output_tokens_per_s_per_user: user,
  ttft_s: 0.05 * batch, tpot_s: 1 / user, fits });
const curve = { ok: true, batch: 2, points: [point(1, 10, 100, true), point(2, 18, 90, true), point(4, 30, 75, false)] };

test('the throughput–latency chart: the fitting points as a line, the others grey, the scenario marked', () => {
  assert.equal(currentPoint(curve).batch, 2);
  const { option, height } = curveOption(curve, { width: 640 });
  assert.ok(height > 250);
  const series = Object.fromEntries(option.series.map((s) => [s.name, s]));
  assert.deepEqual(Object.keys(series), ['fits in memory', 'does not fit', 'this batch']);
  assert.deepEqual(series['fits in memory'].data.map((d) => d.value), [[100, 10], [90, 18]]);
  assert.deepEqual(series['does not fit'].data.map((d) => d.value), [[75, 30]]);
  assert.deepEqual(series['this batch'].data.map((d) => d.value), [[90, 18]]);
  assert.notEqual(series['does not fit'].itemStyle.color, series['fits in memory'].itemStyle.color);
  assert.equal(option.xAxis.name, 'output tokens/s per user (1 / TPOT)');
  assert.equal(option.yAxis.name, 'output tokens/s per chip');
  assert.equal(option.aria.label.description, curveDescription(curve));
  assert.match(curveDescription(curve), /3 values of the batch from 1 to 4\. Up to batch 2 fits in memory; the rest, in grey, does not\. This scenario's batch of 2 gives 18 tokens\/s per chip at 90 tokens\/s per user\./);
  // Under continuous batching the batch is the concurrency; a curve where nothing fits has no line.
  assert.equal(curveOption(curve, { concurrency: true }).option.series.at(-1).name, 'this concurrency');
  const over = { ...curve, points: curve.points.map((p) => ({ ...p, fits: false })) };
  assert.deepEqual(curveOption(over).option.series.map((s) => s.name), ['does not fit', 'this batch']);
  assert.match(curveDescription(over), /None of them fits in memory\./);
});

test('the prefill chunk: in the link and the scenario only when not 0, its errors at its field', () => {
  const hash = `${OLD_LINK}&prefill_chunk=512`;
  const { state, error } = fromHash(hash, presets);
  assert.equal(error, null);
  assert.equal(state.workload.prefill_chunk, 512);
  assert.equal(toHash(state, presets), hash);
  assert.equal(toScenario(state).workload.prefill_chunk, 512);
  assert.equal('prefill_chunk' in toScenario(fromHash(`${OLD_LINK}&prefill_chunk=0`, presets).state).workload, false);
  assert.equal(toHash(fromHash(`${OLD_LINK}&prefill_chunk=0`, presets).state, presets), OLD_LINK);
});
