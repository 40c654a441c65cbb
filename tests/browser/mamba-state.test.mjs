// The architecture editor's Mamba layers, parallel blocks and routing imbalance, and prefix
// caching, under Node: which fields a model shows, how they travel in the link (only when
// not the preset's or the default, so older links load unchanged) and nest for the engine,
// the layer groups of Jamba in words, and where the engine's errors go. No browser and no
// build needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPresets } from '../support/presets.mjs';
import { fromHash, toHash, defaultState } from '../../web/js/state.js';
import { architecture, fromScenario, matchingScenario, modelDocument, modelFields, presetValue, toScenario } from '../../web/js/scenario.js';
import { layerKinds, sameArchitecture } from '../../web/js/layer-groups.js';
import { ATTENTION_FIELDS, hasMamba, mambaText } from '../../web/js/mamba.js';
import { importedModel } from '../../web/js/hf-import.js';
import { fieldsForPath } from '../../web/js/views/errors.js';

const presets = loadPresets();
const TAIL = 'system=dgx-h100&chips=8&tp=8&pp=1&batch=1&input=2048&output=256&precision=bf16&flash=on';
const OLD_LINK = `#model=llama-2-70b&${TAIL}`;

test('Mamba-130M shows the Mamba-1 fields in place of the attention fields, and may have no MLP', () => {
  const doc = presets.models['mamba-130m'];
  const fields = modelFields(doc);
  for (const f of ['d_inner', 'd_state', 'd_conv', 'dt_rank', 'layers', 'hidden', 'ffn', 'vocab']) assert.ok(fields.includes(f), f);
  // No attention, no parallel block beside it, no Mamba-2 heads on a Mamba-1 layer.
  for (const f of [...ATTENTION_FIELDS, 'parallel_block', 'mamba_heads', 'n_groups', 'kv_lora_rank', 'experts']) assert.ok(!fields.includes(f), f);
  // The published config: hidden 768, expand 2 (d_inner 1536), state_size 16, conv_kernel 4,
  // time_step_rank 48, 24 layers, no MLP.
  const arch = architecture({ model: { preset: 'mamba-130m', edits: {} } }, presets);
  assert.deepEqual([arch.layers, arch.hidden, arch.d_inner, arch.d_state, arch.d_conv, arch.dt_rank, arch.ffn], [24, 768, 1536, 16, 4, 48, 0]);
  // Every flat preset with Mamba layers: never an attention field in the editor.
  for (const [key, model] of Object.entries(presets.models)) {
    if (hasMamba(model)) assert.deepEqual(modelFields(model).filter((f) => ATTENTION_FIELDS.includes(f)), [], key);
  }
});

test('Mamba edits travel flat in the link and nested under "mamba" for the engine', () => {
  const hash = `#model=mamba-130m&ffn=1536&d_inner=3072&d_state=32&${TAIL}`;
  const { state, error } = fromHash(hash, presets);
  assert.equal(error, null);
  assert.deepEqual(state.model.edits, { ffn: 1536, d_inner: 3072, d_state: 32 });
  assert.equal(toHash(state, presets), hash);
  const sent = toScenario(state).model;
  assert.deepEqual(sent, { preset: 'mamba-130m', ffn: 1536, mamba: { d_inner: 3072, d_state: 32 } });
  // Merged into the preset as the engine does: the rest of the mixer kept, no attention added.
  const doc = modelDocument(state.model, presets);
  assert.deepEqual(doc.mamba, { d_inner: 3072, d_state: 32, d_conv: 4, dt_rank: 48 });
  assert.equal(ATTENTION_FIELDS.some((f) => f in doc), false);
  assert.deepEqual(fromScenario(toScenario(state), presets).model, state.model);
  assert.equal(sameArchitecture(presets.models['mamba-130m'], doc), false);
  assert.equal(sameArchitecture(presets.models['mamba-130m'], presets.models['mamba-130m']), true);
  // The preset's own values are no edits.
  assert.deepEqual(fromHash(`#model=mamba-130m&ffn=0&d_inner=1536&${TAIL}`, presets).state.model.edits, {});
});

test('a Mamba-2 model shows its scan heads and groups (the page\'s mamba_heads is the engine\'s mamba.heads)', () => {
  const v2 = { name: 'Mamba-2 test', layers: 4, hidden: 1024, vocab: 0, ffn: 0, gated_ffn: false,
    mamba: { d_inner: 2048, d_state: 128, d_conv: 4, heads: 32, n_groups: 4 } };
  const fields = modelFields(v2);
  assert.ok(fields.includes('mamba_heads') && fields.includes('n_groups'));
  assert.ok(!fields.includes('dt_rank') && !fields.includes('heads'));
  assert.equal(presetValue(v2, 'mamba_heads'), 32);
  assert.equal(presetValue({ ...v2, mamba: { ...v2.mamba, n_groups: undefined } }, 'n_groups'), 1, 'one group when left out');
  const local = { ...presets, models: { ...presets.models, v2 } };
  const state = { ...defaultState(local), model: { preset: 'v2', edits: { mamba_heads: 64, n_groups: 8 } } };
  assert.deepEqual(toScenario(state).model, { preset: 'v2', mamba: { heads: 64, n_groups: 8 } });
  assert.deepEqual(fromScenario(toScenario(state), local).model, state.model);
  assert.match(toHash(state, local), /^#model=v2&mamba_heads=64&n_groups=8&/);
});

test('links and scenarios that would put attention on a Mamba layer (or Mamba on attention) are refused', () => {
  const cases = [
    ['#model=mamba-130m&heads=12', /"heads" is an attention setting and Mamba-130M has Mamba layers, without attention/],
    ['#model=mamba-130m&sliding_window=4096', /"sliding_window" is an attention setting/],
    ['#model=mamba-130m&parallel_block=on', /"parallel_block" is an attention setting/],
    ['#model=mamba-130m&mamba_heads=8', /"mamba_heads" is not a setting of Mamba-130M's version of Mamba/],
    ['#model=llama-2-70b&d_inner=8192', /"d_inner" is a Mamba setting and Llama-2-70B has no Mamba layers/],
    ['#model=jamba-v0.1&d_state=32', /setting of one kind of layer and Jamba-v0.1 has 32 layer groups/],
  ];
  for (const [hash, message] of cases) {
    const { state, error } = fromHash(hash, presets);
    assert.match(error ?? '', message, hash);
    // The field is ignored; the link's model is kept, unedited.
    assert.equal(state.model.preset, hash.match(/model=([^&]+)/)[1], hash);
    assert.deepEqual(state.model.edits, {}, hash);
  }
  assert.throws(() => fromScenario({ model: { preset: 'mamba-130m', heads: 12 }, system: 'dgx-h100' }, presets), /Mamba layers, without attention.*heads/);
  assert.throws(() => fromScenario({ model: { preset: 'llama-2-70b', mamba: { d_inner: 8 } }, system: 'dgx-h100' }, presets), /no Mamba layers/);
});

test('Jamba in groups: Mamba layers with and without experts, one attention layer in eight', () => {
  // Jamba-v0.1's config: 32 layers, attn_layer_period 8 (offset 4): 4 attention layers;
  // expert_layer_period 2 (offset 1): 16 mixture layers of 16 experts, 2 per token; the
  // attention layers fall on even indices, so all 4 are dense. Mamba: expand 2 · 4096, state 16.
  assert.deepEqual(modelFields(presets.models['jamba-v0.1']), ['hidden', 'vocab']);
  assert.deepEqual(layerKinds(presets.models['jamba-v0.1']).map((k) => [k.layers, k.groups, k.attention, k.ffn]), [
    [12, 12, 'Mamba d_inner 8,192, state 16', 'dense, 14,336 wide'],
    [16, 16, 'Mamba d_inner 8,192, state 16', '16 experts, 2 per token, 14,336 wide'],
    [4, 4, '32 heads, 8 KV heads, full attention', 'dense, 14,336 wide'],
  ]);
  assert.deepEqual(layerKinds(presets.models['mamba-130m']), [{ layers: 24, groups: 1, attention: 'Mamba d_inner 1,536, state 16', ffn: 'no MLP' }]);
  // Mamba-2 (no preset yet): its heads and groups.
  assert.equal(mambaText({ mamba: { d_inner: 5120, d_state: 128, d_conv: 4, heads: 80, n_groups: 8 } }),
    'Mamba-2 d_inner 5,120, state 128, 80 heads in 8 groups');
  assert.equal(mambaText({ mamba: { d_inner: 5120, d_state: 128, d_conv: 4, heads: 80 } }), 'Mamba-2 d_inner 5,120, state 128, 80 heads in 1 group');
});

test('parallel attention + MLP: the preset\'s setting is no edit; a change goes into the link as on or off', () => {
  assert.equal(presetValue(presets.models['falcon-180b'], 'parallel_block'), true);
  assert.equal(presetValue(presets.models['llama-2-70b'], 'parallel_block'), false);
  assert.ok(modelFields(presets.models['llama-2-70b']).includes('parallel_block'));
  const on = fromHash(`#model=llama-2-70b&parallel_block=on&${TAIL}`, presets).state;
  assert.deepEqual(toScenario(on).model, { preset: 'llama-2-70b', parallel_block: true });
  assert.equal(toHash(on, presets), `#model=llama-2-70b&parallel_block=on&${TAIL}`);
  const off = fromHash(`#model=falcon-180b&parallel_block=off&${TAIL}`, presets).state;
  assert.deepEqual(toScenario(off).model, { preset: 'falcon-180b', parallel_block: false });
  assert.equal(toHash(off, presets), `#model=falcon-180b&parallel_block=off&${TAIL}`);
  assert.deepEqual(fromHash(`#model=falcon-180b&parallel_block=on&${TAIL}`, presets).state.model.edits, {});
  assert.deepEqual(fromScenario(toScenario(off), presets).model, off.model);
  assert.match(fromHash('#model=llama-2-70b&parallel_block=maybe', presets).error, /parallel_block = "maybe" should be on or off/);
});

test('routing imbalance: a mixture setting, 1 (balanced) by default and then left out', () => {
  const mixtral = presets.models['mixtral-8x7b'];
  assert.ok(modelFields(mixtral).includes('imbalance'));
  assert.ok(!modelFields(presets.models['llama-2-70b']).includes('imbalance'));
  assert.equal(presetValue(mixtral, 'imbalance'), 1);
  assert.deepEqual(fromHash(`#model=mixtral-8x7b&imbalance=1&${TAIL}`, presets).state.model.edits, {});
  const hash = `#model=mixtral-8x7b&imbalance=1.5&system=dgx-h100&chips=8&tp=2&pp=1&ep=4&batch=1&input=2048&output=256&precision=bf16&flash=on`;
  const { state, error } = fromHash(hash, presets);
  assert.equal(error, null);
  assert.equal(toHash(state, presets), hash);
  assert.deepEqual(toScenario(state).model, { preset: 'mixtral-8x7b', moe: { imbalance: 1.5 } });
  assert.deepEqual(fromScenario(toScenario(state), presets).model, state.model);
  // The engine echoes it only when ≠ 1: a resolved model with it is another architecture.
  assert.equal(sameArchitecture(mixtral, modelDocument(state.model, presets)), false);
  assert.match(fromHash('#model=llama-2-70b&imbalance=2', presets).error, /mixture-of-experts setting and Llama-2-70B has no experts/);
});

test('prefix caching: in the link and the scenario only when above 0; older links unchanged', () => {
  const { state: old, error: oldError } = fromHash(OLD_LINK, presets);
  assert.equal(oldError, null);
  assert.equal(old.workload.prefix_cache_hit, 0);
  assert.equal(toHash(old, presets), OLD_LINK);
  assert.equal('prefix_cache_hit' in toScenario(old).workload, false);
  assert.equal(matchingScenario(old, presets), 'llama2-70b-dgx-h100-tp8');

  const hash = `${OLD_LINK}&prefix_cache_hit=0.75&draft_tokens=4&acceptance_rate=0.8`;
  const { state, error } = fromHash(hash, presets);
  assert.equal(error, null);
  assert.equal(state.workload.prefix_cache_hit, 0.75);
  assert.equal(toHash(state, presets), hash);
  assert.equal(toScenario(state).workload.prefix_cache_hit, 0.75);
  assert.deepEqual(fromScenario(toScenario(state), presets).workload, state.workload);
  assert.equal(matchingScenario(state, presets), null);
  // Kept as typed, for the engine to name the range; 0 written out is no setting.
  assert.equal(fromHash(`${OLD_LINK}&prefix_cache_hit=1`, presets).state.workload.prefix_cache_hit, 1);
  assert.equal(toHash(fromHash(`${OLD_LINK}&prefix_cache_hit=0`, presets).state, presets), OLD_LINK);
  assert.match(fromHash('#mode=training&prefix_cache_hit=0.5', presets).error, /"prefix_cache_hit" is not a setting of training/);
  assert.match(fromHash(`${OLD_LINK}&prefix_cache_hit=half`, presets).error, /prefix_cache_hit = "half" is not a number/);
});

test('the engine\'s errors of the new fields find their inputs', () => {
  assert.equal(fieldsForPath('model.mamba.n_groups')[0], 'arch-n_groups');
  assert.equal(fieldsForPath('model.mamba.heads')[0], 'arch-mamba_heads');
  assert.equal(fieldsForPath('model.mamba.d_inner')[0], 'arch-d_inner');
  assert.equal(fieldsForPath('model.mamba')[0], 'arch-d_inner');
  // "a Mamba layer has no attention": arch-heads is hidden for such a model, so the model select.
  assert.deepEqual(fieldsForPath('model.heads'), ['arch-heads', 'model']);
  assert.equal(fieldsForPath('model.parallel_block')[0], 'arch-parallel_block');
  assert.equal(fieldsForPath('model.moe.imbalance')[0], 'arch-imbalance');
  assert.equal(fieldsForPath('model.ffn')[0], 'arch-ffn');
  assert.equal(fieldsForPath('workload.prefix_cache_hit')[0], 'prefix_cache_hit');
  // "TP = 7 must divide model.mamba.d_inner = 1536" is the mapping's error.
  assert.equal(fieldsForPath('parallelism.tp')[0], 'tp');
});

test('a Hugging Face import with attention never goes over a Mamba preset', () => {
  const doc = { name: 'tiny', hidden: 768, vocab: 50280, tied_embeddings: true, max_seq_len: 0, layers: 24, heads: 12,
    kv_heads: 12, head_dim: 64, ffn: 3072, gated_ffn: false, norm: 'rmsnorm', linear_bias: false };
  const { model } = importedModel({ model: doc, notes: [] }, presets, 'mamba-130m');
  assert.equal(hasMamba(presets.models[model.preset]), false, model.preset);
  assert.equal(toScenario({ ...defaultState(presets), model }).model.heads ?? presets.models[model.preset].heads, 12);
});
