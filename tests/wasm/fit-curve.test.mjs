// fit(scenario) and curve(scenario) in the wasm module under Node: the same answers as
// `envelope fit` and `envelope curve`, errors as values for any argument, the curve's shape.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cli, wasmDir } from '../support/paths.mjs';

let mod;
before(async () => {
  const { default: createEnvelope } = await import(path.join(wasmDir, 'envelope.mjs'));
  mod = await createEnvelope({ wasmBinary: fs.readFileSync(path.join(wasmDir, 'envelope.wasm')) });
});

const scenario = {
  model: 'llama-3.1-70b', system: { preset: 'dgx-h100' }, parallelism: { tp: 8 },
  workload: { batch: 16, input_tokens: 2000, output_tokens: 500, precision: 'fp8' },
};

const viaCli = (command, doc) => {
  const r = spawnSync(cli, [command, '-'], { input: JSON.stringify(doc), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
};

test('fit() and curve() give what the CLI gives', () => {
  for (const name of ['fit', 'curve']) {
    const out = JSON.parse(mod[name](JSON.stringify(scenario)));
    assert.equal(out.ok, true, JSON.stringify(out.error));
    assert.deepEqual(out, viaCli(name, scenario));
  }
});

test('the curve climbs in tokens per chip and falls in tokens per user, through the chosen batch', () => {
  const { points, batch } = JSON.parse(mod.curve(JSON.stringify(scenario)));
  assert.ok(points.length >= 32 && points.length <= 65, `${points.length} points`);
  assert.ok(points.some((p) => p.batch === batch));
  for (let i = 1; i < points.length; i++) {
    assert.ok(points[i].batch > points[i - 1].batch);
    assert.ok(points[i].output_tokens_per_s_per_chip >= points[i - 1].output_tokens_per_s_per_chip);
  }
});

test('does it fit: the 70B model in bf16 (141 GB of weights) needs two H100s', () => {
  const bf16 = { ...scenario, parallelism: { tp: 1, dp: 1 }, workload: { ...scenario.workload, precision: 'bf16' } };
  const out = JSON.parse(mod.fit(JSON.stringify(bf16)));
  assert.equal(out.fits, false);
  assert.deepEqual(out.fewest_chips, { tp: 2, pp: 1, chips: 2 });
});

test('errors are values for any argument, and a training scenario is refused at workload.kind', () => {
  for (const name of ['fit', 'curve']) {
    for (const bad of [null, undefined, 42, {}, '{', '[]']) {
      const out = JSON.parse(mod[name](bad));
      assert.equal(out.ok, false, `${name}(${String(bad)})`);
      assert.equal(typeof out.error.message, 'string');
    }
    const training = { model: 'llama-3-8b', system: 'dgx-h100',
      workload: { kind: 'training', seq_len: 1024, global_batch: 8, micro_batch: 1, precision: 'bf16' } };
    assert.equal(JSON.parse(mod[name](JSON.stringify(training))).error.path, 'workload.kind');
  }
});
