// importHf(config, name) in the wasm module under Node: byte for byte the document and the
// notes of `envelope import-hf`, errors as values for any argument, no leak per error.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cli, wasmDir } from '../support/paths.mjs';
import { llama31_8b, mixtral8x7b, qwen3_30b_a3b } from '../support/hf-configs.mjs';

let mod;
before(async () => {
  const { default: createEnvelope } = await import(path.join(wasmDir, 'envelope.mjs'));
  mod = await createEnvelope({ wasmBinary: fs.readFileSync(path.join(wasmDir, 'envelope.wasm')) });
});

const importHf = (config, name) => JSON.parse(mod.importHf(config, name));

test('the same document and notes as the CLI, for each config', () => {
  for (const [config, name] of [[llama31_8b, 'Llama-3.1-8B'], [mixtral8x7b, undefined], [qwen3_30b_a3b, null]]) {
    const text = JSON.stringify(config);
    const out = importHf(text, name);
    assert.equal(out.ok, true, JSON.stringify(out.error));
    const r = spawnSync(cli, ['import-hf', '-', ...(name ? ['--name', name] : [])], { input: text, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(out.model, JSON.parse(r.stdout));
    const notes = r.stderr.split('\n').filter((l) => l.startsWith('envelope import-hf: note: '))
      .map((l) => l.slice('envelope import-hf: note: '.length));
    assert.deepEqual(out.notes, notes);
    assert.match(out.version, /^\d+\.\d+\.\d+$/);
  }
});

test('parameter counts: Llama-3.1-8B and Mixtral as published, Qwen3-30B-A3B but its q/k norms', () => {
  assert.equal(importHf(JSON.stringify(llama31_8b)).params, 8030261248);
  const mixtral = importHf(JSON.stringify(mixtral8x7b));
  assert.equal(mixtral.params, 46702792704);
  assert.ok(Math.abs(mixtral.active_params / 12.88e9 - 1) < 0.005);
  // 30,532,122,624 in the checkpoint; q_norm and k_norm, 48 × 2 × 128, are noted, not counted.
  assert.equal(importHf(JSON.stringify(qwen3_30b_a3b)).params + 48 * 2 * 128, 30532122624);
});

test('the imported model evaluates inline in a scenario', () => {
  const { model } = importHf(JSON.stringify(mixtral8x7b), 'Mixtral from its config');
  const result = JSON.parse(mod.evaluate(JSON.stringify({
    model, system: 'dgx-h100', parallelism: { tp: 2, dp: 4, ep: 4 },
    workload: { batch: 16, input_tokens: 1024, output_tokens: 256, precision: 'bf16' },
  })));
  assert.equal(result.ok, true, JSON.stringify(result.error));
  assert.equal(result.scenario.model.name, 'Mixtral from its config');
});

test('errors are values: bad configs, bad arguments of any type', () => {
  let out = importHf(JSON.stringify({ ...llama31_8b, num_hidden_layers: undefined }));
  assert.deepEqual(out, { ok: false, error: { path: 'num_hidden_layers', message: 'is required' } });
  out = importHf(JSON.stringify({ ...mixtral8x7b, model_type: 't5' }));
  assert.equal(out.error.path, 'model_type');
  assert.match(out.error.message, /"t5" is not supported yet \(supported: llama, /);
  out = importHf('{"model_type": ');
  assert.equal(out.error.path, '');
  assert.match(out.error.message, /not valid JSON/);
  for (const arg of [llama31_8b, 42, null, undefined, true, [1], () => 1]) {
    out = importHf(arg, undefined);
    assert.equal(out.ok, false);
    assert.match(out.error.message, /importHf\(\) takes the config.json as text/);
  }
  for (const name of [42, {}, true]) {
    out = importHf(JSON.stringify(llama31_8b), name);
    assert.equal(out.ok, false);
    assert.match(out.error.message, /takes the name as a string/);
  }
});

test('1,000 bad configs leave the heap as it was', () => {
  const bad = ['{', '[1]', JSON.stringify({ ...mixtral8x7b, hidden_size: -1 }), JSON.stringify({ model_type: 't5' }),
    `${'['.repeat(3000)}${']'.repeat(3000)}`, JSON.stringify({ ...qwen3_30b_a3b, mlp_only_layers: [99] })];
  for (const text of bad) assert.equal(importHf(text).ok, false, text.slice(0, 80));
  importHf(JSON.stringify(llama31_8b));
  const heap = mod.heapInUse();
  for (let i = 0; i < 1000; i++) assert.equal(importHf(bad[i % bad.length]).ok, false);
  assert.equal(mod.heapInUse(), heap);
});
