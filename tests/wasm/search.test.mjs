// search() and require() in the wasm module under Node: the same answers as `envelope search`
// and `envelope require`, errors as values for any argument.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cli, root, wasmDir } from '../support/paths.mjs';

let mod;
before(async () => {
  const { default: createEnvelope } = await import(path.join(wasmDir, 'envelope.mjs'));
  mod = await createEnvelope({ wasmBinary: fs.readFileSync(path.join(wasmDir, 'envelope.wasm')) });
});

const searchesDir = path.join(root, 'presets/searches');
const viaCli = (command, request) => {
  const r = spawnSync(cli, [command, '-'], { input: JSON.stringify(request), encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
};

test('search() gives what the CLI gives: a training search and the bundled serving search', () => {
  const training = {
    search: 'training',
    scenario: {
      model: 'llama-3-8b', system: { preset: 'dgx-h100', count: 16 },
      workload: { kind: 'training', seq_len: 4096, global_batch: 64, micro_batch: 1, precision: 'bf16' },
    },
    chips: [8, 16],
    top: 3,
  };
  const serving = JSON.parse(fs.readFileSync(path.join(searchesDir, 'serve-llama31-70b-16-h100.json'), 'utf8'));
  for (const request of [training, serving]) {
    const out = JSON.parse(mod.search(JSON.stringify(request)));
    assert.equal(out.ok, true, JSON.stringify(out.error));
    assert.deepEqual(out, viaCli('search', request));
  }
});

test('require() gives what the CLI gives', () => {
  const request = JSON.parse(fs.readFileSync(path.join(searchesDir, 'require-llama31-70b-h100-tpot.json'), 'utf8'));
  const out = JSON.parse(mod.require(JSON.stringify(request)));
  assert.equal(out.ok, true, JSON.stringify(out.error));
  assert.deepEqual(out, viaCli('require', request));
});

test('search() and require(): errors as values, naming the field; any argument', () => {
  const bad = JSON.parse(mod.search(JSON.stringify({ search: 'training', scenario: {}, space: { tp: [0] } })));
  assert.equal(bad.ok, false);
  assert.match(bad.error.path, /^scenario/);
  for (const f of [mod.search, mod.require]) {
    for (const arg of [undefined, null, 42, {}, [], '', '{', '{"search": 1}']) {
      const out = JSON.parse(f(arg));
      assert.equal(out.ok, false);
      assert.equal(typeof out.error.message, 'string');
    }
  }
  const e = JSON.parse(mod.search(JSON.stringify({ search: 'serving', scenario: JSON.parse(fs.readFileSync(
    path.join(searchesDir, 'serve-llama31-70b-16-h100.json'), 'utf8')).scenario, slo: { ttft_ms: -1 } })));
  assert.equal(e.error.path, 'slo.ttft_ms');
});
