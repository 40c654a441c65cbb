// The `envelope` CLI: good input prints result JSON on stdout; bad input prints a
// message naming the field on stderr, exits with 2 and prints nothing on stdout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cli, root, scenariosDir } from '../support/paths.mjs';

// validate --json on the 864 bundled cases prints several MB: above spawnSync's 1 MB default.
const run = (args, input) => spawnSync(cli, args, { input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
const handCheck = path.join(scenariosDir, 'llama2-70b-dgx-h100-tp8.json');

test('eval prints the result for a scenario file', () => {
  const r = run(['eval', handCheck]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  const out = JSON.parse(r.stdout);
  assert.equal(out.ok, true);
  assert.equal(out.scenario.model.name, 'Llama-2-70B');
  assert.equal(out.summary.chips, 8);
  assert.ok(out.summary.ttft_s > 0 && out.summary.tpot_s > 0);
  assert.equal(out.phases.decode.steps, 255);
});

test('eval - reads the scenario from stdin', () => {
  const fromFile = JSON.parse(run(['eval', handCheck]).stdout);
  const r = run(['eval', '-'], fs.readFileSync(handCheck, 'utf8'));
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), fromFile);
});

test('every scenario preset evaluates', () => {
  for (const file of fs.readdirSync(scenariosDir)) {
    const r = run(['eval', path.join(scenariosDir, file)]);
    assert.equal(r.status, 0, `${file}: ${r.stderr}`);
    assert.equal(JSON.parse(r.stdout).ok, true, file);
  }
});

const base = () => JSON.parse(fs.readFileSync(handCheck, 'utf8'));
const badInputs = [
  ['malformed JSON', '{"model": ', '', /not valid JSON/],
  ['wrong type', (() => { const s = base(); s.workload.batch = 'one'; return JSON.stringify(s); })(),
    'workload.batch', /must be an integer in \[1, 10000000\], got string/],
  ['negative number', (() => { const s = base(); s.workload.input_tokens = -1; return JSON.stringify(s); })(),
    'workload.input_tokens', /got -1/],
  ['missing field', (() => { const s = base(); delete s.workload.output_tokens; return JSON.stringify(s); })(),
    'workload.output_tokens', /is required/],
  ['unknown preset', (() => { const s = base(); s.model = 'gpt-5'; return JSON.stringify(s); })(),
    'model', /unknown model preset "gpt-5"/],
  ['unknown field', (() => { const s = base(); s.workload.tensor_parallel = 8; return JSON.stringify(s); })(),
    'workload.tensor_parallel', /unknown field/],
  ['TP not dividing heads', (() => { const s = base(); s.parallelism.tp = 3; return JSON.stringify(s); })(),
    'parallelism.tp', /must divide model.heads = 64/],
];

for (const [name, text, field, message] of badInputs) {
  test(`bad input (${name}) exits 2 with the field on stderr and nothing on stdout`, () => {
    const r = run(['eval', '-'], text);
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.ok(r.stderr.includes(field ? `${field}: ` : 'envelope: -: '), r.stderr);
    assert.match(r.stderr, message);
  });
}

test('an unreadable file is bad input too', () => {
  const r = run(['eval', path.join(os.tmpdir(), 'no-such-envelope-scenario.json')]);
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /cannot read/);
});

test('presets lists every kind; --json gives the documents', () => {
  const r = run(['presets']);
  assert.equal(r.status, 0);
  for (const key of ['models:', 'llama-2-70b', 'chips:', 'h100-sxm', 'systems:', 'dgx-h100', 'scenarios:']) {
    assert.ok(r.stdout.includes(key), key);
  }
  const j = JSON.parse(run(['presets', '--json']).stdout);
  assert.equal(j.ok, true);
  assert.equal(j.models['llama-3-8b'].layers, 32);
  assert.ok(Object.keys(j.chips).length >= 6);
});

test('usage errors exit 2; --version prints the version', () => {
  assert.equal(run([]).status, 2);
  assert.equal(run(['evaluate', 'x']).status, 2);
  const v = run(['--version']);
  assert.equal(v.status, 0);
  assert.match(v.stdout, /^envelope \d+\.\d+\.\d+/);
});

// The hostile documents of issue 5, each a regression test of a defect found on main:
// every one is bad input (exit 2, the field on stderr, nothing on stdout).
const valid = (workload) => JSON.stringify({
  model: 'llama-2-7b', system: { chip: 'h100-sxm', count: 1 },
  workload: { batch: 1, input_tokens: 16, output_tokens: 16, precision: 'bf16', ...workload },
});
const hostile = [
  // 1. 100,000 nested arrays crashed the CLI with SIGSEGV (exit 139).
  ['100,000 nested arrays', `{"x":${'['.repeat(100000)}${']'.repeat(100000)},"y":1}`, 'x[0]', /nests deeper than 64/],
  // 2. one object with 100,000 keys took 8 s (quadratic insertion); 1,000,001 keys in a
  //    larger document never finished.
  ['100,000 keys in one object', `{"model":{${Array.from({ length: 100000 }, (_, i) => `"k${i}":1`).join(',')}}}`,
    '', /larger than the limit of 1048576 bytes/],
  ['1,001 keys in one object', `{"model":{${Array.from({ length: 1001 }, (_, i) => `"k${i}":1`).join(',')}}}`,
    'model', /more than 1000 keys/],
  // 4. a number beyond double range was an "internal error" with exit 1.
  ['1e400', '{"model": 1e400}', 'model', /must be a preset name or an object, got number/],
  ['batch 1e400', valid({ batch: 1 }).replace('"batch":1', '"batch":1e400'), 'workload.batch',
    /must be an integer in \[1, 10000000\], got a number beyond \+1.8e308/],
  // 6. text after a NUL byte was ignored (exit 0).
  ['NUL then garbage', `${valid({})}\u0000garbage`, '', /NUL byte at offset/],
  // 7. a duplicate key was accepted, the last one winning.
  ['duplicate key', valid({}).replace('"batch":1', '"batch":1,"batch":64'), 'workload.batch', /given twice/],
];
for (const [name, text, field, message] of hostile) {
  test(`hostile input (${name}) exits 2 with the field on stderr and nothing on stdout`, () => {
    const r = run(['eval', '-'], text);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.ok(r.stderr.startsWith(`envelope: -: ${field ? `${field}` : ''}`), r.stderr.slice(0, 200));
    assert.match(r.stderr, message);
  });
}

test('an endless input is cut at the size limit, not read into memory', () => {
  const r = spawnSync(cli, ['eval', '/dev/zero'], { encoding: 'utf8', timeout: 10000 });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /larger than the limit/);
});

test('the "does not fit" warning of the page link in issue 5 prints a positive size (was negative)', () => {
  const r = run(['eval', '-'], JSON.stringify({
    model: 'llama-2-70b', system: 'dgx-h100',
    workload: { batch: 1000000, input_tokens: 100000000, output_tokens: 100000000, parallelism: { tp: 8 }, precision: 'bf16' },
  }));
  assert.equal(r.status, 0, r.stderr);
  const warning = JSON.parse(r.stdout).warnings.find((w) => w.startsWith('does not fit'));
  assert.match(warning, /^does not fit: 8\.\d+e\+09 GB needed per chip, 85.5 GB available$/);
});

// envelope validate: the table and the JSON report; a file of junk cases is still exit 0.
const casesFile = path.join(root, 'presets/measured/cases.json');

test('validate prints a table and a summary per kind for the bundled cases', () => {
  const r = run(['validate', casesFile]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^id\s+kind\s+metric\s+measured\s+predicted\s+error/);
  assert.match(r.stdout, /trtllm05_h100_llama2-70b_tp4_bs64_128_128\s+inference\s+output_tokens_per_s/);
  assert.match(r.stdout, /\nskipped:\n/);
  assert.match(r.stdout, /\ninference\s+\d+\s+[\d.]+%/);
  assert.match(r.stdout, /\d+ scored, \d+ skipped\n$/);
});

test('validate --json gives cases, skipped and the summary; errors are signed fractions', () => {
  const r = run(['validate', '--json', casesFile]);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.ok(out.cases.length >= 100);
  for (const c of out.cases) {
    assert.ok(Math.abs(c.error - (c.predicted / c.measured - 1)) < 1e-12, c.id);
    for (const key of ['id', 'kind', 'primary', 'measured', 'predicted', 'error']) assert.ok(key in c, key);
  }
  assert.ok(out.skipped.every((s) => typeof s.id === 'string' && s.reason.length > 0));
  for (const key of ['scored', 'skipped', 'mape', 'median_ape', 'within_10', 'within_25', 'by_kind']) {
    assert.ok(key in out.summary, key);
  }
  assert.equal(out.summary.scored, out.cases.length);
  assert.equal(out.summary.skipped, out.skipped.length);
  // The scenario of an inference case evaluates to the same prediction.
  const c = out.cases.find((x) => x.id === 'trtllm05_a100_llama2-7b_tp1_bs32_2048_128');
  const e = JSON.parse(run(['eval', '-'], JSON.stringify(c.scenario)).stdout);
  assert.ok(Math.abs(e.summary.output_tokens_per_s / c.predicted - 1) < 1e-12);
});

test('validate skips broken or unknown cases with a reason and still exits 0', () => {
  const file = path.join(os.tmpdir(), `envelope-cases-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify([42, {}, { id: 'x', kind: 'weird', primary: 'ttft_ms', measured: { ttft_ms: 1 } },
    { id: 'y', kind: 'inference', primary: 'joules', measured: { joules: 1 } }]));
  const r = run(['validate', '--json', file]);
  fs.rmSync(file);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.cases.length, 0);
  assert.equal(out.skipped.length, 4);
  assert.match(out.skipped.find((s) => s.id === 'y').reason, /unknown metric/);
  assert.match(out.skipped.find((s) => s.id === 'x').reason, /does not belong|unknown kind/);
});

test('validate on an unreadable or non-JSON file is bad input (exit 2)', () => {
  assert.equal(run(['validate', path.join(os.tmpdir(), 'no-such-cases.json')]).status, 2);
  const r = run(['validate', '-'], '[{"id": ');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /not valid JSON/);
});

test('collective predicts one point like nccl-tests: time, algbw, busbw, the algorithm and the levels', () => {
  const r = run(['collective', '--system', 'dgx-h100', '--op', 'all_reduce', '--chips', '16', '--bytes', '1e9', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.ok, true);
  assert.deepEqual(out.levels.map((l) => l.size), [8, 2]);  // NVLink ×8, InfiniBand ×2
  const [p] = out.points;
  assert.equal(p.bytes, 1e9);
  assert.ok(Math.abs(p.algbw_gbps - 1e9 / p.time_s / 1e9) < 1e-9 * p.algbw_gbps);
  assert.ok(Math.abs(p.busbw_gbps - p.algbw_gbps * 2 * 15 / 16) < 1e-9 * p.busbw_gbps);
  assert.ok(p.bound_time_s <= p.time_s);
  assert.match(p.algorithm, /ring|hierarchical|tree/);
});

test('collective --sweep prints a table from 8 B to 8 GiB; the algorithm changes with the size', () => {
  const r = run(['collective', '--system', 'dgx-h100', '--op', 'all_reduce', '--chips', '8', '--sweep']);
  assert.equal(r.status, 0, r.stderr);
  const rows = r.stdout.trim().split('\n').slice(2);
  assert.equal(rows.length, 31);
  const algorithms = new Set(rows.map((row) => row.trim().split(/\s{2,}/).pop()));
  assert.ok(algorithms.has('ring/LL') && algorithms.has('in-network reduction'), [...algorithms].join(', '));
});

test('collective --fabric puts a transport under the scale-out level: 8 B over EFA v1 by hand', () => {
  // flat LL ring of 16 on 2 nodes: call 10.8 µs + 28 NVLink steps × 0.47 + 2 crossings × 57 µs
  // (presets/fabrics/efa-v1.json) = 137.96 µs, plus 8 B · 1.875 / 45 GB/s (nothing at this size)
  const r = run(['collective', '--system', 'dgx-h100', '--fabric', 'efa-v1', '--op', 'all_reduce', '--chips', '16', '--bytes', '8', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const [p] = JSON.parse(r.stdout).points;
  assert.ok(Math.abs(p.time_s * 1e6 - 137.96) < 0.01, String(p.time_s * 1e6));
  const bad = run(['collective', '--system', 'dgx-h100', '--fabric', 'pigeon', '--op', 'all_reduce', '--chips', '16', '--bytes', '8']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /fabric: "pigeon" is not a fabric preset; one of: efa-v1/);
});

test('collective: bad options name the field and exit 2', () => {
  for (const [args, pattern] of [
    [['--system', 'dgx-h100', '--op', 'all_reduce', '--chips', '99999', '--bytes', '1'], /chips: must be an integer in \[2, 1024\]/],
    [['--system', 'dgx-h100', '--op', 'gather', '--chips', '8', '--bytes', '1'], /op: must be one of/],
    [['--system', 'nope', '--op', 'all_reduce', '--chips', '8', '--bytes', '1'], /system/],
    [['--system', 'dgx-h100', '--op', 'all_reduce', '--chips', 'eight'], /--chips: must be a number/],
    [['--bogus'], /--bogus: is not an option/],
  ]) {
    const r = run(['collective', ...args]);
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, pattern);
  }
});

test('envelope package-cost: the chiplet cost of a package, errors name the field', () => {
  const pkg = { dies: [{ area_mm2: 400, count: 2, node: '7nm-actuary-2022' }] };
  const ok = run(['package-cost', '-'], JSON.stringify(pkg));
  assert.equal(ok.status, 0, ok.stderr);
  // two 400 mm² dies at 7 nm on an organic substrate: $245.70 (tests/core/test_cost.cpp works it by hand)
  assert.ok(Math.abs(JSON.parse(ok.stdout).total_usd - 245.70) < 0.01);
  const bad = run(['package-cost', '-'], JSON.stringify({ dies: [{ area_mm2: 400, node: '1nm' }] }));
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /dies\[0\]\.node: unknown process node "1nm"/);
});

test('envelope package-cost loads every process-node preset', () => {
  const { nodes } = JSON.parse(fs.readFileSync(path.join(root, 'presets/costs/process-nodes.json'), 'utf8'));
  assert.ok(nodes.length >= 21);
  for (const { id } of nodes) {
    const r = run(['package-cost', '-'], JSON.stringify({ dies: [{ area_mm2: 600, node: id }] }));
    assert.equal(r.status, 0, `${id}: ${r.stderr}`);
    const out = JSON.parse(r.stdout);
    assert.ok(out.ok && out.total_usd > 0, id);
  }
  // 600 mm² at CSET's 5 nm, D0 0.11: yield 1.066^-10 = 0.52775 (worked in test_package_economics.cpp)
  const r = run(['package-cost', '-'], '{"dies":[{"area_mm2":600,"node":"5nm-cset-2020"}]}');
  assert.ok(Math.abs(JSON.parse(r.stdout).dies[0].yield - 0.52775) < 1e-5);
});

test('envelope package-cost: a die larger than one scanner field (858 mm²) is refused, two dies of its half are priced', () => {
  const refused = run(['package-cost', '-'], '{"dies":[{"area_mm2":1600,"node":"5nm-actuary-2022"}]}');
  assert.equal(refused.status, 2, refused.stdout);
  assert.match(refused.stderr, /dies\[0\]\.area_mm2: is 1600 mm²: larger than the reticle limit, 858 mm²/);
  const split = run(['package-cost', '-'], '{"dies":[{"area_mm2":800,"count":2,"node":"5nm-actuary-2022"}]}');
  assert.equal(split.status, 0, split.stderr);
  assert.ok(JSON.parse(split.stdout).total_usd > 0);
});

test('envelope package-cost: the H100 SXM5 against a published bill of materials, within 25 %', () => {
  // Silicon Analysts, "Cost Bridge" (siliconanalysts.com/tools/cost-bridge, as of February 2026,
  // derived from Epoch AI's Monte Carlo models, Raymond James and TrendForce): H100 SXM5 ≈ $3,320 =
  // logic die $300 + HBM $1,400 + CoWoS-S packaging $750 + test and assembly $920. The analysis's
  // own prices go in as inputs: its HBM line over the five active 16 GB HBM3 stacks ($280 each) and
  // its test-and-assembly line as test_usd. The rest is the model's: GH100's 814 mm² at the 5 nm
  // node preset ($16,988 a wafer, 0.11 defects/cm²), the Si interposer, every yield and scrap.
  // GH100 has 144 SMs and the H100 SXM5 enables 132 (NVIDIA H100 whitepaper, 2022); the SMs'
  // share of the die is not public, so the check holds across 0.3 – 0.7 of it, and without salvage.
  const h100 = (die) => ({
    kind: 'si_interposer', test_usd: 920,
    dies: [{ name: 'GH100', area_mm2: 814, node: '5nm-actuary-2022', ...die }],
    hbm: { type: 'hbm3', stacks: 5, usd_per_stack: 280, area_mm2: 110 },
  });
  const totals = [{}, ...[0.3, 0.5, 0.7].map((share) => ({ units: 144, units_needed: 132, unit_area_share: share }))].map((die) => {
    const r = run(['package-cost', '-'], JSON.stringify(h100(die)));
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout).total_usd;
  });
  for (const total of totals) assert.ok(Math.abs(total / 3320 - 1) <= 0.25, `$${total.toFixed(0)} against $3,320`);
  // Salvage brings the total down, the more so the more of the die the SMs cover.
  assert.ok(totals[0] > totals[1] && totals[1] > totals[2] && totals[2] > totals[3], totals.join(' > '));
});

test('envelope package-cost: salvage and wafer inputs out of range name their field', () => {
  const die = { area_mm2: 814, node: '5nm-actuary-2022' };
  const cases = [
    [{ dies: [{ ...die, units: 144, units_needed: 132 }] }, /dies\[0\]\.unit_area_share: is missing/],
    [{ dies: [{ ...die, units: 1, units_needed: 1, unit_area_share: 0.5 }] }, /dies\[0\]\.units: /],
    [{ dies: [{ ...die, units: 144, units_needed: 132, unit_area_share: 1 }] }, /dies\[0\]\.unit_area_share: /],
    [{ wafer_diameter_mm: 10, dies: [die] }, /wafer_diameter_mm: /],
    [{ edge_loss_mm: -1, dies: [die] }, /edge_loss_mm: /],
    [{ scribe_lane_mm: 20, dies: [die] }, /scribe_lane_mm: /],
  ];
  for (const [pkg, pattern] of cases) {
    const r = run(['package-cost', '-'], JSON.stringify(pkg));
    assert.equal(r.status, 2, JSON.stringify(pkg));
    assert.match(r.stderr, pattern);
  }
});

test('envelope package-cost: a yield that underflows is an error naming the field, not $0 or null', () => {
  for (const area of [850, 700]) {
    const pkg = { yield_model: 'poisson', dies: [{ area_mm2: area, node: { wafer_usd: 9346, defect_density_per_cm2: 100 } }] };
    const r = run(['package-cost', '-'], JSON.stringify(pkg));
    assert.equal(r.status, 2, `${area} mm²: ${r.stdout}`);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /dies\[0\]\.area_mm2: .*below 1e-12/);
  }
});

test('validate skips a case with a field out of range, naming it, and never dies on one', () => {
  const cases = JSON.parse(fs.readFileSync(casesFile, 'utf8'));
  const scored = new Set(JSON.parse(run(['validate', '--json', casesFile]).stdout).cases.map((c) => c.id));
  const inference = cases.find((c) => c.kind === 'inference' && scored.has(c.id));
  const collective = cases.find((c) => c.kind === 'collective' && scored.has(c.id));
  const broken = [
    // per_node 0 or 0.5 killed the run with SIGFPE (exit 136)
    { ...inference, id: 'per-node-0', hardware: { ...inference.hardware, per_node: 0 } },
    { ...inference, id: 'per-node-half', hardware: { ...inference.hardware, per_node: 0.5 } },
    { ...collective, id: 'negative-bytes', collective: { ...collective.collective, bytes: -1e9 } },
    { ...collective, id: 'tiny-measured', measured: { [collective.primary]: 5e-324 } },
  ];
  const file = path.join(os.tmpdir(), `envelope-range-cases-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify(broken));
  const r = run(['validate', '--json', file]);
  fs.rmSync(file);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.cases.length, 0);
  const reason = (id) => out.skipped.find((s) => s.id === id).reason;
  assert.match(reason('per-node-0'), /^hardware\.per_node is 0; allowed: an integer in \[1, 1e\+09\]$/);
  assert.match(reason('per-node-half'), /^hardware\.per_node is 0\.5; allowed/);
  assert.match(reason('negative-bytes'), /^collective\.bytes is -1e\+09; allowed: \[1, 1e\+15\]$/);
  assert.match(reason('tiny-measured'), /^measured\.busbw_gbps is 4\.94066e-324; allowed: \[1e-09, 1e\+15\]$/);
});

// core/SCHEMA.md's preset table names every built-in preset and nothing else, so a preset
// added without its documentation (or a stale key) fails here.
test('SCHEMA.md lists exactly the built-in presets', () => {
  const schema = fs.readFileSync(path.join(root, 'core/SCHEMA.md'), 'utf8');
  const row = (kind) => {
    const line = schema.split('\n').find((l) => l.startsWith(`| ${kind} | `));
    assert.ok(line, `SCHEMA.md has no "${kind}" row in its preset table`);
    return [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]).sort();
  };
  const r = run(['presets', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const presets = JSON.parse(r.stdout);
  for (const kind of ['models', 'chips', 'systems', 'engines', 'frameworks', 'scenarios']) {
    assert.deepEqual(row(kind), Object.keys(presets[kind]).sort(), `SCHEMA.md ${kind} row`);
  }
  const fabrics = fs.readdirSync(path.join(root, 'presets/fabrics')).map((f) => f.replace(/\.json$/, '')).sort();
  assert.deepEqual(row('fabrics'), fabrics, 'SCHEMA.md fabrics row');
});
