// Tolerant, versioned links (pure): unknown, foreign, repeated or unreadable fields are left out
// and named; the rest of the link is kept; the page writes v=1 and reads links without it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPresets } from '../support/presets.mjs';
import { LINK_VERSION, defaultState, fromHash, toHash, toLink } from '../../web/js/state.js';

const presets = loadPresets();

const LINK = '#model=llama-3-8b&chip=h100-sxm&chips=2&tp=2&pp=1&batch=4&input=1000&output=100&precision=fp8&flash=on';

test('the page writes v=1 first, and a link with or without it reads the same', () => {
  assert.equal(LINK_VERSION, 1);
  const plain = fromHash(LINK, presets);
  assert.equal(plain.error, null);
  const link = toLink(plain.state, presets);
  assert.equal(link, `#v=1&${LINK.slice(1)}`);
  assert.deepEqual(fromHash(link, presets), plain);
  assert.equal(toHash(plain.state, presets), LINK);
});

test('an unknown field is ignored with a notice naming it; the other fields are kept', () => {
  const { state, error } = fromHash(`${LINK}&bogus=1&tpp=4`, presets);
  assert.match(error, /unknown setting "bogus"/);
  assert.match(error, /unknown setting "tpp"/);
  assert.match(error, /other settings are shown/);
  assert.deepEqual(state, fromHash(LINK, presets).state);
  assert.equal(state.workload.batch, 4);
  assert.equal(state.machine.preset, 'h100-sxm');
});

test('an unreadable value drops that field alone, with its reason', () => {
  const { state, error } = fromHash(LINK.replace('tp=2', 'tp=banana').replace('flash=on', 'flash=maybe'), presets);
  assert.match(error, /tp = "banana" is not a number/);
  assert.match(error, /flash = "maybe" should be on or off/);
  assert.equal(state.parallelism.tp, defaultState(presets).parallelism.tp);
  assert.equal(state.workload.flash_attention, defaultState(presets).workload.flash_attention);
  assert.equal(state.workload.input_tokens, 1000);
  assert.equal(state.workload.precision.weights, 'fp8');
});

test('a field of the other mode, a repeated field, an unknown model: each named, the rest kept', () => {
  const training = fromHash(`${LINK}&global_batch=64`, presets);
  assert.match(training.error, /"global_batch" is not a setting of inference/);
  assert.equal(training.state.workload.batch, 4);
  const twice = fromHash(`${LINK}&batch=9`, presets);
  assert.match(twice.error, /"batch" is given twice/);
  assert.equal(twice.state.workload.batch, 4);
  const model = fromHash(LINK.replace('llama-3-8b', 'llama-9-9b'), presets);
  assert.match(model.error, /no model preset "llama-9-9b"/);
  assert.equal(model.state.workload.batch, 4);
  const both = fromHash('#system=dgx-h100&chip=b200&batch=3', presets);
  assert.match(both.error, /both "system" and "chip"/);
  assert.equal(both.state.workload.batch, 3);
});

test('a link from a newer version is read as far as it goes, with a notice', () => {
  const { state, error } = fromHash(`#v=7&${LINK.slice(1)}&future_knob=3`, presets);
  assert.match(error, /newer version of Envelope \(link v7/);
  assert.match(error, /unknown setting "future_knob"/);
  assert.equal(state.workload.batch, 4);
  assert.match(fromHash(`#v=x&${LINK.slice(1)}`, presets).error, /v = "x" is not a number/);
});

test('out-of-range numbers are still kept for the engine to judge at the field', () => {
  const { state, error } = fromHash(`${LINK.replace('batch=4', 'batch=0')}&bogus=1`, presets);
  assert.match(error, /bogus/);
  assert.equal(state.workload.batch, 0);
});
