// What a new user trips on (issue 23, "What a new user trips on"), in the built page
// (build/site), headless Chromium: a pricing without its price turns the Cost card off with a
// sentence and leaves every performance number; a run that does not fit has its dollars dimmed;
// one bare GPU gets no red errors; Compare has the cost and energy rows; one fit verdict; TP
// follows the chip count; a model that does not fit is offered fp8 where fp8 makes it fit.
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

const visibleErrors = (page) => page.evaluate(() => [...document.querySelectorAll('.field-error, #general-error, [role=alert]')]
  .filter((e) => !e.hidden && e.offsetParent !== null && e.textContent.trim()).map((e) => `${e.id}: ${e.textContent.trim()}`));

test('one bare GPU: the Trade-off and Collective cards say what they need, with no error; more chips draw them', async () => {
  const page = await open(`${base}#model=llama-3.1-8b&chip=h100-sxm&chips=1&tp=1&batch=1&input=2048&output=256&precision=bf16`);
  await page.waitForFunction(() => document.querySelector('#tradeoff-chart').dataset.state === 'none');
  assert.deepEqual(await visibleErrors(page), []);
  assert.match(await page.textContent('#tradeoff-note'), /^Nothing to vary here: one bare chip has no network, and the scenario describes no package/);
  assert.match(await page.textContent('#collective-note'), /^A collective runs between chips, and this system has 1: choose 2 chips or more/);
  assert.equal(await page.isVisible('#collective-chart'), false);
  // The network knobs say what they need.
  assert.match(await page.textContent('#to-knob-0'), /Scale-up GB\/s per chip \(needs a system network\)/);

  await page.fill('#chips', '8');
  await page.waitForFunction(() => document.querySelector('#tradeoff-chart').dataset.state === 'done');
  await page.waitForFunction(() => /^All-reduce on 8 chips/.test(document.querySelector('#collective-note').textContent));
  assert.equal(await page.isVisible('#collective-chart'), true);
  assert.equal(await page.isVisible('#tradeoff-chart'), true);
  assert.equal(await page.getAttribute('#tradeoff-chart', 'data-knobs'), 'scale_up_gbps');
  assert.deepEqual(await visibleErrors(page), []);
  await assertClean(page);
});

test('TP follows the chip count: fewer chips than TP shrink it to what the model accepts, a full node grows it', async () => {
  const page = await open(`${base}#model=llama-3.1-8b&system=dgx-h100&chips=8&tp=8&batch=8&input=2048&output=256&precision=bf16`);
  await page.fill('#chips', '2');
  await page.waitForFunction(() => document.querySelector('#tp').value === '2');
  await page.waitForFunction(() => document.querySelector('#result-body:not([hidden])') && !document.querySelector('#result-body').classList.contains('stale'));
  assert.deepEqual(await visibleErrors(page), []);
  // 6 chips: TP 6 and 3 do not divide Llama-3.1-8B's 32 heads (the engine says so), 2 does.
  await page.fill('#chips', '6');
  await page.waitForFunction(() => /auto: 3/.test(document.querySelector('#dp').placeholder));
  assert.equal(await page.inputValue('#tp'), '2');
  // Back to a whole node: TP 2 × 3 replicas filled 6 chips only through DP, so TP stays.
  await page.fill('#chips', '8');
  await page.waitForFunction(() => /auto: 4/.test(document.querySelector('#dp').placeholder));
  assert.equal(await page.inputValue('#tp'), '2');
  assert.match(await page.evaluate(() => location.hash), /&chips=8&tp=2/);
  await assertClean(page);
});

test('does not fit: the fit answer offers fp8 where it helps, and Apply sets the formats', async () => {
  const page = await open(`${base}#model=llama-3.1-70b&chip=h100-sxm&chips=1&tp=1&batch=4&input=2048&output=256&precision=bf16`);
  await page.waitForSelector('[data-metric="memory"] [data-formats="fp8+fp8"]');
  // 141 GB of bf16 weights on an 85.5 GB H100: an fp8 cache alone is not enough, fp8 weights are.
  assert.equal(await page.textContent('[data-formats="bf16+fp8"]'), 'With an fp8 KV cache it still does not fit here.');
  assert.match(await page.textContent('[data-formats="fp8+fp8"]'), /^With fp8 weights and KV cache it fits here \(batch up to [\d,]+\)\. Apply$/);
  assert.equal(await page.locator('[data-formats="bf16+fp8"] button').count(), 0);
  await page.click('[data-formats="fp8+fp8"] button');
  await page.waitForFunction(() => document.querySelector('[data-metric="memory"] .metric-fit')?.dataset.fit === 'fits');
  assert.deepEqual([await page.inputValue('#weights'), await page.inputValue('#kv_cache'), await page.inputValue('#activations')], ['fp8', 'fp8', 'bf16']);
  assert.match(await page.evaluate(() => location.hash), /&weights=fp8&kv_cache=fp8&activations=bf16/);
  assert.equal(await page.locator('[data-formats]').count(), 0);
  await assertClean(page);
});

test('Compare shows the cost and energy headlines with their changes', async () => {
  const page = await open(base);
  const costOf = async (id) => (await page.textContent(`[data-metric="${id}"] .metric-value`)).replace(/\s+/g, ' ').trim();
  const before = { output: await costOf('cost-output'), energy: await costOf('cost-energy') };
  await page.click('#pin-button');
  await page.waitForFunction(() => document.querySelector('#compare-card').dataset.pins === '1');
  await page.fill('#cost-usd_per_chip_hour', '3');
  await page.waitForFunction((old) => document.querySelector('[data-metric="cost-output"] .metric-value').textContent.replace(/\s+/g, ' ').trim() !== old, before.output);
  const cell = async (row, col) => (await page.textContent(`#compare-table tr[data-row="${row}"] td[data-col="${col}"]`)).replace(/\s+/g, ' ').trim();
  await page.waitForFunction(() => document.querySelector('#compare-table tr[data-row="cost_output"] td[data-col="Current"] .compare-delta'));
  assert.equal(await cell('cost_output', 'Pin 1'), before.output);
  // $3 against the preset's $6.155 per chip-hour: −51.3 % per token, the same energy.
  assert.equal(await cell('cost_output', 'Current'), `${await costOf('cost-output')} −51.3%`);
  assert.match(await page.getAttribute('#compare-table tr[data-row="cost_output"] td[data-col="Current"] .compare-delta', 'class'), /better/);
  for (const row of ['cost_input', 'cost_request', 'energy_token', 'energy_request']) {
    assert.ok(await page.isVisible(`#compare-table tr[data-row="${row}"]`), row);
  }
  assert.equal(await cell('energy_token', 'Pin 1'), before.energy);
  assert.match(await cell('energy_token', 'Current'), /±0%$/);
  await assertClean(page);
});

test('one fit verdict: the batch above "Largest batch that fits" does not fit, though within HBM', async () => {
  const link = (batch) => `${base}#model=llama-3-8b&chip=h100-sxm&chips=1&tp=1&batch=${batch}&input=2048&output=256&precision=bf16`;
  const fitLine = (page) => page.textContent('[data-metric="memory"] .metric-fit');
  const sub = (page) => page.textContent('[data-metric="memory"] .metric-sub');
  const page = await open(link(8));
  const largest = Number((await fitLine(page)).match(/Largest batch that fits: ([\d,]+)/)[1].replace(/,/g, ''));
  assert.ok(largest > 8);
  await page.close();
  const at = await open(link(largest));
  assert.match(await sub(at), /^fits · /);
  assert.equal(await at.evaluate(() => document.querySelector('#cost-card').classList.contains('cost-unfit')), false);
  assert.match(await fitLine(at), new RegExp(`Largest batch that fits: ${largest.toLocaleString('en-US')}`));
  await at.close();
  const over = await open(link(largest + 1));
  // Within HBM, beyond the engine's KV budget: one verdict, said so, with the way out.
  assert.match(await sub(over), /^does not fit · \d+(\.\d)?\s?% of HBM, more KV cache than the engine leaves room for/);
  assert.doesNotMatch(await fitLine(over), /Largest batch that fits/);
  assert.match(await over.textContent('[data-metric="memory"]'), new RegExp(`it fits up to batch ${largest.toLocaleString('en-US')} at this context`));
  assert.match(await over.textContent('#warnings'), /does not fit: the KV cache needs/);
  // Its dollars are of a run that cannot happen: dimmed, and said so.
  assert.equal(await over.evaluate(() => document.querySelector('#cost-card').classList.contains('cost-unfit')), true);
  assert.match(await over.textContent('#cost-note'), /It does not fit in memory: these are the costs of a run that cannot happen/);
  assert.equal(await over.evaluate(() => getComputedStyle(document.querySelector('#cost-summary')).opacity), '0.45');
  await assertClean(over);
});
