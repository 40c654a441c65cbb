// "How is this computed" in the built page: every headline number has a button (keyboard,
// mouse and touch) that opens its formula with this result's values, the operators behind it
// and a link to its methodology section; the panel stays open, with new numbers, after an edit.
// Run after ./dev.sh build (or ENVELOPE_BUILD=… ./dev.sh site).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open as openIn, assertClean, metric, setField } from './helpers.mjs';

let context;
let base;
let browser;
const open = (url) => openIn(context, url);
useBrowser((session) => {
  ({ context, base } = session);
  browser = session.browser;
});

const TRAINING = '#mode=training&model=llama-3-8b&system=dgx-h100&chips=8&tp=1&pp=1';
const panel = (page, id, root = 'summary') => page.locator(`#explain-${root}-${id}`);
const toggle = (page, id) => page.locator(`[data-metric="${id}"] .explain-toggle`);

test('each inference headline opens its formula by keyboard; the values are this result\'s', async () => {
  const page = await open(base);
  for (const id of ['ttft', 'tpot', 'e2e', 'throughput', 'prefill', 'memory']) {
    assert.equal(await toggle(page, id).getAttribute('aria-expanded'), 'false', id);
    assert.equal(await panel(page, id).isVisible(), false, id);
  }
  // Keyboard: focus the button, Enter opens, Escape closes and gives the focus back.
  await toggle(page, 'tpot').focus();
  await page.keyboard.press('Enter');
  assert.equal(await toggle(page, 'tpot').getAttribute('aria-expanded'), 'true');
  const text = await panel(page, 'tpot').innerText();
  // METHODOLOGY §21 (the hand check of this scenario): TPOT expected = 10.80403 ms over 255
  // decode steps (256 output tokens), so a decode time of 2.755 s.
  assert.match(text, /TPOT = decode time ÷ \(output − 1\) = 2\.76\s?s ÷ 255 = 10\.8\s?ms/);
  assert.equal((await metric(page, 'tpot')).replace(/\s/g, ''), '10.8ms');
  // The operators behind it: the top four of the decode phase, each with its share.
  const ops = await panel(page, 'tpot').locator('.explain-ops li').allInnerTexts();
  assert.equal(ops.length, 4);
  assert.match(ops[0], /^mlp_up .*\(\d+\.\d%\)$/);
  assert.match(await panel(page, 'tpot').locator('.explain-more a').getAttribute('href'), /^methodology\.html#headline-numbers$/);
  await page.keyboard.press('Tab'); // into the panel's link
  await page.keyboard.press('Escape');
  assert.equal(await panel(page, 'tpot').isVisible(), false);
  assert.equal(await page.evaluate(() => document.activeElement.closest('[data-metric]')?.dataset.metric
    + ' ' + document.activeElement.className), 'tpot explain-toggle');

  // Mouse: the throughput panel has the per-chip rate; the memory panel its parts.
  await toggle(page, 'throughput').click();
  assert.match(await panel(page, 'throughput').innerText(), /throughput = replicas × batch × output tokens ÷ E2E = 1 × 1 × 256 ÷ 2\.84\s?s = 90\.2 tokens\/s/);
  assert.match(await panel(page, 'throughput').innerText(), /per chip = throughput ÷ chips = 90\.2 tokens\/s ÷ 8 = 11\.3 tokens\/s/);
  await toggle(page, 'memory').click();
  const memory = await panel(page, 'memory').innerText();
  assert.match(memory, /memory per chip = weights \+ KV cache \+ activations = .* = 17\.5\s?GB/);
  assert.match(memory, /weights: 17\.2\s?GB \(9\d\.\d%\)/);
  assert.match(await panel(page, 'memory').locator('.explain-more a').getAttribute('href'), /#memory-per-chip$/);

  // An edit redraws the cards: the open panels stay open, with the new numbers.
  await setField(page, '#output', 129, '[data-metric="e2e"] .metric-value');
  assert.equal(await panel(page, 'throughput').isVisible(), true);
  assert.match(await panel(page, 'throughput').innerText(), /× 129 ÷/);
  assert.equal(await panel(page, 'tpot').isVisible(), false);
  await assertClean(page);
  await page.close();
});

test('the cost numbers explain themselves from result.cost', async () => {
  const page = await open(base);
  const ids = await page.evaluate(() => [...document.querySelectorAll('#cost-summary [data-metric]')].map((c) => c.dataset.metric));
  if (ids.length === 0) return; // no cost card on this page yet
  const buttons = await page.locator('#cost-summary .explain-toggle').count();
  assert.ok(buttons >= 3, `${buttons} of ${ids.join(', ')}`);
  await page.locator('[data-metric="cost-request"] .explain-toggle').click();
  const text = await page.locator('#explain-cost-summary-cost-request').innerText();
  assert.match(text, /cycle = requests × output tokens ÷ output throughput = 1 × 256 ÷ 90\.2 tokens\/s = 2\.84\s?s/);
  assert.match(text, /\$ per request = C ÷ requests = \$0\.0388 ÷ 1 = \$0\.0388/);
  assert.match(await page.locator('#explain-cost-summary-cost-request .explain-more a').getAttribute('href'), /#dollars-and-joules-per-token-per-step$/);
  await assertClean(page);
  await page.close();
});

test('training: the step, MFU and memory panels, opened by a tap on a touch screen', async () => {
  const touch = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, serviceWorkers: 'block' });
  const page = await openIn(touch, base + TRAINING);
  await page.waitForSelector('[data-metric="step"] .explain-toggle');
  await toggle(page, 'mfu').tap();
  const mfu = await panel(page, 'mfu').innerText();
  assert.match(mfu, /model TFLOP\/s per chip = model FLOPs per step ÷ step time ÷ chips = .* TFLOP\/s/);
  assert.match(mfu, /MFU = model TFLOP\/s per chip ÷ the chip’s dense bf16 peak = [\d.]+ ÷ 989 TFLOP\/s = \d+\.\d%/);
  assert.match(await panel(page, 'mfu').locator('.explain-more a').getAttribute('href'), /#training-flops-mfu-and-hfu$/);
  await toggle(page, 'step').tap();
  assert.match(await panel(page, 'step').innerText(), /step time = compute( \+ [a-z -]+)* = .* = [\d.]+\s?(s|ms|min)/);
  await toggle(page, 'memory').tap();
  assert.match(await panel(page, 'memory').innerText(), /weights \+ gradients \+ optimizer states \+ activations/);
  await toggle(page, 'memory').tap();
  assert.equal(await panel(page, 'memory').isVisible(), false, 'a second tap closes it');
  await assertClean(page);
  await touch.close();
});
