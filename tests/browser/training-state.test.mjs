// The page's pure modules for training under Node: training settings in the link, the
// scenario they send, the mode switch, the pipeline schedule simulation (checked against
// hand-worked schedules and Narayanan et al. 2021's bubble formulas) and the step parts.
// No browser and no build needed; presets come straight from presets/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPresets } from '../support/presets.mjs';
import { fromHash, toHash, defaultState } from '../../web/js/state.js';
import { fromScenario, toScenario, matchingScenario } from '../../web/js/scenario.js';
import { switchMode, trainingPrecisions } from '../../web/js/training.js';
import { simulate, stageOrder, stageTimes, timelineOf } from '../../web/js/views/pipeline-schedule.js';
import { stepParts } from '../../web/js/views/breakdown-chart.js';
import { fieldsForPath } from '../../web/js/views/errors.js';

const presets = loadPresets();
const trainingPresets = Object.entries(presets.scenarios).filter(([, doc]) => doc.workload?.kind === 'training');

test('training presets become training states whose link and scenario keep what the preset says', () => {
  assert.ok(trainingPresets.length > 0, 'no training scenario presets');
  for (const [key, doc] of trainingPresets) {
    const state = { ...fromScenario(doc, presets), view: defaultState(presets).view };
    assert.equal(state.mode, 'training', key);
    const hash = toHash(state, presets);
    assert.match(hash, /^#mode=training&model=/, key);
    assert.doesNotMatch(hash, /[&#](batch|input|output|mb|engine|weights)=/, key);
    const back = fromHash(hash, presets);
    assert.equal(back.error, null, `${key}: ${back.error}`);
    assert.deepEqual(back.state, state, key);
    assert.equal(matchingScenario(back.state, presets), key);

    // Every field the preset gives reaches the engine unchanged.
    const sent = toScenario(state);
    assert.equal(sent.workload.kind, 'training');
    for (const [field, value] of Object.entries(doc.parallelism)) assert.deepEqual(sent.parallelism[field], value, `${key}: ${field}`);
    for (const [field, value] of Object.entries(doc.workload)) {
      if (field !== 'train_tokens' || value > 0) assert.deepEqual(sent.workload[field], value, `${key}: ${field}`);
    }
    assert.equal(sent.parallelism.micro_batches, undefined, 'training derives the micro-batches');
    assert.equal(sent.engine, undefined);
  }
});

test('a training link: every setting round-trips, the framework options only when changed', () => {
  const hash = '#mode=training&model=llama-3-8b&chip=h100-sxm&chips=16&tp=2&pp=2&dp=4&sp=on&cp=1&zero=3'
    + '&schedule=interleaved_1f1b&vs=4&seq=2048&global_batch=96&micro_batch=3&recompute=selective&precision=fp8'
    + '&flash=off&dropout=on&overlap_grad=off&tp_overlap=on&tokens=1e12&table=backward&map=cp';
  const { state, error } = fromHash(hash, presets);
  assert.equal(error, null);
  assert.equal(state.mode, 'training');
  assert.deepEqual(state.parallelism, { tp: 2, pp: 2, ep: 1, dp: 4, sp: true, cp: 1, zero: 3, schedule: 'interleaved_1f1b', virtual_stages: 4 });
  assert.deepEqual(state.workload, {
    seq_len: 2048, global_batch: 96, micro_batch: 3, recompute: 'selective', precision: 'fp8', flash_attention: false,
    dropout: true, overlap_grad_reduce: false, overlap_param_gather: true, tp_comm_overlap: true, train_tokens: 1e12,
    offload_optimizer: 'none', offload_parameters: 'none', framework: 'current', // not in the link: the default
  });
  assert.equal(toHash(state, presets), hash.replace('tokens=1e12', 'tokens=1000000000000'));
  assert.equal(state.view.table, 'backward');
});

test('the training framework: absent is current practice and sends none; a named one round-trips to the scenario top level', () => {
  const base = '#mode=training&model=llama-3-8b&chip=h100-sxm&chips=8&tp=1&pp=1&dp=8&sp=off&cp=1&zero=3'
    + '&schedule=1f1b&vs=1&seq=4096&global_batch=64&micro_batch=1&recompute=none&precision=bf16&flash=on&dropout=off';
  const plain = fromHash(base, presets);
  assert.equal(plain.error, null);
  assert.equal(plain.state.workload.framework, 'current');
  assert.equal('framework' in toScenario(plain.state), false, 'no framework named: the engine takes current practice');
  assert.equal(toHash(plain.state, presets), base);
  for (const key of Object.keys(presets.frameworks).filter((k) => k !== 'current')) {
    const { state, error } = fromHash(`${base}&framework=${key}`, presets);
    assert.equal(error, null, key);
    assert.equal(state.workload.framework, key);
    const sent = toScenario(state);
    assert.equal(sent.framework, key, 'the scenario\'s top-level framework');
    assert.equal('framework' in sent.workload, false);
    assert.equal(toHash(state, presets), `${base}&framework=${key}`);
    assert.equal(fromScenario(sent, presets).workload.framework, key, 'the scenario reads back');
  }
  // An unknown framework is left out with a notice; a framework is no setting of inference.
  const bad = fromHash(`${base}&framework=jax`, presets);
  assert.match(bad.error, /framework = "jax" is not one of current/);
  assert.equal(bad.state.mode, 'training', 'the rest of the link is kept');
  assert.equal(bad.state.workload.framework, 'current');
  assert.match(fromHash('#model=llama-2-70b&framework=deepspeed', presets).error, /"framework" is not a setting of inference/);
});

test('each mode refuses the other mode\'s settings; links without a mode are inference', () => {
  for (const hash of ['#mode=training&batch=4', '#mode=training&engine=default', '#mode=training&weights=bf16',
    '#cp=2', '#tp=8&seq=4096', '#schedule=1f1b', '#mode=flying', '#mode=training&schedule=zigzag', '#mode=training&zero=one']) {
    const { error } = fromHash(hash, presets);
    assert.match(error ?? '', /ignored/, hash);
  }
  assert.equal(fromHash('#model=llama-2-70b&tp=8', presets).state.mode, 'inference');
  assert.equal(fromHash('#mode=inference&batch=2', presets).state.workload.batch, 2);
  // A training link with only a few keys takes the rest from the defaults.
  const { state } = fromHash('#mode=training&global_batch=64', presets);
  assert.equal(state.workload.global_batch, 64);
  assert.equal(state.parallelism.tp, defaultState(presets).parallelism.tp);
  assert.equal(state.parallelism.schedule, '1f1b');
});

test('switching modes keeps the model, machine and TP/PP/DP, and switching back restores the mode', () => {
  const inference = { ...defaultState(presets), parallelism: { tp: 4, pp: 2, ep: 1, dp: null, micro_batches: 3 } };
  const gpt3 = { ...inference, model: { preset: 'gpt-3-175b', edits: {} } };
  const training = switchMode(gpt3, 'training', { maxSeqLen: presets.models['gpt-3-175b'].max_seq_len });
  assert.equal(training.mode, 'training');
  assert.deepEqual(training.machine, gpt3.machine);
  assert.deepEqual(training.parallelism, { tp: 4, pp: 2, ep: 1, dp: null, sp: false, cp: 1, zero: 0, schedule: '1f1b', virtual_stages: 1 });
  assert.equal(training.workload.seq_len, 2048, 'not beyond the model\'s context');
  assert.equal(toScenario(training).workload.kind, 'training');

  const back = switchMode(training, 'inference', { other: { parallelism: gpt3.parallelism, workload: gpt3.workload, engine: gpt3.engine } });
  assert.deepEqual(back, gpt3);
  assert.equal(toHash(back, presets), toHash(gpt3, presets));
});

test('the training precision choices are the chip\'s formats', () => {
  assert.deepEqual(trainingPrecisions({ kind: 'system', preset: 'dgx-a100' }, presets), ['bf16', 'fp16']);
  assert.deepEqual(trainingPrecisions({ kind: 'chip', preset: 'h100-sxm' }, presets), ['bf16', 'fp16', 'fp8']);
  assert.deepEqual(trainingPrecisions({ kind: 'chip', preset: 'gaudi2' }, presets), ['bf16', 'fp8']);
});

const balanced = (schedule, p, v, m, f = 1, b = 2) =>
  simulate({ schedule, stages: p, virtualStages: v, microBatches: m, forward: new Array(p).fill(f), backward: new Array(p).fill(b) });

test('schedule orders, written out by hand', () => {
  const text = (order) => order.map((x) => `${x.pass}${x.mb}${x.chunk ? `.${x.chunk}` : ''}`).join(' ');
  // 1F1B, 4 stages, 6 micro-batches: stage 0 warms up with 3 forwards, the last stage with none.
  assert.equal(text(stageOrder('1f1b', 4, 1, 6, 0)), 'F0 F1 F2 F3 B0 F4 B1 F5 B2 B3 B4 B5');
  assert.equal(text(stageOrder('1f1b', 4, 1, 6, 3)), 'F0 B0 F1 B1 F2 B2 F3 B3 F4 B4 F5 B5');
  assert.equal(text(stageOrder('gpipe', 2, 1, 3, 1)), 'F0 F1 F2 B0 B1 B2');
  // Interleaved, 2 stages × 2 chunks, 4 micro-batches: groups of 2, chunk 0 then chunk 1;
  // stage 1 warms up with (2 − 1 − 1)·2 + (2 − 1)·2 = 2 forwards.
  assert.equal(text(stageOrder('interleaved_1f1b', 2, 2, 4, 1)), 'F0 F1 F0.1 B0.1 F1.1 B1.1 F2 B0 F3 B1 F2.1 B2.1 F3.1 B3.1 B2 B3');
});

test('simulated steps match the bubble formulas of Narayanan et al. 2021 §2.2 (F = 1, B = 2)', () => {
  // GPipe and 1F1B: (m + p − 1)·(F + B); the bubble (p − 1)·(F + B) on every stage.
  assert.equal(balanced('1f1b', 4, 1, 8).end, 33);
  assert.equal(balanced('gpipe', 4, 1, 8).end, 33);
  assert.equal(balanced('1f1b', 1, 1, 5).end, 15);
  assert.equal(balanced('1f1b', 4, 1, 2).end, 15, 'fewer micro-batches than stages');
  // Interleaved with v chunks: m·(F + B) + (p − 1)·(F + B)/v.
  assert.equal(balanced('interleaved_1f1b', 4, 2, 8).end, 28.5);
  assert.ok(Math.abs(balanced('interleaved_1f1b', 8, 3, 96).end - 295) < 1e-9);
  // Every block once, no stage running two at a time, a backward after its forward.
  const sim = balanced('1f1b', 4, 1, 8);
  for (const blocks of sim.stages) {
    assert.equal(blocks.length, 16);
    for (let i = 1; i < blocks.length; i++) assert.ok(blocks[i].start >= blocks[i - 1].end - 1e-12);
  }
  // Stage 0 of 1F1B is idle 3 × (1 + 2) = 9 of the 33.
  const busy = sim.stages[0].reduce((t, b) => t + b.end - b.start, 0);
  assert.equal(sim.end - busy, 9);
});

// A result with the shape the engine returns: each stage's ops summed over m micro-batches.
function fakeResult(schedule, p, v, m, f = 1, b = 2) {
  const ops = (t) => Array.from({ length: p }, (_, stage) => [{ stage, total_time_s: (t * m) / 2 }, { stage, total_time_s: (t * m) / 2 }]).flat();
  return {
    pipeline: { stages: p, virtual_stages: v, micro_batches: m, micro_batch: 1, schedule },
    phases: { forward: { ops: ops(f) }, backward: { ops: ops(b) } },
  };
}

test('the timeline: per-stage times from the ops, and long steps drawn with the middle left out', () => {
  assert.deepEqual(stageTimes(fakeResult('1f1b', 2, 1, 10, 0.5, 1.5)), { forward: [0.5, 0.5], backward: [1.5, 1.5] });
  const short = timelineOf(fakeResult('1f1b', 4, 1, 32));
  assert.equal(short.cuts.length, 0);
  assert.equal(short.end, 35 * 3);
  assert.equal(short.stages.length, 4);
  // 384 micro-batches: fewer simulated, the rest added at the slowest stage's pace.
  const long = timelineOf(fakeResult('1f1b', 4, 1, 384));
  assert.equal(long.end, (384 + 3) * 3);
  assert.equal(long.cuts.length, 1);
  assert.ok(long.cuts[0].from > 0 && long.cuts[0].to < long.end);
  const lastShown = long.stages[0].at(-1);
  assert.equal(long.relabel(lastShown.mb), 383);
  // GPipe has two steady middles: its forwards and its backwards.
  assert.equal(timelineOf(fakeResult('gpipe', 8, 1, 100)).cuts.length, 2);
  // Interleaving with m not a multiple of p still draws every block.
  const odd = timelineOf(fakeResult('interleaved_1f1b', 4, 3, 5));
  assert.equal(odd.stages[0].length, 2 * 5 * 3);
});

test('step parts: only those that take time, in order, sharing the step', () => {
  const summary = { step_time_s: 10, breakdown: { compute_s: 7, tp_s: 1, cp_s: 0, pp_s: 0, zero3_s: 0, bubble_s: 1.5, dp_s: 0.25, optimizer_s: 0.25 } };
  const parts = stepParts(summary);
  assert.deepEqual(parts.map((p) => p.key), ['compute_s', 'tp_s', 'bubble_s', 'dp_s', 'optimizer_s']);
  assert.equal(parts.reduce((s, p) => s + p.share, 0), 1);
});

test('engine errors of training fields find their field, in either mode', () => {
  assert.deepEqual(fieldsForPath('workload.precision'), ['weights', 'train_precision']);
  assert.deepEqual(fieldsForPath('workload.global_batch'), ['global_batch']);
  assert.deepEqual(fieldsForPath('parallelism.cp'), ['cp', 'chips']);
  for (const f of ['seq_len', 'micro_batch', 'recompute', 'train_tokens']) assert.equal(fieldsForPath(`workload.${f}`)[0], f);
  for (const f of ['sp', 'zero', 'schedule', 'virtual_stages']) assert.equal(fieldsForPath(`parallelism.${f}`)[0], f);
});

test('a pipeline too deep to draw gives no timeline rather than a slow page', () => {
  assert.equal(timelineOf(fakeResult('1f1b', 500, 1, 2000)), null);
  assert.notEqual(timelineOf(fakeResult('1f1b', 64, 1, 2000)), null);
});
