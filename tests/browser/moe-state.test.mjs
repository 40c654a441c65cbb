// The page's pure modules for mixture-of-experts models under Node: the mixture fields and
// EP in the link and in the scenario sent to the engine, where their errors go, and the
// active parameters (pinned to a hand count of Mixtral 8x7B). No browser and no build needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPresets } from '../support/presets.mjs';
import { fromHash, toHash, defaultState } from '../../web/js/state.js';
import { architecture, fromScenario, modelFields, toScenario } from '../../web/js/scenario.js';
import { switchMode } from '../../web/js/training.js';
import { activeParams, flatModel, moeValue } from '../../web/js/moe.js';
import { fieldsForPath } from '../../web/js/views/errors.js';
import { STEP_PARTS, stepParts } from '../../web/js/views/breakdown-chart.js';

const presets = loadPresets();
const mixtral = presets.models['mixtral-8x7b'];

test('a mixture model shows its fields; a dense one does not', () => {
  assert.ok(mixtral, 'the Mixtral preset is missing');
  assert.ok(modelFields(mixtral).includes('experts'));
  assert.ok(modelFields(mixtral).includes('dense_layers'));
  assert.ok(!modelFields(presets.models['llama-2-70b']).includes('experts'));
  const state = { ...defaultState(presets), model: { preset: 'mixtral-8x7b', edits: {} } };
  const arch = architecture(state, presets);
  assert.deepEqual([arch.experts, arch.top_k, arch.expert_ffn, arch.shared_experts, arch.dense_layers], [8, 2, 14336, 0, 0]);
  assert.equal(architecture(defaultState(presets), presets).experts, undefined);
});

test('mixture edits and EP round-trip through the link and reach the engine nested under "moe"', () => {
  const hash = '#model=mixtral-8x7b&top_k=1&dense_layers=2&system=dgx-h100&chips=8&tp=2&pp=1&ep=4'
    + '&batch=32&input=1024&output=256&precision=bf16&flash=on&map=ep';
  const { state, error } = fromHash(hash, presets);
  assert.equal(error, null);
  assert.deepEqual(state.model, { preset: 'mixtral-8x7b', edits: { top_k: 1, dense_layers: 2 } });
  assert.equal(state.parallelism.ep, 4);
  assert.equal(state.view.map, 'ep');
  assert.equal(toHash(state, presets), hash);
  const sent = toScenario(state);
  assert.deepEqual(sent.model, { preset: 'mixtral-8x7b', moe: { top_k: 1 }, dense_layers: 2 });
  assert.deepEqual(sent.parallelism, { tp: 2, pp: 1, ep: 4 });

  // The preset's own values are no edits, and EP 1 is left out of the link and the scenario.
  const plain = fromHash('#model=mixtral-8x7b&experts=8&shared_experts=0&tp=2&ep=1', presets).state;
  assert.deepEqual(plain.model.edits, {});
  assert.doesNotMatch(toHash(plain, presets), /[&#](experts|shared_experts|ep)=/);
  assert.equal(toScenario(plain).model, 'mixtral-8x7b');
  assert.equal(toScenario(plain).parallelism.ep, undefined);

  // A scenario document with a mixture edit reads back as the same edits.
  const doc = { model: { preset: 'mixtral-8x7b', moe: { experts: 4, top_k: 2 } }, system: 'dgx-h100', parallelism: { tp: 2, ep: 2 },
    workload: { kind: 'inference', batch: 1 } };
  const read = fromScenario(doc, presets);
  assert.deepEqual(read.model.edits, { experts: 4 });
  assert.equal(read.parallelism.ep, 2);
});

test('a dense model refuses the mixture keys in a link', () => {
  for (const hash of ['#model=llama-2-70b&experts=8', '#top_k=2', '#model=llama-3-8b&dense_layers=1']) {
    const { state, error } = fromHash(hash, presets);
    assert.match(error ?? '', /mixture-of-experts setting.*no experts/, hash);
    // The mixture key is ignored; the link's model is kept, unedited.
    assert.equal(state.model.preset, hash.match(/model=([^&]+)/)?.[1] ?? defaultState(presets).model.preset, hash);
    assert.deepEqual(state.model.edits, {}, hash);
  }
  assert.throws(() => fromScenario({ model: { preset: 'llama-2-70b', moe: { experts: 8 } }, system: 'dgx-h100' }, presets), /no experts/);
});

test('EP stays across a switch to training and back, and training sends it', () => {
  const inference = fromHash('#model=mixtral-8x7b&system=dgx-h100&chips=16&tp=2&pp=1&ep=4', presets).state;
  const training = switchMode(inference, 'training', { maxSeqLen: mixtral.max_seq_len });
  assert.equal(training.parallelism.ep, 4);
  assert.equal(toScenario(training).parallelism.ep, 4);
  assert.match(toHash(training, presets), /&tp=2&pp=1&ep=4&/);
  const back = fromHash(toHash(training, presets), presets);
  assert.equal(back.error, null);
  assert.deepEqual(back.state, training);
  assert.equal(switchMode(training, 'inference', { inference: defaultState(presets) }).parallelism.ep, 4);
});

test('engine errors at the mixture fields and at EP find their inputs', () => {
  assert.equal(fieldsForPath('parallelism.ep')[0], 'ep');
  assert.equal(fieldsForPath('model.moe.experts')[0], 'arch-experts');
  assert.equal(fieldsForPath('model.moe.top_k')[0], 'arch-top_k');
  assert.equal(fieldsForPath('model.moe.expert_ffn')[0], 'arch-expert_ffn');
  assert.equal(fieldsForPath('model.moe.shared_experts')[0], 'arch-shared_experts');
  assert.equal(fieldsForPath('model.dense_layers')[0], 'arch-dense_layers');
  assert.equal(fieldsForPath('model.moe')[0], 'arch-experts');
});

test('active parameters of Mixtral 8x7B: 12.9B of 46.7B (hand count)', () => {
  // One expert: gate and up (4096 × 2·14336) and down (14336 × 4096) = 3 · 4096 · 14336
  // = 176,160,768; 8 per layer, 32 layers: 45,097,156,608. Of each layer's 8 experts a
  // token runs 2, so 6/8 of them idle: 33,822,867,456. The engine's total is
  // 46,702,792,704 (Jiang et al. 2024: 47B, 13B active).
  const total = 46702792704;
  const model = { ...mixtral };
  assert.equal(activeParams(model, total), 46702792704 - 33822867456);
  assert.equal(activeParams(model, total), 12879925248);
  assert.equal(activeParams(presets.models['llama-2-70b'], 68976648192), null, 'a dense model has no "active"');

  // Dense layers first: the engine writes layer groups; only the mixture group counts.
  const { layers, moe, ...layer } = mixtral;
  const grouped = { name: mixtral.name, hidden: 4096, layer_groups: [{ ...layer, count: 2 }, { ...layer, moe, count: 30 }] };
  assert.equal(activeParams(grouped, 1e11), 1e11 - 30 * 8 * 176160768 * 0.75);
  const flat = flatModel(grouped);
  assert.equal(flat.layers, 32);
  assert.equal(moeValue(flat, 'dense_layers'), 2);
  assert.equal(moeValue(flat, 'experts'), 8);
});

test('the training breakdown has the experts\' all-to-alls as their own part', () => {
  assert.equal(STEP_PARTS.ep_s[0], 'Expert all-to-alls');
  const summary = { step_time_s: 3, breakdown: { compute_s: 2.5, ep_s: 0.25, tp_s: 0.25 } };
  assert.deepEqual(stepParts(summary, { recompute: 'none' }).map((p) => p.key), ['compute_s', 'tp_s', 'ep_s']);
});
