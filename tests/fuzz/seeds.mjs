// Writes the fuzzer's inputs into DIR (run by ./dev.sh fuzz):
//   DIR/corpus/   the scenario presets and the hostile shapes of issue 5
//   DIR/envelope.dict   every key and preset name found in presets/, and JSON tokens
// Generated from presets/ on every run, so the dictionary follows the schema as it grows.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const out = path.resolve(process.argv[2] ?? 'build/sanitize/fuzz');
const corpus = path.join(out, 'corpus');
fs.mkdirSync(corpus, { recursive: true });

const words = new Set();
const walk = (v) => {
  if (Array.isArray(v)) v.forEach(walk);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { words.add(k); walk(x); }
  else if (typeof v === 'string' && v.length < 24) words.add(v);
};
for (const kind of fs.readdirSync(path.join(root, 'presets'))) {
  const dir = path.join(root, 'presets', kind);
  if (!fs.statSync(dir).isDirectory() || kind === 'measured') continue;
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    words.add(file.replace(/\.json$/, ''));
    walk(JSON.parse(text));
    if (kind === 'scenarios') fs.writeFileSync(path.join(corpus, file), text);
  }
}

const hostile = {
  'deep.json': `{"x":${'['.repeat(3000)}${']'.repeat(3000)}}`,
  'keys.json': `{"model":{${Array.from({ length: 1200 }, (_, i) => `"k${i}":1`).join(',')}}}`,
  'overflow.json': '{"model":"llama-2-7b","system":{"chip":"h100-sxm","count":1},"workload":{"batch":1e400,"input_tokens":8,"output_tokens":8,"precision":"bf16"}}',
  'nul.json': '{"model":"llama-2-7b"}\u0000garbage',
  'duplicate.json': '{"workload":{"batch":1,"batch":64}}',
  'package.json': '{"model":"llama-2-7b","system":{"chip":"h100-sxm","count":1},"workload":{"batch":1,"input_tokens":8,"output_tokens":8,"precision":"bf16"},"cost":{"pricing":"owned","package":{"kind":"si_interposer","dies":[{"area_mm2":400,"count":2,"node":"7nm-actuary-2022"}],"hbm":{"stacks":4,"usd_per_stack":300,"area_mm2":110},"volume":1e5}}}',
};
for (const [name, text] of Object.entries(hostile)) fs.writeFileSync(path.join(corpus, name), text);

const tokens = ['{', '}', '[', ']', ':', ',', 'true', 'false', 'null', '0', '-1', '1e400', '1e18', '0.5'];
// libFuzzer's dictionary syntax: printable ASCII as is, " and \ escaped, other bytes \xNN.
const escape = (s) => [...Buffer.from(s, 'utf8')].map((b) => {
  if (b === 0x22 || b === 0x5c) return `\\${String.fromCharCode(b)}`;
  if (b >= 0x20 && b < 0x7f) return String.fromCharCode(b);
  return `\\x${b.toString(16).padStart(2, '0')}`;
}).join('');
const lines = [...[...words].sort().map((w) => `"\\"${escape(w)}\\""`), ...tokens.map((t) => `"${escape(t)}"`)];
fs.writeFileSync(path.join(out, 'envelope.dict'), `${lines.join('\n')}\n`);
console.log(`fuzz seeds: ${fs.readdirSync(corpus).length} files in ${corpus}, ${lines.length} dictionary entries`);
