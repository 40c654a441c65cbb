// `envelope search FILE`: a configuration search, JSON in and JSON out. Each bundled request
// in presets/searches/ runs; a candidate it returns is the scenario with its settings, as
// `envelope eval` gives it; bad fields exit 2 naming the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cli, root } from '../support/paths.mjs';

const run = (args, input) => spawnSync(cli, args, { input, encoding: 'utf8', maxBuffer: 64 << 20 });
const searchesDir = path.join(root, 'presets/searches');

// A deep merge of the point's settings into the request's scenario: the candidate.
const withSettings = (scenario, settings) => {
  const out = structuredClone(scenario);
  for (const [part, fields] of Object.entries(settings)) {
    out[part] = { ...(out[part] ?? {}) };
    for (const [k, v] of Object.entries(fields)) {
      const old = out[part][k];
      out[part][k] = typeof v === 'object' && v !== null && typeof old === 'object' ? { ...old, ...v } : v;
    }
  }
  return out;
};

test('every search request in presets/searches runs, and counts add up to the space', () => {
  const files = fs.readdirSync(searchesDir).filter((f) => f.endsWith('.json') && !f.startsWith('require-'));
  assert.ok(files.length >= 3);
  for (const f of files) {
    const r = run(['search', path.join(searchesDir, f)]);
    assert.equal(r.status, 0, `${f}: ${r.stderr}`);
    const out = JSON.parse(r.stdout);
    assert.equal(out.ok, true);
    const c = out.counts;
    assert.equal(c.enumerated, c.invalid + c.pruned_by_bound + c.over_memory + c.dominated + c.evaluated, f);
    assert.ok(out.front.length >= 1, f);
    assert.ok(out.top.length >= 1, f);
  }
});

test('the best training candidate is the scenario with its settings, evaluated alone', () => {
  const request = {
    search: 'training',
    scenario: {
      model: 'llama-3-8b', system: { preset: 'dgx-h100', count: 8 },
      workload: { kind: 'training', seq_len: 4096, global_batch: 32, micro_batch: 1, precision: 'bf16' },
    },
    top: 2,
  };
  const r = run(['search', '-'], JSON.stringify(request));
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  for (const p of out.top) {
    const doc = withSettings(request.scenario, p.settings);
    const alone = JSON.parse(run(['eval', '-'], JSON.stringify(doc)).stdout);
    assert.equal(alone.summary.step_time_s, p.step_time_s);
    assert.equal(alone.summary.mfu, p.mfu);
  }
});

test('the best serving candidate is the scenario with its settings, evaluated alone', () => {
  const request = JSON.parse(fs.readFileSync(path.join(searchesDir, 'serve-llama31-70b-16-h100.json'), 'utf8'));
  const out = JSON.parse(run(['search', '-'], JSON.stringify(request)).stdout);
  const doc = withSettings(request.scenario, out.best.settings);
  const alone = JSON.parse(run(['eval', '-'], JSON.stringify(doc)).stdout);
  assert.equal(alone.summary.output_tokens_per_s_per_chip, out.best.output_tokens_per_s_per_chip);
  assert.equal(alone.summary.ttft_s, out.best.ttft_s);
});

test('bad fields exit 2 naming the field, nothing on stdout', () => {
  const scenario = {
    model: 'llama-3-8b', system: 'dgx-h100',
    workload: { kind: 'training', seq_len: 2048, global_batch: 8, micro_batch: 1, precision: 'bf16' },
  };
  for (const [request, field] of [
    [{ search: 'training', scenario, space: { tp: [0] } }, 'space.tp[0]'],
    [{ search: 'training', scenario, rank: 'fast' }, 'rank'],
    [{ search: 'serving', scenario }, 'scenario.workload.kind'],
    [{ search: 'training', scenario, chipz: 8 }, 'chipz'],
  ]) {
    const r = run(['search', '-'], JSON.stringify(request));
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.ok(r.stderr.includes(field), r.stderr);
  }
});

test('envelope require: every require- request runs; a resource found meets the target at its value', () => {
  const files = fs.readdirSync(searchesDir).filter((f) => f.startsWith('require-'));
  assert.ok(files.length >= 1);
  for (const f of files) {
    const r = run(['require', path.join(searchesDir, f)]);
    assert.equal(r.status, 0, `${f}: ${r.stderr}`);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(out.resources.map((q) => q.resource),
      ['peak_flops', 'hbm_bandwidth', 'hbm_capacity', 'scale_up_bandwidth', 'scale_out_bandwidth']);
    for (const q of out.resources) {
      if (q.status === 'found') assert.ok(Math.abs(q.required / q.current - q.ratio) < 1e-9);
    }
  }
  const bad = run(['require', '-'], JSON.stringify({ scenario: JSON.parse(fs.readFileSync(path.join(searchesDir, files[0]), 'utf8')).scenario, slo: { tpot_ms: 0 } }));
  assert.equal(bad.status, 2);
  assert.ok(bad.stderr.includes('slo.tpot_ms'), bad.stderr);
});
