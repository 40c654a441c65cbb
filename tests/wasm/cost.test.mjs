// Cost and energy in the wasm module under Node: tradeoff() and packageCost() answer as the
// CLI does, every result carries its cost section, and bad arguments come back as errors.
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

const pkg = {
  kind: 'si_interposer',
  dies: [{ name: 'logic', area_mm2: 800, node: '5nm-actuary-2022' }],
  hbm: { stacks: 4, usd_per_stack: 300, area_mm2: 110 },
};
const scenario = {
  model: 'llama-3.1-8b', system: { chip: 'h100-sxm', count: 1 },
  workload: { precision: 'bf16', batch: 8, input_tokens: 512, output_tokens: 512 },
  cost: { pricing: 'owned', package: pkg },
};
const request = { scenario, knobs: [{ knob: 'hbm_stacks', values: [2, 4, 6] }, { knob: 'chiplets', values: [1, 2] }] };

const viaCli = (command, doc) => {
  const r = spawnSync(cli, [command, '-'], { input: JSON.stringify(doc), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
};

test('tradeoff() and packageCost() give what the CLI gives', () => {
  const t = JSON.parse(mod.tradeoff(JSON.stringify(request)));
  assert.equal(t.ok, true, JSON.stringify(t.error));
  assert.deepEqual(t, viaCli('tradeoff', request));
  assert.equal(t.points.length, 6);
  assert.ok(t.points.some((p) => p.pareto));
  const c = JSON.parse(mod.packageCost(JSON.stringify(pkg)));
  assert.equal(c.ok, true, JSON.stringify(c.error));
  assert.deepEqual(c, viaCli('package-cost', pkg));
  assert.equal(c.total_usd, t.base_package_usd);
});

test('every evaluation carries a cost section whose parts add up', () => {
  const r = JSON.parse(mod.evaluate(JSON.stringify({ ...scenario, cost: { usd_per_chip_hour: 2 } })));
  assert.equal(r.ok, true);
  assert.equal(r.cost.pricing, 'cloud');
  assert.equal(r.cost.usd_per_chip_hour, 2);
  // $2 per chip-hour over the request's end-to-end latency, one chip, 8 requests per batch
  assert.ok(Math.abs(r.cost.usd_per_request - (2 / 3600) * r.summary.e2e_latency_s / 8) < 1e-12);
  const p = r.cost.power_w_per_chip;
  assert.ok(Math.abs(p.it - (p.chip + p.system + p.network)) < 1e-9);
  assert.ok(Array.isArray(r.cost.assumptions) && r.cost.assumptions.length > 0);
});

test('bad arguments are errors as values', () => {
  for (const fn of ['tradeoff', 'packageCost']) {
    for (const arg of [undefined, null, 42, {}, '', '{', '[]']) {
      const out = JSON.parse(mod[fn](arg));
      assert.equal(out.ok, false, `${fn}(${String(arg)})`);
      assert.equal(typeof out.error.message, 'string');
    }
  }
  const bad = JSON.parse(mod.packageCost(JSON.stringify({ ...pkg, dies: [{ area_mm2: -1, node: '5nm-actuary-2022' }] })));
  assert.equal(bad.error.path, 'dies[0].area_mm2');
});
