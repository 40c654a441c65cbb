// sweep(request) in the wasm module under Node: the same answer as `envelope sweep --json`,
// each point the module's own evaluate() of the scenario with that field changed, errors as
// values for any argument.
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
const sweep = (request) => JSON.parse(mod.sweep(typeof request === 'string' ? request : JSON.stringify(request)));

test('sweep() gives what the CLI gives, and each point is evaluate() of that scenario', () => {
  const request = { scenario, axis: 'input_tokens', values: [128, 1000, 8000, 64000] };
  const out = sweep(request);
  assert.equal(out.ok, true, JSON.stringify(out.error));
  const r = spawnSync(cli, ['sweep', '-', '--json'], { input: JSON.stringify(request), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(out, JSON.parse(r.stdout));
  for (const p of out.points) {
    const alone = JSON.parse(mod.evaluate(JSON.stringify({ ...scenario, workload: { ...scenario.workload, input_tokens: p.value } })));
    assert.equal(p.ttft_s, alone.summary.ttft_s);
    assert.equal(p.e2e_latency_s, alone.summary.e2e_latency_s);
    assert.equal(p.memory_bytes, alone.memory.total_bytes);
  }
});

test('64 batches in one call: throughput per chip grows, the own batch is marked, nothing dropped', () => {
  const values = Array.from({ length: 64 }, (_, i) => 8 * (i + 1));
  const out = sweep({ scenario, axis: 'batch', values });
  assert.equal(out.points.length, 64);
  assert.equal(out.current, 16);
  assert.ok(out.points.some((p) => p.value === out.current));
  for (let i = 1; i < 64; i++) {
    assert.ok(out.points[i].output_tokens_per_s_per_chip > out.points[i - 1].output_tokens_per_s_per_chip);
    assert.ok(out.points[i].memory_bytes > out.points[i - 1].memory_bytes);
  }
  const heap = mod.heapInUse();
  for (let i = 0; i < 20; i++) sweep({ scenario, axis: 'batch', values });
  assert.ok(mod.heapInUse() - heap < 1 << 20, 'sweeps do not leak');
});

test('errors are values for any argument; a bad request names its field', () => {
  for (const bad of [null, undefined, 42, {}, '{', '[]']) {
    const out = JSON.parse(mod.sweep(bad));
    assert.equal(out.ok, false, String(bad));
    assert.equal(typeof out.error.message, 'string');
  }
  assert.equal(sweep({ scenario, axis: 'batch', values: [1, -2] }).error.path, 'values[1]');
  assert.equal(sweep({ scenario, axis: 'batch', values: Array.from({ length: 129 }, (_, i) => i + 1) }).error.path, 'values');
  assert.equal(sweep({ scenario, axis: 'context', values: [1] }).error.path, 'axis');
  const training = { model: 'llama-3-8b', system: 'dgx-h100',
    workload: { kind: 'training', seq_len: 1024, global_batch: 8, micro_batch: 1, precision: 'bf16' } };
  assert.equal(sweep({ scenario: training, axis: 'batch', values: [1] }).error.path, 'scenario.workload.kind');
});
