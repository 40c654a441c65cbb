// The page's pure modules under Node: the URL hash round trip and the unit formatters.
// No browser and no build needed; presets come straight from presets/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPresets } from '../support/presets.mjs';
import { fromHash, toHash, defaultState } from '../../web/js/state.js';
import { fromScenario, toScenario, matchingScenario, scenarioText } from '../../web/js/scenario.js';
import * as fmt from '../../web/js/format.js';

const presets = loadPresets();

test('every scenario preset survives state -> hash -> state and is recognised', () => {
  for (const [key, doc] of Object.entries(presets.scenarios)) {
    const state = { ...fromScenario(doc, presets), view: defaultState(presets).view };
    const hash = toHash(state, presets);
    const back = fromHash(hash, presets);
    assert.equal(back.error, null, `${key}: ${back.error}`);
    assert.deepEqual(back.state, state, key);
    assert.equal(matchingScenario(back.state, presets), key);
  }
});

test('the scenario sent to the engine keeps what the preset says', () => {
  const s = toScenario(fromScenario(presets.scenarios['llama3-70b-mi300x-tp4'], presets));
  assert.deepEqual(s.system, { preset: 'mi300x-platform', count: 4 });
  assert.deepEqual(s.workload.precision, { weights: 'bf16', kv_cache: 'fp8', activations: 'bf16' });
  assert.deepEqual(s.parallelism, { tp: 4, pp: 1 });
  assert.equal(s.workload.parallelism, undefined);
  const d = toScenario(defaultState(presets));
  assert.equal(d.model, 'llama-2-70b');
  assert.equal(d.workload.precision, 'bf16');
});

test('edits, chips and view options round-trip; out-of-range numbers are kept for the engine to judge', () => {
  const hash = '#model=llama-3-8b&kv_heads=4&gated_ffn=off&chip=h100-sxm&chips=2&tp=3&pp=1&batch=0&input=1.5&output=7'
    + '&weights=int4&kv_cache=fp8&activations=bf16&flash=off&table=decode&split=op&decode=step';
  const { state, error } = fromHash(hash, presets);
  assert.equal(error, null);
  assert.deepEqual(state.model, { preset: 'llama-3-8b', edits: { kv_heads: 4, gated_ffn: false } });
  assert.deepEqual(state.machine, { kind: 'chip', preset: 'h100-sxm', count: 2, network: null });
  assert.equal(state.parallelism.tp, 3);
  assert.equal(state.workload.batch, 0);
  assert.equal(state.workload.input_tokens, 1.5);
  assert.equal(toHash(state, presets), hash);
});

test('a link of which nothing can be used is reported and gives the default scenario', () => {
  const fallback = defaultState(presets);
  // Each holds one bad field and nothing else: it is named, and the rest (none) is the default.
  for (const hash of ['#model=gpt-9', '#tp=banana', '#frobnicate=1', '#precision=bf17', '#flash=maybe', '#table=both',
    '#%E0%A4%A', '#pp=two', '#dp=', '#map=xp', '#coll=gossip',
    '#net0.frobnicate=1', '#net2.size=4', '#net0.topology=hypercube', '#net1.dims=4xfour', '#levels=many']) {
    const { state, error } = fromHash(hash, presets);
    assert.match(error ?? '', /ignored/, hash);
    assert.deepEqual(state, fallback, hash);
  }
  assert.deepEqual(fromHash('', presets), { state: fallback, error: null, pins: [] });
  // A system without a chip count takes the system's own count.
  assert.equal(fromHash('#system=dgx-a100', presets).state.machine.count, 8);
});

test('formatters pick units and never print NaN, undefined or Infinity', () => {
  assert.equal(fmt.time(0.0837), '83.7\u00a0ms');
  assert.equal(fmt.time(0.0009997), '1\u00a0ms');
  assert.equal(fmt.time(2.126), '2.13\u00a0s');
  assert.equal(fmt.time(3.4e-10), '0.34\u00a0ns');
  assert.equal(fmt.bytes(17246470144), '17.2\u00a0GB');
  assert.equal(fmt.si(42949672960), '42.9\u00a0G');
  assert.equal(fmt.si(12), '12');
  assert.equal(fmt.compact(24467.4), '24.5K');
  assert.equal(fmt.percent(0.1701), '17.0%');
  assert.equal(fmt.percent(0.00001), '<0.1%');
  assert.equal(fmt.intensity(100, 0), fmt.DASH);
  for (const bad of [NaN, Infinity, -Infinity, undefined, null, 'x']) {
    for (const f of [fmt.time, fmt.bytes, fmt.flops, fmt.si, fmt.num, fmt.int, fmt.compact, fmt.gb, fmt.percent]) {
      assert.equal(f(bad), fmt.DASH, `${f.name}(${String(bad)})`);
    }
  }
});

test('a number beyond double range in a link reaches the engine as a literal beyond range, not null', () => {
  // Before: #batch=1e400 became Infinity, JSON.stringify wrote null, and the engine said
  // "is required" instead of naming the allowed range.
  const { state, error } = fromHash('#model=llama-2-70b&system=dgx-h100&chips=8&tp=8&batch=1e400&input=-1e999&output=8&precision=bf16&flash=on', presets);
  assert.equal(error, null);
  assert.equal(state.workload.batch, Infinity);
  const text = scenarioText(toScenario(state));
  assert.match(text, /"batch":1e999,/);
  assert.match(text, /"input_tokens":-1e999,/);
  assert.doesNotMatch(text, /null/);
  // The hash keeps it out of range, and it still reads back.
  assert.match(toHash(state, presets), /batch=1e999&input=-1e999/);
  assert.equal(fromHash(toHash(state, presets), presets).state.workload.batch, Infinity);
  // A string that looks like the marker stays a string.
  assert.deepEqual(JSON.parse(scenarioText({ name: '~inf0~+', b: 2 })), { name: '~inf0~+', b: 2 });
  assert.equal(scenarioText({ name: '~inf0~+', b: Infinity }), '{"name":"~inf0~+","b":1e999}');
});
