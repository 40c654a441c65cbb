// The Custom chip and Custom system editors in the built page: they start from the preset's
// values, an edit changes the numbers and goes into the link, the link restores it (an old
// link still loads), and an engine error names the field in plain words.
// Run after ./dev.sh build (or ENVELOPE_BUILD=… ./dev.sh site).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open as openIn, assertClean, metric, headline, inputs } from './helpers.mjs';

let context;
let base;
const open = (url) => openIn(context, url);
useBrowser((session) => ({ context, base } = session));

const changed = (page, selector, old) =>
  page.waitForFunction(([sel, o]) => document.querySelector(sel)?.textContent !== o, [selector, old], { timeout: 30000 });
const OLD_LINK = '#model=llama-2-70b&system=dgx-h100&chips=8&tp=8&batch=1&input=2048&output=256&precision=bf16&flash=on';

test('the custom chip: preset values, an edit in the numbers and the link, restored by the link', async () => {
  const page = await open(base);
  assert.equal(await page.isVisible('#chip-edit-badge'), false);
  await page.click('#chip-edit summary');
  assert.equal(await page.inputValue('#chip-hbm_tb_s'), '3.35');
  assert.equal(await page.inputValue('#chip-peak_tflops-bf16'), '989');
  assert.equal(await page.inputValue('#chip-peak_tflops-fp4'), '', 'no fp4 mode on an H100');
  assert.equal(await page.inputValue('#chip-efficiency-memory'), '0.89');
  assert.equal(await page.inputValue('#chip-tdp_w'), '700');

  // Twice the HBM bandwidth: decode reads the weights in about half the time.
  const tpot = await metric(page, 'tpot');
  await page.fill('#chip-hbm_tb_s', '6.7');
  await changed(page, '[data-metric="tpot"] .metric-value', tpot);
  assert.ok(parseFloat(await metric(page, 'tpot')) < parseFloat(tpot), 'TPOT falls with faster memory');
  assert.equal(await page.isVisible('#chip-edit-badge'), true);
  assert.equal(await page.evaluate(() => document.querySelector('[data-field="chip-hbm_tb_s"]').classList.contains('edited')), true);
  await page.fill('#chip-peak_tflops-bf16', '1500');
  await page.waitForFunction(() => location.hash.includes('chip.peak_tflops.bf16=1500'));
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /^#v=1&.*&chip\.hbm_tb_s=6\.7&chip\.peak_tflops\.bf16=1500&/);
  assert.equal(await page.inputValue('#scenario-preset'), '', 'no longer the preset scenario');
  const shown = await headline(page);
  const form = await inputs(page);
  await assertClean(page);

  // The link with the edited chip restores the chip, the form and the numbers.
  const copy = await open(base + hash);
  assert.deepEqual(await inputs(copy), form);
  assert.deepEqual(await headline(copy), shown);
  assert.equal(await copy.isVisible('#chip-edit-badge'), true);
  assert.equal(await copy.evaluate(() => location.hash), hash);
  await copy.click('#chip-edit summary');
  await copy.click('#chip-edit-reset');
  await copy.waitForFunction(() => !location.hash.includes('chip.'));
  assert.equal(await copy.inputValue('#chip-hbm_tb_s'), '3.35');
  assert.equal(await copy.inputValue('#scenario-preset'), 'llama2-70b-dgx-h100-tp8');
  await assertClean(copy);
  await copy.close();

  // A link from before the chip editor loads as it did, without a notice.
  const old = await open(base + OLD_LINK);
  assert.equal(await old.isVisible('#notice'), false);
  assert.equal(await old.inputValue('#chip-hbm_tb_s'), '3.35');
  await old.close();
  await page.close();
});

test('an out-of-range chip value is named by its label, and the results wait for a valid one', async () => {
  const page = await open(base);
  await page.click('#chip-edit summary');
  await page.fill('#chip-efficiency-memory', '1.5');
  await page.waitForSelector('#chip-efficiency-memory-error:not([hidden])');
  const message = await page.textContent('#chip-efficiency-memory-error');
  assert.match(message, /must be a number in \[.*, 1\], got 1\.5/);
  const general = await page.textContent('#general-error');
  assert.match(general, /Custom chip: Memory efficiency/);
  assert.doesNotMatch(general, /system\.chip/, 'the field by its label, not its JSON path');
  assert.equal(await page.getAttribute('#chip-efficiency-memory', 'aria-invalid'), 'true');
  assert.equal(await page.evaluate(() => document.querySelector('#result-body').classList.contains('stale')), true);
  await page.fill('#chip-efficiency-memory', '0.8');
  await page.waitForSelector('#general-error', { state: 'hidden' });
  // Every peak left empty: the chip has no matrix mode, which the engine refuses at a peak.
  for (const f of ['tf32', 'bf16', 'fp16', 'fp8', 'int8']) await page.fill(`#chip-peak_tflops-${f}`, '');
  await page.waitForSelector('#chip-peak_tflops-bf16-error:not([hidden])');
  assert.match(await page.textContent('#general-error'), /Custom chip: Peak bf16/);
  await page.close();
});

test('the custom system: another chip in the DGX, its host, and both in the link', async () => {
  const page = await open(base);
  await page.click('#system-edit summary');
  assert.equal(await page.inputValue('#sys-chip'), 'h100-sxm');
  assert.equal(await page.inputValue('#host-memory_gb'), '250');
  const memory = await metric(page, 'memory');
  await page.selectOption('#sys-chip', 'h200-sxm');
  await changed(page, '[data-metric="memory"] .metric-value', memory);
  assert.match(await metric(page, 'memory'), /of 141\s?GB/);
  assert.match(await page.textContent('#hardware-hint'), /H200/);
  await page.click('#chip-edit summary');
  assert.equal(await page.inputValue('#chip-hbm_gb'), '141', 'the chip editor starts from the new chip');
  await page.fill('#host-memory_gb', '500');
  await page.waitForFunction(() => location.hash.includes('host.memory_gb=500'));
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /&sys\.chip=h200-sxm&host\.memory_gb=500&/);
  assert.equal(await page.isVisible('#system-edit-badge'), true);
  const shown = await headline(page);

  const copy = await open(base + hash);
  assert.deepEqual(await headline(copy), shown);
  assert.equal(await copy.inputValue('#sys-chip'), 'h200-sxm');
  assert.equal(await copy.inputValue('#host-memory_gb'), '500');
  await assertClean(copy);
  await copy.close();

  // A host value the engine refuses shows at its field.
  await page.fill('#host-memory_gb', '-5');
  await page.waitForSelector('#host-memory_gb-error:not([hidden])');
  assert.match(await page.textContent('#general-error'), /Custom system: Host memory per chip/);
  await page.click('#system-edit-reset');
  await page.waitForFunction(() => !location.hash.includes('sys.') && !location.hash.includes('host.'));
  assert.equal(await page.inputValue('#sys-chip'), 'h100-sxm');
  // A single chip type × count has no system chip to change.
  await page.selectOption('#hardware', 'chip:mi300x');
  await page.waitForFunction(() => location.hash.includes('chip=mi300x'));
  assert.equal(await page.isVisible('#sys-chip'), false);
  assert.equal(await page.inputValue('#chip-hbm_gb'), '192');
  await page.close();
});
