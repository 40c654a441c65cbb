// The page's side of the Hugging Face import under Node (no browser, no build): which preset
// an imported model goes over, which fields become edits, what the notes add, and the
// imported model's name through the link and the scenario.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPresets } from '../support/presets.mjs';
import { importedModel } from '../../web/js/hf-import.js';
import { fromHash, toHash, defaultState } from '../../web/js/state.js';
import { fromScenario, modelFields, toScenario } from '../../web/js/scenario.js';

const presets = loadPresets();

// Model documents as `envelope import-hf` writes them (the fields the page reads).
const layer = { heads: 32, kv_heads: 4, head_dim: 128, ffn: 6144, gated_ffn: true, norm: 'rmsnorm', linear_bias: false };
const qwen3 = { name: 'Qwen/Qwen3-30B-A3B', hidden: 2048, vocab: 151936, tied_embeddings: false, max_seq_len: 40960,
  layers: 48, ...layer, moe: { experts: 128, top_k: 8, expert_ffn: 768, shared_experts: 0 } };
const gpt2 = { name: 'gpt2', hidden: 768, vocab: 50257, tied_embeddings: true, max_seq_len: 1024, layers: 12, heads: 12,
  kv_heads: 12, head_dim: 64, ffn: 3072, gated_ffn: false, norm: 'layernorm', linear_bias: true };

test('a mixture goes over a preset with experts, its sizes as edits and its name kept', () => {
  const { model, notes } = importedModel({ model: qwen3, notes: ['q_norm and k_norm ...'] }, presets, 'llama-2-70b');
  const base = presets.models[model.preset];
  assert.ok(base.moe?.experts > 0, model.preset);
  assert.equal(model.name, 'Qwen/Qwen3-30B-A3B');
  for (const [field, value] of Object.entries({ layers: 48, hidden: 2048, kv_heads: 4, vocab: 151936 })) {
    if (base[field] !== value) assert.equal(model.edits[field], value, field);
  }
  if (base.moe.experts !== 128) assert.equal(model.edits.experts, 128);
  assert.equal(notes[0], 'q_norm and k_norm ...');
});

test('a GPT-style model goes over the preset with LayerNorm, biases and tied embeddings', () => {
  const { model, notes } = importedModel({ model: gpt2, notes: [] }, presets, 'llama-2-70b');
  const base = presets.models[model.preset];
  assert.equal(base.norm, 'layernorm');
  assert.equal(base.linear_bias, true);
  assert.equal(base.tied_embeddings, true);
  assert.ok(notes.every((n) => !/no field for (norm|linear_bias|tied_embeddings)/.test(n)), notes.join(' | '));
  // A property the editor cannot hold is said: a GPT-2 with untied embeddings.
  const untied = importedModel({ model: { ...gpt2, tied_embeddings: false }, notes: [] }, presets, 'llama-2-70b');
  if (presets.models[untied.model.preset].tied_embeddings) {
    assert.ok(untied.notes.some((n) => /no field for tied_embeddings/.test(n)));
  }
});

test('latent attention goes only over a preset with latent attention', () => {
  // The preset as the engine writes it back: its dense layers, then its mixture layers.
  const v3 = presets.models['deepseek-v3'];
  const pick = (keys) => Object.fromEntries(keys.map((k) => [k, structuredClone(v3[k])]));
  const dense = pick(['heads', 'kv_heads', 'head_dim', 'mla', 'ffn', 'gated_ffn', 'norm', 'linear_bias']);
  const doc = { ...pick(['hidden', 'vocab', 'tied_embeddings', 'max_seq_len', 'norm']), name: 'deepseek-ai/DeepSeek-V3',
    layer_groups: [{ count: v3.dense_layers, ...dense }, { count: v3.layers - v3.dense_layers, ...dense, moe: v3.moe }] };
  const { model } = importedModel({ model: doc, notes: [] }, presets, 'llama-2-70b');
  assert.equal(model.preset, 'deepseek-v3');
  assert.deepEqual(model.edits, {});
  assert.equal(model.name, 'deepseek-ai/DeepSeek-V3');
  // Other latent sizes: edits where the editor has fields for them, else refused.
  const other = structuredClone(doc);
  for (const g of other.layer_groups) g.mla = { ...g.mla, kv_lora_rank: 256 };
  if (modelFields(presets.models['deepseek-v3']).includes('kv_lora_rank')) {
    assert.equal(importedModel({ model: other, notes: [] }, presets, 'llama-2-70b').model.edits.kv_lora_rank, 256);
  } else {
    assert.throws(() => importedModel({ model: other, notes: [] }, presets, 'llama-2-70b'), /latent attention unlike any preset's/);
  }
  // A model without latent attention never goes over one with it.
  const plain = structuredClone(doc);
  for (const g of plain.layer_groups) delete g.mla;
  assert.notEqual(importedModel({ model: plain, notes: [] }, presets, 'llama-2-70b').model.preset, 'deepseek-v3');
});

test('layers of several kinds in turn are refused with the way out', () => {
  const groups = [{ count: 1, ...layer }, { count: 1, ...layer, moe: qwen3.moe }, { count: 1, ...layer }];
  const doc = { name: 'x', hidden: 2048, vocab: 1000, tied_embeddings: false, max_seq_len: 0, layer_groups: groups, norm: 'rmsnorm' };
  assert.throws(() => importedModel({ model: doc, notes: [] }, presets, 'llama-2-70b'), /3 groups of layers.*envelope import-hf/);
});

test('the imported name travels through the link and the scenario, and goes with a new preset', () => {
  const state = structuredClone(defaultState(presets));
  state.model = { preset: 'llama-2-70b', edits: { layers: 32 }, name: 'meta-llama/Llama-3.1-8B' };
  const hash = toHash(state, presets);
  assert.match(hash, /&model_name=meta-llama%2FLlama-3\.1-8B&/);
  const back = fromHash(hash, presets);
  assert.equal(back.error, null);
  assert.deepEqual(back.state.model, state.model);
  const scenario = toScenario(state);
  assert.deepEqual(scenario.model, { preset: 'llama-2-70b', name: 'meta-llama/Llama-3.1-8B', layers: 32 });
  assert.deepEqual(fromScenario(scenario, presets).model, state.model);
  // A name alone (no edits) is still a reference with the preset behind it.
  assert.deepEqual(toScenario({ ...state, model: { preset: 'llama-2-70b', edits: {}, name: 'n' } }).model,
    { preset: 'llama-2-70b', name: 'n' });
  // The preset's own name is no edit.
  assert.equal(fromHash('#model=llama-2-70b&model_name=Llama-2-70B', presets).state.model.name, undefined);
});
