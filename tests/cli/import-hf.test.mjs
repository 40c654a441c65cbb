// `envelope import-hf CONFIG.json [--name NAME]`: the model document on stdout, the notes
// and the parameter count on stderr; a bad config exits 2 naming the field, nothing on stdout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cli } from '../support/paths.mjs';
import { llama31_8b, mixtral8x7b, qwen3_30b_a3b } from '../support/hf-configs.mjs';

const run = (args, input) => spawnSync(cli, args, { input, encoding: 'utf8' });
const importHf = (config, ...args) => run(['import-hf', '-', ...args], JSON.stringify(config));

test('a config file becomes a model document; notes and the parameter count go to stderr', () => {
  const file = path.join(os.tmpdir(), `envelope-hf-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify(llama31_8b, null, 2));
  const r = run(['import-hf', file, '--name', 'Llama-3.1-8B']);
  fs.rmSync(file);
  assert.equal(r.status, 0, r.stderr);
  const model = JSON.parse(r.stdout);
  assert.equal(model.name, 'Llama-3.1-8B');
  assert.deepEqual([model.layers, model.hidden, model.heads, model.kv_heads, model.head_dim, model.ffn, model.vocab],
    [32, 4096, 32, 8, 128, 14336, 128256]);
  assert.equal(model.gated_ffn, true);
  assert.equal(model.max_seq_len, 131072);
  assert.match(r.stderr, /^envelope import-hf: note: rope_scaling \(llama3\) ignored: it does not change cost$/m);
  assert.match(r.stderr, /^envelope import-hf: Llama-3\.1-8B: 8\.03B parameters$/m);
});

test('the document evaluates as the scenario\'s model, and a mixture keeps its experts', () => {
  const r = importHf(qwen3_30b_a3b, '--name', 'Qwen3-30B-A3B');
  assert.equal(r.status, 0, r.stderr);
  const model = JSON.parse(r.stdout);
  assert.deepEqual(model.moe, { experts: 128, top_k: 8, expert_ffn: 768, shared_experts: 0 });
  assert.match(r.stderr, /q_norm and k_norm/);
  assert.match(r.stderr, /30\.53B parameters, 3\.353B active per token/);
  const scenario = { model, system: 'dgx-h100', parallelism: { tp: 4 },
    workload: { batch: 8, input_tokens: 1024, output_tokens: 128, precision: 'bf16' } };
  const e = run(['eval', '-'], JSON.stringify(scenario));
  assert.equal(e.status, 0, e.stderr);
  assert.equal(JSON.parse(e.stdout).scenario.model.name, 'Qwen3-30B-A3B');
});

test('the Mixtral config gives the mixtral-8x7b preset\'s architecture', () => {
  const r = importHf(mixtral8x7b);
  assert.equal(r.status, 0, r.stderr);
  const mine = JSON.parse(r.stdout);
  const preset = JSON.parse(run(['presets', '--json']).stdout).models['mixtral-8x7b'];
  for (const key of ['layers', 'hidden', 'heads', 'kv_heads', 'head_dim', 'ffn', 'gated_ffn', 'moe', 'vocab',
    'tied_embeddings', 'norm', 'linear_bias', 'max_seq_len']) {
    assert.deepEqual(mine[key], preset[key], key);
  }
});

const bad = [
  ['missing num_hidden_layers', { ...llama31_8b, num_hidden_layers: undefined }, 'num_hidden_layers: is required'],
  ['negative size', { ...llama31_8b, hidden_size: -1 }, 'hidden_size: must be an integer in [1, 10000000], got -1'],
  ['KV heads not dividing the heads', { ...llama31_8b, num_key_value_heads: 5 },
    'num_key_value_heads: must divide the 32 query heads'],
  ['unknown family', { ...llama31_8b, model_type: 't5' }, 'model_type: "t5" is not supported yet (supported: llama,'],
];
for (const [name, config, message] of bad) {
  test(`a bad config (${name}) exits 2 with the field on stderr and nothing on stdout`, () => {
    const r = importHf(config);
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.ok(r.stderr.startsWith(`envelope: -: ${message}`), r.stderr);
  });
}

test('garbage, endless input, a missing file and bad usage are bad input too', () => {
  let r = run(['import-hf', '-'], '{"hidden_size": ');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^envelope: -: not valid JSON/);
  r = spawnSync(cli, ['import-hf', '/dev/zero'], { encoding: 'utf8', timeout: 10000 });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /larger than the limit/);
  r = run(['import-hf', path.join(os.tmpdir(), 'no-such-config.json')]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /cannot read/);
  for (const args of [['import-hf'], ['import-hf', 'a.json', 'b.json'], ['import-hf', 'a.json', '--name'], ['import-hf', '--json', 'a']]) {
    r = run(args);
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /usage: envelope import-hf/);
  }
});
