// The export formats (pure): CSV quoting and formula guarding, the operator CSV, file names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csvField, exportDocument, fileName, opsCsv, pointsCsv } from '../../web/js/share.js';

test('CSV fields are quoted when needed and never start a formula', () => {
  assert.equal(csvField(1.5e-3), '0.0015');
  assert.equal(csvField(NaN), '');
  assert.equal(csvField('attn, qkv'), '"attn, qkv"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField('=HYPERLINK("x")'), '"\'=HYPERLINK(""x"")"');
  assert.equal(csvField('-1'), "'-1");
});

test('the operator CSV has one row per operator and stage, in seconds and bytes', () => {
  const op = { name: 'qkv_proj', class: 'gemm', count: 80, flops: 2e9, bytes_read: 3e6, bytes_written: 1e6, network_bytes: 0, time_s: 1e-4, total_time_s: 8e-3, bound: 'compute' };
  const result = { phases: { decode: { ops: [op, { ...op, name: 'all_reduce', stage: 1, bound: 'network' }] } } };
  const lines = opsCsv(result, 'decode').split('\r\n');
  assert.equal(lines[1], 'decode,0,qkv_proj,,gemm,80,2000000000,3000000,1000000,0,0.0001,0.008,compute');
  assert.match(lines[2], /^decode,1,all_reduce,/);
  assert.equal(lines[3], '');
  assert.equal(opsCsv(result, 'prefill'), 'phase,stage,operator,variant,class,count,flops,bytes_read,bytes_written,network_bytes,time_s,total_time_s,bound\r\n');
});

test('file names come from the scenario; the export document names its format', () => {
  assert.equal(fileName({ model: 'llama-2-70b', system: { preset: 'dgx-h100', count: 8 } }, '.json'), 'envelope-llama-2-70b-dgx-h100.json');
  assert.equal(fileName({ model: { preset: 'Qwen/Qwen3 30B' }, system: 'x' }, '.csv'), 'envelope-qwen-qwen3-30b-x.csv');
  assert.deepEqual(Object.keys(exportDocument({ link: 'l', scenario: {}, result: {}, engineVersion: '1' })),
    ['format', 'version', 'engine', 'link', 'scenario', 'result']);
});

test('a sweep\'s or trade-off\'s points as CSV: the engine\'s names, nested ones dotted, every column once', () => {
  const points = [
    { setting: { hbm_stacks: 4, chiplets: 1 }, ok: true, fits: true, package_usd: 3320.5, ttft_s: 0.0214 },
    { setting: { hbm_stacks: 8, chiplets: 1 }, ok: false, error: { path: 'scenario.cost.package', message: 'too big, "really"' } },
  ];
  assert.equal(pointsCsv(points), [
    'setting.hbm_stacks,setting.chiplets,ok,fits,package_usd,ttft_s,error.path,error.message',
    '4,1,true,true,3320.5,0.0214,,',
    '8,1,false,,,,scenario.cost.package,"too big, ""really"""',
  ].join('\r\n') + '\r\n');
  assert.equal(pointsCsv([]), '\r\n');
});
