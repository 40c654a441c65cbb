// "Import a Hugging Face config.json" in the built page (build/site), headless Chromium:
// pasting, choosing and dropping a config fill the architecture fields, the notes appear
// beside the control, the link carries the imported model, and errors show next to it.
// Run after ./dev.sh build:  node --test tests/browser/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open as openIn, assertClean, inputs, headline } from './helpers.mjs';
import { llama31_8b, qwen3_30b_a3b } from '../support/hf-configs.mjs';

let context;
let base;
const open = (url) => openIn(context, url);
useBrowser((session) => ({ context, base } = session));

const hash = (page) => page.evaluate(() => location.hash);
const qwen = { ...qwen3_30b_a3b, _name_or_path: 'Qwen/Qwen3-30B-A3B' };

async function paste(page, config) {
  if (!(await page.isVisible('#hf-config'))) await page.click('#hf-import summary');
  await page.fill('#hf-config', typeof config === 'string' ? config : JSON.stringify(config, null, 2));
  await page.click('#hf-import-button');
}

test('a pasted Qwen3-30B-A3B config fills the mixture fields, notes beside it, the link carries it', async () => {
  const page = await open(base);
  await paste(page, qwen);
  await page.waitForFunction(() => /Qwen\/Qwen3-30B-A3B/.test(document.querySelector('#scenario-title').textContent));
  assert.equal(await page.isVisible('#hf-error'), false);
  // A mixture goes over a preset with experts (the one closest to it); the fields hold the
  // config's sizes.
  const preset = await page.inputValue('#model');
  assert.equal(await page.isVisible('#arch-moe'), true);
  const fields = ['layers', 'hidden', 'heads', 'kv_heads', 'head_dim', 'vocab', 'experts', 'top_k', 'expert_ffn', 'shared_experts'];
  assert.deepEqual(await Promise.all(fields.map((f) => page.inputValue(`#arch-${f}`))),
    ['48', '2048', '32', '4', '128', '151936', '128', '8', '768', '0']);
  assert.equal(await page.isVisible('#arch-experts'), true, 'the architecture editor is opened');
  assert.match(await page.textContent('#hf-status'), /^Imported Qwen\/Qwen3-30B-A3B: the architecture fields hold it, over .+'s preset/);
  const notes = await page.textContent('#hf-notes');
  assert.match(notes, /q_norm and k_norm \(256 parameters per layer, 12,288 in all\) are not counted/);
  if (preset === 'mixtral-8x7b') assert.match(notes, /trained context stays Mixtral-8x7B-v0.1's 32768 tokens \(the config says 40960\)/);
  // 30,532,110,336 parameters, 3.35B active (the published 30.5B and 3.3B, less the q/k norms).
  assert.match(await page.textContent('[data-metric="params"]'), /30\.5B.*3\.35B active/);
  assert.doesNotMatch(await page.textContent('#scenario-title'), /modified/);
  const link = await hash(page);
  assert.match(link, new RegExp(`[#&]model=${preset}&`));
  if (preset === 'mixtral-8x7b') assert.match(link, /[&]experts=128&.*expert_ffn=768/);
  assert.match(link, /[&]model_name=Qwen%2FQwen3-30B-A3B/);
  assert.equal(await page.isVisible('#general-error'), false);
  await assertClean(page);

  // The link alone restores the model: the same inputs, numbers and title.
  const form = await inputs(page);
  const shown = await headline(page);
  const copy = await open(base + link);
  assert.deepEqual(await inputs(copy), form);
  assert.deepEqual(await headline(copy), shown);
  assert.match(await copy.textContent('#scenario-title'), /^Qwen\/Qwen3-30B-A3B on /);
  await assertClean(copy);
  await copy.close();

  // Resetting the architecture goes back to the preset, name included.
  await page.click('#arch-reset');
  await page.waitForFunction(() => !/model_name=/.test(location.hash));
  assert.doesNotMatch(await page.textContent('#scenario-title'), /Qwen\//);
  await page.close();
});

test('a chosen Llama-3.1-8B file goes over a dense preset and gives the published 8.03B', async () => {
  const page = await open(base);
  await page.click('#hf-import summary');
  const config = { ...llama31_8b, _name_or_path: 'meta-llama/Llama-3.1-8B' };
  await page.setInputFiles('#hf-file', { name: 'config.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(config)) });
  await page.waitForFunction(() => /Llama-3\.1-8B/.test(document.querySelector('#scenario-title').textContent));
  assert.match(await page.textContent('[data-metric="params"]'), /8\.03B/);
  assert.equal(await page.inputValue('#arch-kv_heads'), '8');
  assert.equal(await page.inputValue('#arch-ffn'), '14336');
  assert.equal(await page.isVisible('#arch-experts'), false);
  assert.equal(await page.isVisible('[data-field="ep"]'), false);
  assert.match(await page.textContent('#hf-notes'), /rope_scaling \(llama3\) ignored: it does not change cost/);
  // The file's text is shown in the box, so it can be edited and imported again.
  assert.match(await page.inputValue('#hf-config'), /"num_hidden_layers":32/);
  await assertClean(page);
  await page.close();
});

test('errors show next to the control and leave the model as it was', async () => {
  const page = await open(base);
  const before = await hash(page);
  await paste(page, '{"hidden_size": 4096,');
  await page.locator('#hf-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#hf-error'), /The pasted text could not be imported: not valid JSON/);
  assert.equal(await page.getAttribute('#hf-config', 'aria-invalid'), 'true');

  await paste(page, { ...llama31_8b, num_hidden_layers: undefined });
  await page.waitForFunction(() => /num_hidden_layers: is required/.test(document.querySelector('#hf-error').textContent));

  // A file dropped on the panel: a family the importer does not know is named.
  const drop = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'config.json', { type: 'application/json' }));
    return dt;
  }, JSON.stringify({ ...llama31_8b, architectures: ['T5ForConditionalGeneration'], model_type: 't5' }));
  await page.dispatchEvent('#hf-import', 'drop', { dataTransfer: drop });
  await page.waitForFunction(() => /config\.json could not be imported: model_type: "t5" is not supported yet/
    .test(document.querySelector('#hf-error').textContent));

  // Layers of two kinds in turn do not fit the editor: said so, with the way out.
  await paste(page, { ...qwen3_30b_a3b, decoder_sparse_step: 2 });
  await page.waitForFunction(() => /48 groups of layers of different shapes.*envelope import-hf/
    .test(document.querySelector('#hf-error').textContent));
  assert.equal(await hash(page), before, 'a failed import changes nothing');

  // A good config clears the error.
  await paste(page, qwen);
  await page.locator('#hf-error').waitFor({ state: 'hidden' });
  assert.equal(await page.getAttribute('#hf-config', 'aria-invalid'), null);
  await assertClean(page);
  await page.close();
});
