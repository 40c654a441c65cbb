// Accessibility of the calculator: axe-core (npm devDependency) finds no serious or critical
// violation at 1440 and 390 px, in the light and the dark theme; the charts are hidden from
// screen readers and each has its numbers as a table; a polite live region reads the new
// headline after an edit; errors name fields by their labels, not JSON paths.
// Run after ./dev.sh build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { useBrowser } from './helpers.mjs';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

let session;
let browser;
useBrowser((s) => {
  session = s;
  browser = s.browser;
});

async function openAt(width, colorScheme) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme, serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(session.base);
  await page.waitForSelector('#result-body:not([hidden])', { timeout: 15000 });
  await page.waitForFunction(() => document.documentElement.dataset.charts === 'ready', null, { timeout: 15000 });
  page.done = () => context.close();
  return page;
}

// axe's serious and critical findings: "rule: selector, selector …".
async function axeFindings(page) {
  await page.evaluate(AXE); // through the DevTools protocol: the page's CSP does not apply
  const violations = await page.evaluate(async () => (await window.axe.run(document, {
    resultTypes: ['violations'],
  })).violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 6) })));
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

for (const width of [1440, 390]) {
  for (const scheme of ['light', 'dark']) {
    test(`axe: no serious or critical violations at ${width} px, ${scheme}`, async () => {
      const page = await openAt(width, scheme);
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), scheme);
      // The tables under the charts are part of the page: open them for the check.
      await page.evaluate(() => document.querySelectorAll('details.chart-alt, details.curve-data, details.coll-data').forEach((d) => { d.open = true; }));
      // The Cost inputs' package editor, the package's breakdown and the trade-off's table.
      await page.evaluate(() => document.querySelectorAll('details#pkg, details.tradeoff-data').forEach((d) => { d.open = true; }));
      await page.check('#pkg-on');
      await page.waitForSelector('#cost-package:not([hidden])');
      await page.waitForFunction(() => document.querySelector('#tradeoff-chart').dataset.knobs === 'hbm_stacks,chiplets');
      const found = await axeFindings(page);
      assert.deepEqual(found, [], JSON.stringify(found, null, 1));
      await page.done();
    });
  }
}

test('charts are hidden from screen readers and offer their numbers as a table', async () => {
  const page = await openAt(1280, 'light');
  const charts = await page.evaluate(() => [...document.querySelectorAll('#result-body .chart')]
    .filter((c) => !c.closest('[hidden]') && c.querySelector('canvas'))
    .map((c) => ({ id: c.id, hidden: c.getAttribute('aria-hidden') })));
  assert.ok(charts.length >= 3, JSON.stringify(charts));
  for (const c of charts) assert.equal(c.hidden, 'true', c.id);
  // What a screen reader gets from the results: no raw floats, no NaN.
  const tree = await page.locator('#results').ariaSnapshot();
  assert.doesNotMatch(tree, /\d\.\d{6,}|NaN/);
  // The latency chart's table: a row per part, a column per phase, in time units.
  await page.click('#latency-chart ~ details.chart-alt > summary');
  const table = await page.evaluate(() => {
    const t = document.querySelector('#latency-chart ~ details.chart-alt table');
    return { head: [...t.querySelectorAll('thead th')].map((th) => th.textContent),
      rows: [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent)),
      caption: t.querySelector('caption')?.textContent ?? '' };
  });
  assert.deepEqual(table.head.slice(1), ['Prefill', 'Decode']);
  const matmul = table.rows.find((r) => r[0] === 'Matmul');
  assert.ok(matmul, JSON.stringify(table.rows));
  assert.match(matmul[1], /^\d[\d.,]*\s(ms|µs|s)$/);
  assert.match(table.caption, /^Prefill/);
  // The memory table's figures are in GB.
  assert.match(await page.textContent('#memory-chart ~ details.chart-alt tbody'), /Weights\d[\d.]*\sGB/);
  await page.done();
});

test('a polite live region reads the changed headline once typing pauses', async () => {
  const page = await openAt(1280, 'light');
  const region = page.locator('#results-announcer');
  assert.equal(await region.getAttribute('aria-live'), 'polite');
  await page.waitForTimeout(1200); // the first result is not read out
  assert.equal((await region.textContent()).trim(), '');
  await page.fill('#batch', '4');
  await page.fill('#batch', '8');
  await page.waitForFunction(() => document.querySelector('#results-announcer').textContent !== '', null, { timeout: 5000 });
  const said = await region.textContent();
  assert.match(said, /^Updated: Time to first token \d[\d.,]*\sms; Time per output token/);
  assert.doesNotMatch(said, /\?/);
  await page.done();
});

test('errors name the field by its label; the JSON path stays in the tooltip', async () => {
  const page = await openAt(1280, 'light');
  await page.fill('#tp', '3');
  const box = page.locator('#tp-error');
  await box.waitFor({ state: 'visible' });
  const text = await box.textContent();
  assert.match(text, /“Attention heads” = 64/);
  assert.doesNotMatch(text, /model\.heads/);
  assert.match(await box.getAttribute('title'), /parallelism\.tp|model\.heads/);
  await page.done();
});
