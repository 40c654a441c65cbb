// `envelope sweep`: one scenario along one axis in one call. The flags build the request that a
// request file gives whole; a refused value is a row, not a failure; bad flags and bad fields
// exit 2 naming what is wrong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cli, scenariosDir } from '../support/paths.mjs';

const run = (args, input) => spawnSync(cli, args, { input, encoding: 'utf8' });
const handCheck = path.join(scenariosDir, 'llama2-70b-dgx-h100-tp8.json');
const scenario = JSON.parse(fs.readFileSync(handCheck, 'utf8'));

test('sweep --json over the batch: each point is the scenario evaluated with that batch', () => {
  const r = run(['sweep', handCheck, '--axis', 'batch', '--values', '1,8,64', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.axis, 'batch');
  assert.equal(out.current, scenario.workload.batch);
  assert.deepEqual(out.points.map((p) => p.value), [1, 8, 64]);
  for (const p of out.points) {
    const doc = structuredClone(scenario);
    doc.workload.batch = p.value;
    const alone = JSON.parse(run(['eval', '-'], JSON.stringify(doc)).stdout);
    assert.equal(p.ttft_s, alone.summary.ttft_s);
    assert.equal(p.tpot_s, alone.summary.tpot_s);
    assert.equal(p.memory_bytes, alone.memory.total_bytes);
  }
});

test('the flags and a request file give the same answer; the table marks the own value and lists refused ones', () => {
  const viaFlags = run(['sweep', handCheck, '--axis', 'tp', '--values', '1,3,8', '--json']);
  const request = { scenario, axis: 'tp', values: [1, 3, 8] };
  const viaFile = run(['sweep', '-', '--json'], JSON.stringify(request));
  assert.equal(viaFlags.status, 0, viaFlags.stderr);
  assert.equal(viaFile.stdout, viaFlags.stdout);
  const out = JSON.parse(viaFlags.stdout);
  assert.equal(out.points[1].ok, false);
  assert.match(out.points[1].error.path, /^parallelism/);
  const table = run(['sweep', handCheck, '--axis', 'tp', '--values', '1,3,8']);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /^\s+8\*/m);
  assert.match(table.stdout, /^\s+3\s+error: parallelism/m);
  const range = JSON.parse(run(['sweep', handCheck, '--axis', 'input_tokens', '--range', '128', '32768', '9', '--json']).stdout);
  assert.deepEqual(range.points.map((p) => p.value), [128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768]);
});

test('bad input exits 2 naming the flag or the field, and prints nothing on stdout', () => {
  const cases = [
    [['sweep', handCheck, '--axis', 'chips', '--values', '1'], /axis: must be one of/],
    [['sweep', handCheck, '--axis', 'batch', '--values', '1,x,4'], /values\[1\]: must be an integer/],
    [['sweep', handCheck, '--axis', 'batch', '--values', '0'], /values\[0\]: must be an integer in \[1, /],
    [['sweep', handCheck, '--axis', 'batch', '--range', '1', '64', '500'], /range\.points: must be an integer in \[2, 128\]/],
    [['sweep', handCheck, '--axis', 'batch'], /give --values or --range/],
    [['sweep', handCheck, '--values', '1,2'], /need --axis/],
    [['sweep', '-', '--json'], /scenario\.workload\.batch/, JSON.stringify({ scenario: { ...scenario, workload: { ...scenario.workload, batch: 0 } }, axis: 'batch', values: [1] })],
    [['sweep', '/nonexistent.json', '--axis', 'batch', '--values', '1'], /cannot read/],
  ];
  for (const [args, message, input] of cases) {
    const r = run(args, input);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stdout}`);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, message, args.join(' '));
  }
  const many = run(['sweep', handCheck, '--axis', 'batch', '--values', Array.from({ length: 129 }, (_, i) => i + 1).join(',')]);
  assert.equal(many.status, 2);
  assert.match(many.stderr, /values: must hold 1 to 128 values, got 129/);
});
