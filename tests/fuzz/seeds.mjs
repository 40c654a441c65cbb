// Writes the fuzzer's inputs into DIR (run by ./dev.sh fuzz):
//   DIR/seeds/    seeds for every entry point, each file's first byte choosing it
//                 (tests/fuzz/fuzz_entry_points.cpp): e eval, f fit, u curve, s sweep,
//                 t tradeoff, p package-cost, c collective, v validate, h / n import-hf
//                 (without / with a name); file names start with the entry point's name.
//                 Rewritten on every run; libFuzzer keeps its own finds in DIR/corpus/.
//   DIR/envelope.dict   every key and preset name found in presets/ and the HF configs,
//                       and JSON tokens
// Generated from presets/ on every run, so the seeds and the dictionary follow the schema.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const out = path.resolve(process.argv[2] ?? 'build/sanitize/fuzz');
const corpus = path.join(out, 'seeds');
fs.rmSync(corpus, { recursive: true, force: true });
fs.mkdirSync(corpus, { recursive: true });

const words = new Set();
const walk = (v) => {
  if (Array.isArray(v)) v.forEach(walk);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { words.add(k); walk(x); }
  else if (typeof v === 'string' && v.length < 24) words.add(v);
};
const readJson = (...parts) => JSON.parse(fs.readFileSync(path.join(root, ...parts), 'utf8'));
const keys = (kind) => fs.readdirSync(path.join(root, 'presets', kind)).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, ''));

const perEntry = {};
const seed = (entry, letter, name, doc) => {
  const text = typeof doc === 'string' ? doc : JSON.stringify(doc);
  fs.writeFileSync(path.join(corpus, `${entry}-${name}`), letter + text);
  perEntry[entry] = (perEntry[entry] ?? 0) + 1;
};

// ---- presets: the dictionary, and the scenario presets for eval, fit and curve ----------
const scenarios = {};
for (const kind of fs.readdirSync(path.join(root, 'presets'))) {
  const dir = path.join(root, 'presets', kind);
  if (!fs.statSync(dir).isDirectory() || kind === 'measured') continue;
  for (const key of keys(kind)) {
    words.add(key);
    const doc = readJson('presets', kind, `${key}.json`);
    walk(doc);
    if (kind === 'scenarios') scenarios[key] = doc;
  }
}
const inference = Object.entries(scenarios).filter(([, s]) => (s.workload?.kind ?? 'inference') === 'inference');
const training = Object.entries(scenarios).filter(([, s]) => s.workload?.kind === 'training');
for (const [key, doc] of Object.entries(scenarios)) seed('eval', 'e', key, doc);
for (const [key, doc] of inference) {
  seed('fit', 'f', key, doc);
  seed('curve', 'u', key, doc);
}
seed('fit', 'f', training[0][0], training[0][1]);  // the refusal of a training scenario

// The hostile shapes of issue 5, given to eval.
const hostile = {
  deep: `{"x":${'['.repeat(3000)}${']'.repeat(3000)}}`,
  keys: `{"model":{${Array.from({ length: 1200 }, (_, i) => `"k${i}":1`).join(',')}}}`,
  overflow: '{"model":"llama-2-7b","system":{"chip":"h100-sxm","count":1},"workload":{"batch":1e400,"input_tokens":8,"output_tokens":8,"precision":"bf16"}}',
  nul: '{"model":"llama-2-7b"}\u0000garbage',
  duplicate: '{"workload":{"batch":1,"batch":64}}',
};
for (const [name, text] of Object.entries(hostile)) seed('eval', 'e', name, text);

// ---- cost: packages of every kind, scenarios that own them, trade-offs over every knob ----
const nodes = readJson('presets/costs/process-nodes.json').nodes.map((n) => n.id);
const hbmTypes = readJson('presets/costs/packaging.json').hbm.map((h) => h.id);
const packages = {
  'si-interposer': { kind: 'si_interposer', dies: [{ name: 'logic', area_mm2: 800, node: '5nm-actuary-2022' }], hbm: { stacks: 4, usd_per_stack: 300, area_mm2: 110 } },
  organic: { kind: 'organic', dies: [{ area_mm2: 120, count: 4, node: nodes[2] }], yield_model: 'poisson', test_usd: 5 },
  'fan-out': { kind: 'fan_out', dies: [{ area_mm2: 300, count: 2, node: nodes[0] }], chip_first: true, hbm: { stacks: 2, type: hbmTypes[1], usd_per_stack: 250 }, volume: 1e5 },
  bridge: { kind: 'bridge', dies: [{ area_mm2: 600, count: 2, node: '3nm-actuary-2022' }], bridge_area_mm2: 40, yield_model: 'murphy', hbm: { stacks: 8, type: hbmTypes[3], usd_per_stack: 500 } },
  chiplets: { kind: 'si_interposer', dies: [{ name: 'io', area_mm2: 200, node: '7nm-actuary-2022', nre_usd: 1e7, volume: 1e6 },
    { name: 'compute', area_mm2: 400, count: 4, node: { wafer_usd: 17000, defect_density_per_cm2: 0.1 } }], volume: 1e6 },
  'tiny-defects': { kind: 'organic', dies: [{ area_mm2: 1, node: { wafer_usd: 1000, defect_density_per_cm2: 1e-9 } }], yield_model: 'murphy' },
  salvage: { kind: 'si_interposer', wafer_diameter_mm: 200, edge_loss_mm: 3, scribe_lane_mm: 0.1,
    dies: [{ area_mm2: 814, node: '5nm-actuary-2022', units: 144, units_needed: 132, unit_area_share: 0.5 },
      { area_mm2: 115, count: 8, node: nodes[2], units: 40, units_needed: 38, unit_area_share: 0.6 }], yield_model: 'murphy' },
};
for (const [name, pkg] of Object.entries(packages)) seed('package-cost', 'p', name, pkg);

const owned = { model: 'llama-3.1-8b', system: { chip: 'h100-sxm', count: 1 },
  workload: { precision: 'bf16', batch: 8, input_tokens: 512, output_tokens: 512 },
  cost: { pricing: 'owned', package: packages['si-interposer'] } };
const tradeoffs = {
  'hbm-chiplets': { scenario: owned, knobs: [{ knob: 'hbm_stacks', values: [2, 4, 6] }, { knob: 'chiplets', values: [1, 2] }] },
  'die-node': { scenario: owned, knobs: [{ knob: 'die_area_mm2', values: [400, 800] }, { knob: 'process_node', values: nodes.slice(0, 3) }] },
  'scale-up': { scenario: { ...owned, system: { chip: 'h100-sxm', count: 8 }, parallelism: { tp: 8 } },
    knobs: [{ knob: 'scale_up_gbps', values: [100, 450, 900] }, { knob: 'chips_per_system', values: [4, 8] }] },
  'cloud-preset': { scenario: scenarios['llama31-70b-dgx-h100-owned-cost'] ?? inference[0][1], knobs: [{ knob: 'scale_up_gbps', values: [200, 900] }] },
};
if (training.length) {
  const [, t] = training[training.length - 1];
  tradeoffs.training = { scenario: { ...t, cost: { pricing: 'owned', package: packages['fan-out'] } },
    knobs: [{ knob: 'hbm_stacks', values: [2, 4] }, { knob: 'scale_up_gbps', values: [450, 900] }] };
}
for (const [name, request] of Object.entries(tradeoffs)) seed('tradeoff', 't', name, request);

// ---- sweeps: every inference preset along an axis, by values or by a range ---------------
const axes = [
  ['batch', { values: [1, 8, 64, 512] }],
  ['input_tokens', { range: { from: 128, to: 64000, points: 6 } }],
  ['output_tokens', { values: [1, 2, 100, 4000] }],
  ['tp', { values: [1, 2, 4, 8] }],
];
inference.forEach(([key, scenario], i) => {
  const [axis, how] = axes[i % axes.length];
  seed('sweep', 's', `${key}-${axis}`, { scenario, axis, ...how });
});
const dgx = { model: 'llama-3.1-70b', system: { preset: 'dgx-h100' }, parallelism: { tp: 8 },
  workload: { batch: 16, input_tokens: 2000, output_tokens: 500, precision: 'fp8' } };
seed('sweep', 's', 'batch-64', { scenario: dgx, axis: 'batch', values: Array.from({ length: 64 }, (_, i) => 8 * (i + 1)) });
seed('sweep', 's', 'refused', { scenario: dgx, axis: 'batch', values: [1, 100000] });

// ---- collectives: every system preset, every op, one size or a sweep ---------------------
const ops = ['all_reduce', 'all_gather', 'reduce_scatter', 'all_to_all', 'broadcast', 'send_recv'];
const algorithms = ['auto', 'ring', 'in_network'];
keys('systems').forEach((system, i) => {
  const op = ops[i % ops.length];
  const size = i % 2 ? { bytes: 1e9 } : { sweep: { from: 8, to: 8e9, factor: 16 } };
  seed('collective', 'c', `${system}-${op}`, { system, op, chips: 8 << (i % 3), stride: 1 + (i % 2), ...size, algorithm: algorithms[i % 3] });
});
seed('collective', 'c', 'inline-system', { system: { chip: 'h100-sxm', count: 16,
  network: [{ name: 'nvlink', size: 8, topology: 'switch', links_per_chip: 18, link_gbps: 25, latency_us: 0.5 },
    { name: 'ib', size: 2, topology: 'fat_tree', links_per_chip: 1, link_gbps: 50, latency_us: 3 }] },
  op: 'all_reduce', chips: 16, bytes: 1 << 20 });

// ---- validate: a few measured cases of each kind, alone and together ---------------------
const cases = readJson('presets/measured/cases.json');
walk(cases);
const byKind = {};
for (const c of cases) (byKind[c.kind] ??= []).push(c);
for (const [kind, list] of Object.entries(byKind)) {
  for (const c of [list[0], list[Math.floor(list.length / 2)]]) seed('validate', 'v', `${kind}-${c.id}`, [c]);
}
seed('validate', 'v', 'one-of-each', Object.values(byKind).map((list) => list[list.length - 1]));
seed('validate', 'v', 'not-an-array', { cases: [] });
// Hostile cases of issue 17 (#7 and the crashes of measured_case.cpp): no chips per node,
// counts beyond an int, a negative size, a measured value of 5e-324.
for (const [kind, list] of Object.entries(byKind)) {
  const edit = (name, change) => {
    const c = structuredClone(list[0]);
    change(c);
    seed('validate', 'v', `hostile-${kind}-${name}`, [c]);
  };
  if (list[0].hardware) {
    edit('per-node-0', (c) => { c.hardware.per_node = 0; });
    edit('count-1e30', (c) => { c.hardware.count = 1e30; });
  }
  if (list[0].collective) edit('bytes-negative', (c) => { c.collective.bytes = -1e9; });
  edit('measured-5e-324', (c) => { for (const k of Object.keys(c.measured ?? {})) c.measured[k] = 5e-324; });
}

// ---- import-hf: every family of tests/core/hf_configs.hpp, without and with a name -------
const hpp = fs.readFileSync(path.join(root, 'tests/core/hf_configs.hpp'), 'utf8');
const configs = [...hpp.matchAll(/inline (?:constexpr )?const char\* (k\w+) = R"\(([\s\S]*?)\)";/g)];
for (const [, name, text] of configs) {
  const config = JSON.parse(text);
  walk(config);
  seed('import-hf', 'h', name, config);
  seed('import-hf-named', 'n', name, `${name.slice(1)}\n${JSON.stringify(config)}`);
}
if (configs.length === 0) throw new Error('no Hugging Face configs found in tests/core/hf_configs.hpp');

// ---- the dictionary --------------------------------------------------------------------
const tokens = ['{', '}', '[', ']', ':', ',', 'true', 'false', 'null', '0', '-1', '1e400', '1e18', '0.5', '5e-324'];
// libFuzzer's dictionary syntax: printable ASCII as is, " and \ escaped, other bytes \xNN.
const escape = (s) => [...Buffer.from(s, 'utf8')].map((b) => {
  if (b === 0x22 || b === 0x5c) return `\\${String.fromCharCode(b)}`;
  if (b >= 0x20 && b < 0x7f) return String.fromCharCode(b);
  return `\\x${b.toString(16).padStart(2, '0')}`;
}).join('');
const lines = [...[...words].sort().map((w) => `"\\"${escape(w)}\\""`), ...tokens.map((t) => `"${escape(t)}"`)];
fs.writeFileSync(path.join(out, 'envelope.dict'), `${lines.join('\n')}\n`);
const counts = Object.entries(perEntry).map(([k, n]) => `${k} ${n}`).join(', ');
console.log(`fuzz seeds in ${corpus}: ${counts}; ${lines.length} dictionary entries`);
