// What a new user trips on (issue 23, "What a new user trips on"), in the built page
// (build/site), headless Chromium: a pricing without its price turns the Cost card off with a
// sentence and leaves every performance number; a run that does not fit has its dollars dimmed.
// Run after ./dev.sh build:  node --test tests/browser/new-user.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open as openIn, assertClean, headline } from './helpers.mjs';

let context;
let base;
const open = (url) => openIn(context, url);
useBrowser((session) => ({ context, base } = session));

const H200 = '#model=llama-3.1-8b&system=hgx-h200&chips=8&tp=8&batch=8&input=2048&output=256&precision=bf16&flash=on';

test('"Own" on a chip with no purchase price keeps every performance number; the Cost card says which price to give', async () => {
  const rented = await open(`${base}${H200}`);
  const performance = await headline(rented);
  await rented.close();
  const page = await open(`${base}${H200}&pricing=owned`);
  assert.equal(await page.isVisible('#general-error'), false);
  assert.equal(await page.evaluate(() => document.querySelector('#result-body').classList.contains('stale')), false);
  assert.deepEqual(await headline(page), performance);
  assert.equal(await page.evaluate(() => document.querySelector('#cost-card').classList.contains('cost-off')), true);
  const line = await page.textContent('.cost-hour');
  assert.match(line, /^Own needs the chip’s purchase price, and NVIDIA H200[^:]* has none in its presets: type it in “Chip price \(\$\)” under Cost/);
  assert.doesNotMatch(await page.textContent('body'), /cannot be computed|is required/);
  // The price typed in prices it.
  await page.fill('#cost-chip_usd', '30000');
  await page.waitForFunction(() => !document.querySelector('#cost-card').classList.contains('cost-off'));
  assert.match(await page.textContent('.cost-hour'), /per chip-hour = .* to own/);
  assert.deepEqual(await headline(page), performance);
  await assertClean(page);
});
