// The wasm module against hostile input (issue 5): random documents of every shape never
// throw, never leak, and never give a result with a non-finite or negative quantity; and
// native and wasm agree byte for byte on the presets and on hundreds of random valid
// variants of them.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cli, wasmDir, scenariosDir } from '../support/paths.mjs';
import { checkResult } from '../support/invariants.mjs';
import { randomScenario, randomTrainingScenario, mutations, rng } from '../support/generators.mjs';
import { llama31_8b } from '../support/hf-configs.mjs';

let mod;
before(async () => {
  const { default: createEnvelope } = await import(path.join(wasmDir, 'envelope.mjs'));
  mod = await createEnvelope({ wasmBinary: fs.readFileSync(path.join(wasmDir, 'envelope.wasm')) });
});

const presetTexts = () => fs.readdirSync(scenariosDir).map((f) => fs.readFileSync(path.join(scenariosDir, f), 'utf8'));

// Calls evaluate and checks what any answer must be: JSON text within a second; an error
// value with a string path and message, or a result that passes every invariant.
function evaluateChecked(text) {
  let out;
  const start = performance.now();
  assert.doesNotThrow(() => { out = mod.evaluate(text); }, String(text).slice(0, 80));
  assert.ok(performance.now() - start < 1000, `over 1 s: ${String(text).slice(0, 80)}`);
  const result = JSON.parse(out);
  if (result.ok) checkResult(result);
  else {
    assert.equal(typeof result.error.path, 'string');
    assert.ok(result.error.message.length > 0);
  }
  return result;
}

test('deep nesting, huge objects, NUL bytes, duplicates and 1e400 come back as error values', () => {
  const cases = [
    [`{"x":${'['.repeat(100000)}${']'.repeat(100000)},"y":1}`, /nests deeper/],
    [`[${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}]`, /nests deeper/], // threw a RangeError from ~2,700 levels
    [`{"model":{${Array.from({ length: 100000 }, (_, i) => `"k${i}":1`).join(',')}}}`, /larger than the limit/],
    ['{"model": 1e400}', /preset name or an object/],
    ['{"a": 1}\u0000garbage', /NUL byte/],
    ['{"a": 1, "a": 2}', /given twice/],
  ];
  for (const [text, message] of cases) {
    const out = evaluateChecked(text);
    assert.equal(out.ok, false);
    assert.match(out.error.message, message);
  }
});

test('the page link of issue 5 gives a positive size in its "does not fit" warning (was -2147483648 GB)', () => {
  const out = evaluateChecked(JSON.stringify({
    model: 'llama-2-70b', system: 'dgx-h100',
    workload: { batch: 1000000, input_tokens: 100000000, output_tokens: 100000000, parallelism: { tp: 8 }, precision: 'bf16' },
  }));
  assert.equal(out.ok, true);
  assert.ok(out.warnings.some((w) => /^does not fit: 8\.\d+e\+09 GB needed per chip/.test(w)), out.warnings.join('; '));
});

test('10,000 bad calls leave the heap as it was (no leak per error)', () => {
  // Before: each thrown RangeError leaked its stack's allocations (60 → 540 MB in 2,000 calls).
  const bad = [`[${'['.repeat(3000)}${']'.repeat(3000)}]`, '{"model": 1e400, "x": [1, 2, {"y": []}]}',
    '{"a": 1, "a": 2}', '{', 'null', '{"model": "llama-2-7b"}', '{"a": 1}\u0000'];
  evaluateChecked(presetTexts()[0]); // first use builds the static preset table
  for (const text of bad) evaluateChecked(text);
  const heap = mod.heapInUse();
  const pages = mod.HEAP8.buffer.byteLength;
  for (let i = 0; i < 10000; i++) evaluateChecked(bad[i % bad.length]);
  assert.equal(mod.heapInUse(), heap, 'bytes allocated and not freed');
  assert.equal(mod.HEAP8.buffer.byteLength, pages, 'wasm memory size');
});

// Issue 17, defect 8: the "never throws" contract. The text functions and what each calls its
// argument in its errors; every one parses with the core's 1 MiB limit (core/io/json_parse.hpp).
const TEXT_FUNCTIONS = [['evaluate', 'scenario'], ['collective', 'request'], ['fit', 'scenario'], ['curve', 'scenario'],
  ['sweep', 'request'], ['search', 'request'], ['require', 'request'], ['tradeoff', 'request'], ['packageCost', 'scenario'], ['importHf', 'config.json']];
const LIMIT = 1048576; // 1 MiB

test('a text over 1 MiB is refused from its length, at once, before it is copied into the module', () => {
  // 2^28 characters: copied, this grew the module's memory by 256 MB and took seconds (a 1.2 GB
  // string threw std::bad_alloc after 10 s); now the answer names the limit and nothing grows.
  const huge = 'x'.repeat(2 ** 28);
  mod.evaluate(presetTexts()[0]); // first use builds the static preset table
  const pages = mod.HEAP8.buffer.byteLength;
  const heap = mod.heapInUse();
  for (const [name, noun] of TEXT_FUNCTIONS) {
    const start = performance.now();
    let out;
    assert.doesNotThrow(() => { out = JSON.parse(mod[name](huge)); }, name);
    assert.ok(performance.now() - start < 200, `${name}: ${Math.round(performance.now() - start)} ms`);
    assert.equal(out.ok, false, name);
    assert.equal(out.error.path, '');
    assert.equal(out.error.message, `${name}()'s ${noun} is 268435456 characters long, larger than the limit of 1048576 bytes (1 MiB)`);
  }
  const name = JSON.parse(mod.importHf(JSON.stringify(llama31_8b), huge));
  assert.equal(name.error.message, "importHf()'s name is 268435456 characters long, larger than the limit of 1048576 bytes (1 MiB)");
  assert.equal(mod.HEAP8.buffer.byteLength, pages, 'wasm memory size');
  assert.equal(mod.heapInUse(), heap, 'bytes allocated and not freed');
  // One character over is refused the same way; 1 MiB of characters that take 2 bytes each in
  // UTF-8 is within the facade's count and refused by the parser, by its bytes.
  assert.match(JSON.parse(mod.evaluate(' '.repeat(LIMIT + 1))).error.message, /is 1048577 characters long, larger than the limit of 1048576 bytes/);
  assert.match(JSON.parse(mod.evaluate('\u00e9'.repeat(LIMIT / 2 + 1))).error.message, /the document is larger than the limit of 1048576 bytes/);
  // A text of exactly 1 MiB is read: a preset padded with spaces to 1,048,576 characters.
  const preset = presetTexts()[0];
  assert.equal(JSON.parse(mod.evaluate(preset + ' '.repeat(LIMIT - preset.length))).ok, true);
});

test('every exported function answers with arguments missing or extra, never a BindingError', () => {
  const config = JSON.stringify(llama31_8b);
  // importHf's name is optional: left out, the config's own (8,030,261,248 parameters, as the
  // import-hf tests pin it).
  const alone = JSON.parse(mod.importHf(config));
  assert.equal(alone.ok, true);
  assert.equal(alone.params, 8030261248);
  assert.deepEqual(JSON.parse(mod.importHf(config, undefined, 'extra')), alone);
  for (const [name] of TEXT_FUNCTIONS) {
    let out;
    assert.doesNotThrow(() => { out = JSON.parse(mod[name]()); }, `${name}()`);
    assert.equal(out.ok, false, name);
    assert.match(out.error.message, new RegExp(`^${name}\\(\\) takes the .* got undefined$`), name);
  }
  // An extra argument is ignored, as a JS function ignores it.
  const preset = presetTexts()[0];
  assert.equal(mod.evaluate(preset, 'extra', 3), mod.evaluate(preset));
  for (const name of ['presets', 'version', 'validation', 'heapInUse']) assert.doesNotThrow(() => mod[name]('extra'), name);
  assert.equal(mod.version('extra'), mod.version());
});

test('mutations of every field of every scenario preset never throw or give a bad result', () => {
  let calls = 0;
  let good = 0;
  for (const text of presetTexts()) {
    for (const mutated of mutations(JSON.parse(text), text)) {
      calls += 1;
      if (evaluateChecked(mutated).ok) good += 1;
    }
  }
  assert.ok(calls > 500, `only ${calls} mutations`);
  assert.ok(good > 50, `only ${good} mutations evaluated`);
});

test('random documents of random shapes never throw', () => {
  const next = rng(7);
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  const atoms = [0, -1, 1e308, -1e-308, 1.5, true, false, null, '', 'bf16', 'llama-2-7b', '\u00e9\u0000', 'x'.repeat(300)];
  const keys = ['model', 'system', 'workload', 'preset', 'chip', 'count', 'batch', 'network', 'tp', 'precision', '', '\u0000'];
  const value = (depth) => {
    const r = next();
    if (depth > 6 || r < 0.4) return pick(atoms);
    if (r < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1));
    return Object.fromEntries(Array.from({ length: Math.floor(next() * 5) }, () => [pick(keys), value(depth + 1)]));
  };
  for (let i = 0; i < 3000; i++) evaluateChecked(JSON.stringify(value(0)));
  for (let i = 0; i < 500; i++) {
    const text = JSON.stringify(value(0));
    evaluateChecked(text.slice(0, Math.floor(next() * text.length))); // truncated
  }
});

test('native and wasm agree byte for byte on every preset and 300 random valid variants, training among them', () => {
  const texts = presetTexts();
  const next = rng(2026);
  for (let i = 0; i < 300; i++) texts.push(JSON.stringify(i % 3 === 2 ? randomTrainingScenario(next) : randomScenario(next)));
  let compared = 0;
  let training = 0;
  for (const text of texts) {
    const fromWasm = mod.evaluate(text);
    const r = spawnSync(cli, ['eval', '--compact', '-'], { input: text, encoding: 'utf8' });
    if (JSON.parse(fromWasm).ok) {
      assert.equal(r.status, 0, r.stderr);
      assert.equal(fromWasm, r.stdout.trimEnd(), text);
      compared += 1;
      if (text.includes('"training"')) training += 1;
    } else {
      assert.equal(r.status, 2, text);
    }
  }
  assert.ok(compared > 200, `only ${compared} of ${texts.length} variants were valid`);
  assert.ok(training > 25, `only ${training} training variants were valid`);
});
