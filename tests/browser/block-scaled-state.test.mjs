// The page's number formats under Node (no browser, no build): the list the precision menus
// offer is the engine's own, and a link naming a block-scaled format (NVFP4, MXFP4, MXFP8)
// reads, writes back, and reaches the engine, which counts the scales in the weights' bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { loadPresets } from '../support/presets.mjs';
import { cli } from '../support/paths.mjs';
import { fromHash, toHash } from '../../web/js/state.js';
import { PRECISIONS, toScenario } from '../../web/js/scenario.js';

const presets = loadPresets();
const evaluate = (scenario) => {
  const r = spawnSync(cli, ['eval', '-'], { input: JSON.stringify(scenario), encoding: 'utf8' });
  return JSON.parse(r.stdout || r.stderr);
};

test('the precision menus offer exactly the formats the engine accepts', () => {
  const bad = spawnSync(cli, ['eval', '-'], {
    input: JSON.stringify({ model: 'llama-3.1-8b', system: { chip: 'b200', count: 1 },
      workload: { precision: 'bf17', batch: 1, input_tokens: 8, output_tokens: 8 } }),
    encoding: 'utf8',
  });
  const listed = (bad.stdout + bad.stderr).match(/must be one of ([^,]+(?:, "[^"]+")*), got/);
  assert.ok(listed, bad.stdout + bad.stderr);
  const engine = [...listed[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(PRECISIONS, engine);
});

test('a link with NVFP4 weights reads, writes back, and the engine stores 4.5 bits a weight', () => {
  const hash = '#model=llama-3.1-8b&system=dgx-b200&chips=1&tp=1&pp=1&batch=1&input=128&output=16&weights=nvfp4&kv_cache=bf16&activations=bf16&flash=on';
  const { state, error } = fromHash(hash, presets);
  assert.equal(error, null);
  assert.equal(state.workload.precision.weights, 'nvfp4');
  assert.equal(toHash(state, presets), hash);
  const scenario = toScenario(state);
  const nv = evaluate(scenario);
  assert.equal(nv.ok, true, JSON.stringify(nv.error));
  // 4 bits an element and one 8-bit scale per 16: 0.5625 B a parameter, against bf16's 2 B.
  const bf = evaluate({ ...scenario, workload: { ...scenario.workload, precision: { ...scenario.workload.precision, weights: 'bf16' } } });
  assert.ok(Math.abs(nv.memory.weights_bytes / bf.memory.weights_bytes - 0.5625 / 2) < 1e-12);
  assert.ok(Math.abs(nv.memory.weights_bytes - nv.summary.params * 0.5625) < 1);
});
