// Times the wasm module the page uses, from JavaScript: evaluate(JSON text) → JSON
// text, i.e. parse + evaluate + serialize + the string copies across the boundary,
// and JSON.parse of the result as the page does. The split into parse / evaluate /
// serialize for the same code compiled to wasm is printed by build/wasm/bench/envelope_bench.js.
// Run: ./dev.sh bench   (or: node tests/bench/bench_wasm.mjs after ./dev.sh build)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const build = path.resolve(root, process.env.ENVELOPE_BUILD ?? 'build');

// The same core compiled to wasm, timing its own phases.
const split = spawnSync(process.execPath, [path.join(build, 'wasm/bench/envelope_bench.js')], { encoding: 'utf8' });
process.stdout.write(split.stdout);
if (split.status !== 0) {
  process.stderr.write(split.stderr);
  process.exit(1);
}

const wasmDir = path.join(build, 'wasm/wasm');
const { default: createEnvelope } = await import(path.join(wasmDir, 'envelope.mjs'));
const mod = await createEnvelope({ wasmBinary: fs.readFileSync(path.join(wasmDir, 'envelope.wasm')) });

function medianMs(fn, rounds = 15, batchMs = 20) {
  let n = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) fn();
    const dt = performance.now() - t0;
    if (dt >= batchMs / 4) { n = Math.max(1, Math.round((n * batchMs) / dt)); break; }
    n *= 2;
  }
  const perCall = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) fn();
    perCall.push((performance.now() - t0) / n);
  }
  perCall.sort((a, b) => a - b);
  return perCall[Math.floor(perCall.length / 2)];
}

const scenarios = JSON.parse(mod.presets()).scenarios;
console.log('\nproduct module from JavaScript (median per call):');
console.log(`${'scenario'.padEnd(30)} ${'evaluate()'.padStart(12)} ${'+ JSON.parse'.padStart(14)}`);
for (const [key, doc] of Object.entries(scenarios)) {
  const text = JSON.stringify(doc);
  for (let i = 0; i < 200; i++) mod.evaluate(text);  // warm-up
  const evalMs = medianMs(() => mod.evaluate(text));
  const fullMs = medianMs(() => JSON.parse(mod.evaluate(text)));
  console.log(`${key.padEnd(30)} ${(evalMs * 1000).toFixed(1).padStart(9)} us ${(fullMs * 1000).toFixed(1).padStart(11)} us`);
}

// The calls that take many evaluations: fit() and the 64-point throughput–latency curve the
// page draws after each inference evaluation (issue 9: well under 5 ms in wasm).
{
  const text = JSON.stringify(scenarios['llama2-70b-dgx-h100-tp8']);
  for (let i = 0; i < 20; i++) mod.curve(text);  // warm-up
  const fitMs = medianMs(() => JSON.parse(mod.fit(text)));
  const curveMs = medianMs(() => JSON.parse(mod.curve(text)));
  console.log(`\nfit() ${fitMs.toFixed(3)} ms, curve() ${curveMs.toFixed(3)} ms (64 points, with JSON.parse) on llama2-70b-dgx-h100-tp8`);
}
