// Mixture-of-experts models in the built page (build/site), headless Chromium: the mixture
// fields of the architecture editor and the EP input appear for Mixtral and not for a dense
// model, EP and the experts reach the engine (the expert operators, the EP dimension of the
// mapping, the active parameters), engine errors land at EP and at the mixture fields, and
// training shows the experts' all-to-alls as their own part of the step.
// Run after ./dev.sh build:  node --test tests/browser/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open as openIn, assertClean, inputs, headline } from './helpers.mjs';

let context;
let base;
const open = (url) => openIn(context, url);
useBrowser((session) => ({ context, base } = session));

const MOE_INPUTS = ['#arch-experts', '#arch-top_k', '#arch-expert_ffn', '#arch-shared_experts', '#arch-dense_layers'];
const hash = (page) => page.evaluate(() => location.hash);

test('Mixtral shows the mixture fields and EP; EP 4 with TP 2 on a DGX H100 runs the experts; a dense model hides both', async () => {
  const page = await open(base);
  assert.equal(await page.isVisible('[data-field="ep"]'), false, 'no EP for the default dense model');
  await page.click('#arch summary');
  for (const id of MOE_INPUTS) assert.equal(await page.isVisible(id), false, `${id} hidden for Llama-2-70B`);

  await page.selectOption('#model', 'mixtral-8x7b');
  await page.waitForFunction(() => /Mixtral/.test(document.querySelector('#scenario-title').textContent));
  assert.equal(await page.isVisible('#arch-moe'), true);
  assert.deepEqual(await Promise.all(MOE_INPUTS.map((id) => page.inputValue(id))), ['8', '2', '14336', '0', '0']);
  assert.equal(await page.isVisible('#ep'), true);
  assert.equal(await page.inputValue('#ep'), '1');
  assert.match(await page.textContent('#dp-hint'), /carved out of DP when EP divides DP; otherwise the experts are folded/);
  assert.match(await page.textContent('[data-metric="params"]'), /46\.7B.*12\.9B active/);
  assert.doesNotMatch(await hash(page), /[&#]ep=/);

  await page.fill('#tp', '2');
  await page.waitForFunction(() => /[&#]tp=2&/.test(location.hash));
  await page.fill('#ep', '4');
  await page.waitForFunction(() => /[&#]ep=4/.test(location.hash) && /EP 4/.test(document.querySelector('#scenario-desc').textContent));
  assert.equal(await page.isVisible('#general-error'), false);
  assert.match(await page.textContent('#scenario-desc'), /TP 2 × DP 4 · EP 4/);
  await page.check('#table-prefill');
  const ops = await page.textContent('#ops tbody');
  assert.match(ops, /expert_up/);
  assert.match(ops, /moe_dispatch/);
  assert.match(ops, /moe_combine/);
  // The mapping offers EP as a colour and lists the EP groups' levels.
  assert.ok(await page.$('#mapping-dims li[data-dimension="ep"]'));
  await page.click('label[for="map-ep"]');
  await page.waitForFunction(() => /[&#]map=ep/.test(location.hash));
  assert.match(await page.textContent('#mapping-note'), /EP groups/);
  await assertClean(page);

  // The link restores the same inputs and numbers.
  const link = await hash(page);
  const form = await inputs(page);
  const shown = await headline(page);
  const copy = await open(base + link);
  assert.deepEqual(await inputs(copy), form);
  assert.deepEqual(await headline(copy), shown);
  assert.equal(await copy.isVisible('#ep'), true);
  await assertClean(copy);
  await copy.close();

  // EP 3 divides neither the 8 experts nor DP 4: the engine's error shows at EP.
  await page.fill('#ep', '3');
  await page.locator('#ep-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#ep-error'), /EP = 3/);
  assert.equal(await page.getAttribute('#ep', 'aria-invalid'), 'true');
  await page.fill('#ep', '4');
  await page.locator('#ep-error').waitFor({ state: 'hidden' });

  // A mixture field edit goes into the link; its error shows at the field.
  await page.fill('#arch-experts', '16');
  await page.waitForFunction(() => /[&#]experts=16/.test(location.hash));
  assert.match(await page.textContent('#scenario-title'), /\(modified\)/);
  await page.fill('#arch-top_k', '17');
  await page.locator('#arch-top_k-error').waitFor({ state: 'visible' });
  await page.click('#arch-reset');
  await page.locator('#arch-top_k-error').waitFor({ state: 'hidden' });
  assert.doesNotMatch(await hash(page), /[&#](experts|top_k)=/);

  // A dense model: no mixture fields, no EP (and EP back to 1).
  await page.selectOption('#model', 'llama-3-8b');
  await page.waitForFunction(() => /Llama-3-8B/i.test(document.querySelector('#scenario-title').textContent));
  assert.equal(await page.isVisible('#arch-moe'), false);
  for (const id of MOE_INPUTS) assert.equal(await page.isVisible(id), false, `${id} hidden for a dense model`);
  assert.equal(await page.isVisible('[data-field="ep"]'), false);
  assert.doesNotMatch(await hash(page), /[&#]ep=/);
  assert.doesNotMatch(await page.textContent('#dp-hint'), /EP/);
  assert.doesNotMatch(await page.textContent('[data-metric="params"]'), /active/);
  assert.equal(await page.isVisible('#general-error'), false);
  await assertClean(page);
  await page.close();
});

test('training a mixture: EP in the training inputs, the experts\' all-to-alls in the breakdown', async () => {
  const page = await open(`${base}#mode=training&model=mixtral-8x7b&system=dgx-h100&chips=8&tp=2&pp=1&ep=4&sp=on&zero=1`
    + '&seq=4096&global_batch=64&micro_batch=1&recompute=full&precision=bf16');
  await page.waitForSelector('[data-metric="step"]');
  assert.equal(await page.isVisible('#general-error'), false);
  assert.equal(await page.isVisible('#ep'), true);
  assert.equal(await page.inputValue('#ep'), '4');
  const part = page.locator('#breakdown-list li[data-part="ep_s"]');
  assert.match(await part.textContent(), /Expert all-to-alls/);
  assert.ok(Number(await part.getAttribute('data-seconds')) > 0);
  // Its own colour in the chart: a series of that name.
  const series = await page.evaluate(() => window.echarts.getInstanceByDom(document.querySelector('#breakdown-chart'))
    .getOption().series.map((s) => [s.name, s.itemStyle.color]));
  const colours = new Map(series);
  assert.ok(colours.has('Expert all-to-alls'));
  assert.equal(new Set(colours.values()).size, colours.size, 'each part its own colour');
  assert.match(await page.textContent('[data-metric="params"]'), /12\.9B active/);
  assert.match(await page.textContent('#scenario-desc'), /EP 4/);

  // EP 3 in training: the error at EP as well.
  await page.fill('#ep', '3');
  await page.locator('#ep-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#ep-error'), /EP = 3/);
  await assertClean(page);
  await page.close();
});
