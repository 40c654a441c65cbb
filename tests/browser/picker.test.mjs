// The searchable pickers above the model and hardware lists: typing filters by name, key or
// family; the keyboard (arrows, Enter, Escape) and a click choose, through the select, so the
// form, the numbers and the link follow. Run after ./dev.sh build (or ENVELOPE_BUILD=… ./dev.sh site).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { useBrowser, open as openIn, assertClean } from './helpers.mjs';

let context;
let base;
let browser;
const open = (url) => openIn(context, url);
useBrowser((session) => {
  ({ context, base } = session);
  browser = session.browser;
});
const options = (page, list) => page.locator(`${list} [role="option"] .picker-name`).allInnerTexts();

test('the model picker: type to filter, arrows and Enter to choose; the link follows', async () => {
  const page = await open(base);
  const box = page.locator('#model-search');
  assert.equal(await box.getAttribute('role'), 'combobox');
  assert.equal(await box.getAttribute('aria-expanded'), 'false');
  await box.fill('mixtral');
  assert.equal(await box.getAttribute('aria-expanded'), 'true');
  assert.deepEqual((await options(page, '#model-search-list')).sort(), ['Mixtral-8x22B-v0.1', 'Mixtral-8x7B-v0.1']);
  // The first match is highlighted; ArrowDown moves to the second; Enter chooses it.
  const first = await box.getAttribute('aria-activedescendant');
  await page.keyboard.press('ArrowDown');
  const second = await box.getAttribute('aria-activedescendant');
  assert.notEqual(first, second);
  const name = await page.locator(`#${second} .picker-name`).innerText();
  const value = await page.locator(`#${second}`).getAttribute('data-value');
  await page.keyboard.press('Enter');
  await page.waitForFunction((v) => location.hash.includes(`model=${v}`), value);
  assert.equal(await page.inputValue('#model'), value);
  assert.equal(await box.inputValue(), '', 'the box empties once a model is chosen');
  assert.equal(await box.getAttribute('aria-expanded'), 'false');
  assert.match(await page.textContent('#model-search-status'), new RegExp(`${name.replace(/[.]/g, '\\.')} chosen`));

  // By family: "moe" finds the mixtures; Escape closes the list, a second Escape clears the box.
  await box.fill('moe');
  const moe = await options(page, '#model-search-list');
  assert.ok(moe.includes('DeepSeek-V3') && !moe.includes('Llama-2-70B'), moe.join(', '));
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('#model-search-list'), false);
  assert.equal(await box.inputValue(), 'moe');
  await page.keyboard.press('Escape');
  assert.equal(await box.inputValue(), '');
  // Nothing matches: it says so.
  await box.fill('zzz');
  assert.match(await page.locator('.picker-none').first().innerText(), /No models match “zzz”/);
  await assertClean(page);
  await page.close();
});

test('the hardware picker: a click on a match chooses a system or a chip type', async () => {
  const page = await open(base);
  await page.fill('#hardware-search', 'mi300x');
  assert.deepEqual(await page.locator('#hardware-search-list [role="option"]').evaluateAll((els) => els.map((e) => e.dataset.value)),
    ['system:mi300x-platform', 'chip:mi300x']);
  await page.click('#hardware-search-list [data-value="chip:mi300x"]');
  await page.waitForFunction(() => location.hash.includes('chip=mi300x'));
  assert.equal(await page.inputValue('#hardware'), 'chip:mi300x');
  // By vendor, then the select still works as before for whoever prefers it.
  await page.fill('#hardware-search', 'google v5p');
  assert.ok((await options(page, '#hardware-search-list')).every((n) => /v5p/i.test(n)));
  await page.keyboard.press('Escape');
  await page.selectOption('#hardware', 'system:dgx-h100');
  await page.waitForFunction(() => location.hash.includes('system=dgx-h100'));
  await assertClean(page);
  await page.close();
});

// (Scoped to these parts: the whole page is a11y.test.mjs's.)
test('axe finds no serious issue with the pickers, the editors and a "How?" panel open, 390 px dark', async () => {
  const require = createRequire(import.meta.url);
  const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const narrow = await browser.newContext({ viewport: { width: 390, height: 900 }, colorScheme: 'dark', serviceWorkers: 'block' });
  const page = await openIn(narrow, base);
  await page.click('#chip-edit summary');
  await page.click('#system-edit summary');
  await page.locator('[data-metric="tpot"] .explain-toggle').click();
  await page.fill('#model-search', 'llama');
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => (await window.axe.run({ include: [['.picker'], ['#chip-edit'], ['#system-edit'], ['#summary']] }, { resultTypes: ['violations'] })).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) })));
  assert.deepEqual(found, [], JSON.stringify(found, null, 1));
  await narrow.close();
});
