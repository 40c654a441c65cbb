// The architecture editor's newer fields under Node: the sliding window, multi-head latent
// attention (flat in the link, nested under "mla" for the engine) and models of several
// layer groups (only their model-wide fields edited, their groups summarised kind by kind,
// EP offered when any group has experts). No browser and no build needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPresets } from '../support/presets.mjs';
import { fromHash, toHash } from '../../web/js/state.js';
import { architecture, fromScenario, modelDocument, modelFields, presetValue, toScenario } from '../../web/js/scenario.js';
import { anyExperts, groupsOf, layerKinds, mergePatch, sameArchitecture } from '../../web/js/layer-groups.js';
import { flatModel } from '../../web/js/moe.js';
import { fieldsForPath } from '../../web/js/views/errors.js';

const presets = loadPresets();
const deepseek = presets.models['deepseek-v3'];
const scout = presets.models['llama-4-scout-17b-16e'];
const maverick = presets.models['llama-4-maverick-17b-128e'];

test('the sliding window: 0 is full attention, so 0 on a model without one is no edit', () => {
  assert.equal(presetValue(presets.models['mistral-7b'], 'sliding_window'), 4096);
  assert.equal(presetValue(presets.models['llama-2-70b'], 'sliding_window'), 0);
  assert.deepEqual(fromHash('#model=llama-2-7b&sliding_window=0', presets).state.model.edits, {});
  const { state } = fromHash('#model=mistral-7b&sliding_window=0', presets);
  assert.deepEqual(state.model.edits, { sliding_window: 0 });
  assert.deepEqual(toScenario(state).model, { preset: 'mistral-7b', sliding_window: 0 });
  assert.match(toHash(state, presets), /^#model=mistral-7b&sliding_window=0&/);
  assert.equal(fieldsForPath('model.sliding_window')[0], 'arch-sliding_window');
});

test('latent attention: the MLA fields of DeepSeek-V3, flat in the link and nested for the engine', () => {
  assert.ok(modelFields(deepseek).includes('kv_lora_rank'));
  assert.ok(!modelFields(presets.models['mixtral-8x7b']).includes('kv_lora_rank'));
  const arch = architecture({ model: { preset: 'deepseek-v3', edits: {} } }, presets);
  // DeepSeek's config: q_lora_rank 1536, kv_lora_rank 512, qk_rope_head_dim 64, qk_nope_head_dim 128, v_head_dim 128.
  assert.deepEqual([arch.q_lora_rank, arch.kv_lora_rank, arch.qk_rope_dim, arch.qk_nope_dim, arch.v_head_dim], [1536, 512, 64, 128, 128]);

  const hash = '#model=deepseek-v3&kv_lora_rank=256&system=hgx-h200&chips=8&tp=8&pp=1&batch=8&input=2048&output=256&precision=fp8&flash=on';
  const { state, error } = fromHash(hash, presets);
  assert.equal(error, null);
  assert.deepEqual(state.model.edits, { kv_lora_rank: 256 });
  assert.equal(toHash(state, presets), hash);
  assert.deepEqual(toScenario(state).model, { preset: 'deepseek-v3', mla: { kv_lora_rank: 256 } });
  assert.deepEqual(fromScenario(toScenario(state), presets).model, state.model);
  assert.equal(modelDocument(state.model, presets).mla.kv_lora_rank, 256);
  assert.equal(modelDocument(state.model, presets).mla.q_lora_rank, 1536, 'merged into the preset, as the engine does');

  assert.match(fromHash('#model=llama-2-70b&kv_lora_rank=512', presets).error, /latent-attention \(MLA\) setting and Llama-2-70B has no MLA/);
  assert.throws(() => fromScenario({ model: { preset: 'llama-2-70b', mla: { kv_lora_rank: 8 } }, system: 'dgx-h100' }, presets), /no latent attention/);
  assert.equal(fieldsForPath('model.mla.kv_lora_rank')[0], 'arch-kv_lora_rank');
  assert.equal(fieldsForPath('model.mla.q_lora_rank')[0], 'arch-q_lora_rank');
  assert.equal(fieldsForPath('model.mla')[0], 'arch-kv_lora_rank');
});

test('DeepSeek-V3 in groups: 3 dense layers, then 58 of 256 experts, all with latent attention', () => {
  assert.deepEqual(layerKinds(deepseek), [
    { layers: 3, groups: 1, attention: '128 heads, latent attention (KV latent 512)', ffn: 'dense, 18,432 wide' },
    { layers: 58, groups: 1, attention: '128 heads, latent attention (KV latent 512)', ffn: '256 experts, 8 per token, 1 shared, 2,048 wide' },
  ]);
  // The engine's resolved model is in groups; it is the same architecture as the flat preset,
  // and flat again it has the MLA fields the editor compares.
  const { layers, dense_layers: dense, moe, mla, ffn, heads, kv_heads, head_dim, gated_ffn, ...wide } = deepseek;
  const layer = { heads, kv_heads, head_dim, mla, ffn, gated_ffn, norm: 'rmsnorm', linear_bias: false };
  const resolved = { ...wide, layer_groups: [{ count: 3, ...layer }, { count: 58, ...layer, moe }] };
  assert.equal(sameArchitecture(deepseek, resolved), true);
  assert.equal(sameArchitecture(deepseek, mergePatch(resolved, { hidden: 4096 })), false);
  const edited = { ...resolved, layer_groups: [resolved.layer_groups[0], { ...resolved.layer_groups[1], mla: { ...mla, kv_lora_rank: 256 } }] };
  assert.equal(sameArchitecture(deepseek, edited), false);
  const flat = flatModel(resolved);
  assert.equal(flat.layers, 61);
  assert.equal(flat.dense_layers, 3);
  assert.equal(flat.kv_lora_rank, 512);
  assert.equal(flat.sliding_window, 0);
});

test('Llama 4: only the hidden size and the vocabulary are edited; the groups are summarised; EP applies', () => {
  assert.deepEqual(modelFields(scout), ['hidden', 'vocab']);
  assert.equal(groupsOf(scout).length, 24);
  // Per the preset: three chunked-attention layers (given an 8192-token window) in four, every
  // fourth over the whole context; every layer has 16 experts, 1 per token, and a shared one.
  assert.deepEqual(layerKinds(scout).map((k) => [k.layers, k.groups, k.attention]), [
    [36, 12, '40 heads, 8 KV heads, window of 8,192'],
    [12, 12, '40 heads, 8 KV heads, full attention'],
  ]);
  assert.ok(anyExperts(scout));
  assert.ok(anyExperts(maverick), 'Maverick interleaves dense and mixture layers');
  assert.ok(!anyExperts(presets.models['llama-3.1-70b']));
  assert.equal(sameArchitecture(scout, scout), true);

  const { state, error } = fromHash('#model=llama-4-scout-17b-16e&hidden=4096', presets);
  assert.equal(error, null);
  assert.deepEqual(toScenario(state).model, { preset: 'llama-4-scout-17b-16e', hidden: 4096 });
  assert.equal(modelDocument(state.model, presets).layer_groups.length, 24);
  // A layer field would leave a model the engine cannot read: refused in links and scenarios.
  for (const key of ['layers', 'heads', 'sliding_window', 'experts']) {
    assert.match(fromHash(`#model=llama-4-scout-17b-16e&${key}=8`, presets).error, /setting of one kind of layer.*24 layer groups/, key);
  }
  assert.throws(() => fromScenario({ model: { preset: 'llama-4-scout-17b-16e', heads: 8 }, system: 'dgx-h100' }, presets), /layer groups/);
});
