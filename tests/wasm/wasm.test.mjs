// The wasm module under Node: the same numbers as the native CLI, and errors as values
// for any input whatsoever.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cli, wasmDir, scenariosDir } from '../support/paths.mjs';

let mod;
before(async () => {
  const { default: createEnvelope } = await import(path.join(wasmDir, 'envelope.mjs'));
  mod = await createEnvelope({ wasmBinary: fs.readFileSync(path.join(wasmDir, 'envelope.wasm')) });
});

const native = (text) => {
  const r = spawnSync(cli, ['eval', '-'], { input: text, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
};

// Every number equal (to the last bit is expected; 1e-12 relative is what we require).
function assertSameNumbers(a, b, where = '') {
  if (typeof a === 'number' && typeof b === 'number') {
    const scale = Math.max(Math.abs(a), Math.abs(b), 1e-300);
    assert.ok(Math.abs(a - b) / scale <= 1e-12, `${where}: ${a} vs ${b}`);
    return;
  }
  if (a && typeof a === 'object') {
    assert.deepEqual(Object.keys(a), Object.keys(b), where);
    for (const k of Object.keys(a)) assertSameNumbers(a[k], b[k], `${where}.${k}`);
    return;
  }
  assert.equal(a, b, where);
}

test('every scenario preset gives the same result in wasm as natively', () => {
  for (const file of fs.readdirSync(scenariosDir)) {
    const text = fs.readFileSync(path.join(scenariosDir, file), 'utf8');
    const fromWasm = JSON.parse(mod.evaluate(text));
    assert.equal(fromWasm.ok, true, file);
    assertSameNumbers(fromWasm, native(text), file);
  }
});

test('evaluate takes JSON text; an object gets an error value saying so', () => {
  const text = fs.readFileSync(path.join(scenariosDir, 'llama2-70b-dgx-h100-tp8.json'), 'utf8');
  const out = JSON.parse(mod.evaluate(JSON.parse(text)));
  assert.equal(out.ok, false);
  assert.match(out.error.message, /JSON text .*got object/);
});

test('presets() matches the native CLI', () => {
  const r = spawnSync(cli, ['presets', '--json'], { encoding: 'utf8' });
  assert.deepEqual(JSON.parse(mod.presets()), JSON.parse(r.stdout));
  assert.match(mod.version(), /^\d+\.\d+\.\d+$/);
});

test('bad input comes back as {ok:false, error:{path, message}}', () => {
  const scenario = JSON.parse(fs.readFileSync(path.join(scenariosDir, 'llama2-70b-dgx-h100-tp8.json'), 'utf8'));
  scenario.parallelism.tp = 3;
  const out = JSON.parse(mod.evaluate(JSON.stringify(scenario)));
  assert.deepEqual(out, {
    ok: false,
    error: { path: 'parallelism.tp', message: 'TP = 3 must divide model.heads = 64' },
  });
});

test('any argument at all gives an error value, never an exception or an abort', () => {
  const cyclic = {};
  cyclic.self = cyclic;
  const inputs = ['', '{', 'null', '[]', '"text"', '{"model":"x"}', 42, true, null, undefined, [1, 2], cyclic,
    '\u0000', '{"model": 1e999}', 'x'.repeat(100000)];
  for (const input of inputs) {
    const out = JSON.parse(mod.evaluate(input));
    assert.equal(out.ok, false, String(input).slice(0, 40));
    assert.equal(typeof out.error.message, 'string');
    assert.ok(out.error.message.length > 0);
    assert.equal(typeof out.error.path, 'string');
  }
  // The module is still healthy afterwards.
  const ok = JSON.parse(mod.evaluate(fs.readFileSync(path.join(scenariosDir, 'llama2-70b-dgx-h100-tp8.json'), 'utf8')));
  assert.equal(ok.ok, true);
});

test('random edits of a scenario never produce a non-finite number or a crash', () => {
  const base = JSON.parse(fs.readFileSync(path.join(scenariosDir, 'llama3-70b-mi300x-tp4.json'), 'utf8'));
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  // Mostly valid values (so that many edits evaluate), some at the edges, some wrong.
  const counts = [1, 1, 2, 4, 8, 16, 64, 512, 4096, 100000, 10000000, 0, -1, 3, 0.5, 1e20, 'x', null];
  const formats = ['bf16', 'fp16', 'fp8', 'int8', 'fp4', 'int4', 'fp32', 'bogus', 1];
  const edits = [[['workload', 'batch'], counts], [['workload', 'input_tokens'], counts],
    [['workload', 'output_tokens'], counts], [['parallelism', 'tp'], [1, 2, 4, 8, 3, 0]], [['parallelism', 'pp'], [1, 2, 4, 3, 0]],
    [['workload', 'precision', 'weights'], formats], [['workload', 'precision', 'kv_cache'], formats],
    [['workload', 'flash_attention'], [true, false, 'yes']], [['system', 'count'], [4, 8, 2, 1, 0, 16, 64]],
    [['model'], ['llama-2-7b', 'gpt-3-175b', 'mistral-7b', 'nope', 3]]];
  let good = 0;
  for (let i = 0; i < 600; i++) {
    const s = structuredClone(base);
    for (let k = 0; k < 3; k++) {
      const [p, values] = edits[Math.floor(rand() * edits.length)];
      let o = s;
      for (const key of p.slice(0, -1)) o = o[key];
      o[p[p.length - 1]] = values[Math.floor(rand() * values.length)];
    }
    const text = mod.evaluate(JSON.stringify(s));
    const out = JSON.parse(text);
    if (!out.ok) continue;
    good++;
    // nlohmann writes NaN and ±Inf as null: only tpot_s may be null, and only with 1 output token.
    for (const [k, v] of Object.entries(out.summary)) {
      if (k === 'roofline' || k === 'error_band') continue;
      if (k === 'tpot_s' && out.scenario.workload.output_tokens === 1) assert.equal(v, null);
      else assert.ok(Number.isFinite(v), `summary.${k} = ${v} for ${JSON.stringify(s.workload)}`);
    }
    for (const [k, v] of Object.entries(out.memory)) {
      if (k !== 'fits') assert.ok(Number.isFinite(v), `memory.${k}`);
    }
  }
  assert.ok(good > 100, `only ${good} edits were valid`);
});

test('validation(cases) gives the same report as envelope validate --json on the bundled cases', () => {
  // The module bundles no cases (they would double it): without them it says so, as a value.
  const none = JSON.parse(mod.validation());
  assert.equal(none.ok, false);
  assert.match(none.error.message, /takes the text of presets\/measured\/cases\.json/);
  const fromWasm = JSON.parse(mod.validation(fs.readFileSync(path.join(scenariosDir, '../measured/cases.json'), 'utf8')));
  assert.equal(fromWasm.ok, true);
  const r = spawnSync(cli, ['validate', '--json', path.join(scenariosDir, '../measured/cases.json')],
    { encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, r.stderr);
  const fromCli = JSON.parse(r.stdout);
  assertSameNumbers(fromWasm.summary, fromCli.summary, 'summary');
  assert.equal(fromWasm.cases.length, fromCli.cases.length);
  assert.deepEqual(fromWasm.skipped, fromCli.skipped);
});

test('collective() equals the CLI and gives errors as values for any argument', () => {
  const request = { system: 'tpu-v5e-pod', op: 'all_gather', chips: 64, sweep: { from: 1024, to: 1e9, factor: 8 } };
  const fromWasm = JSON.parse(mod.collective(JSON.stringify(request)));
  const r = spawnSync(cli, ['collective', '--system', 'tpu-v5e-pod', '--op', 'all_gather', '--chips', '64',
    '--sweep', '1024', '1e9', '8', '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assertSameNumbers(fromWasm, JSON.parse(r.stdout));
  assert.equal(fromWasm.levels.length, 2);  // both torus dimensions: 16 × 4
  for (const arg of [undefined, null, 42, {}, '{', '{"system": "dgx-h100"}', '[]']) {
    const out = JSON.parse(mod.collective(arg));
    assert.equal(out.ok, false);
    assert.equal(typeof out.error.message, 'string');
  }
});
