// The Search card in the page: its code loads only when the card is opened; a serving search
// and a training search run in the card's worker and show the counts, the front and the top
// table; Cancel ends a running search and the next one still runs; Apply sets the page's
// scenario to a row's configuration; the inputs go into the link and come back from it.
// Run after ./dev.sh site.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open, assertClean } from './helpers.mjs';

let session;
useBrowser((s) => {
  session = s;
});

const TRAINING = '#v=1&mode=training&model=llama-3-8b&system=dgx-h100&chips=16&tp=1&pp=1&seq=4096&global_batch=64&micro_batch=1'
  + '&recompute=none&precision=bf16';

async function searched(page) {
  await page.waitForFunction(() => document.querySelector('#search-status')?.textContent.includes('evaluated in'), null, { timeout: 30000 });
  return page.evaluate(() => ({
    counts: document.querySelector('#search-counts').textContent,
    rows: document.querySelectorAll('#search-table tbody tr button').length,
    layouts: [...document.querySelectorAll('#search-table tbody th')].map((th) => th.textContent),
    chart: Boolean(document.querySelector('#search-chart canvas')) && !document.querySelector('#search-chart').hidden,
  }));
}

test('serving: the code loads when opened, the search runs, the link keeps its inputs, Apply sets the scenario', async () => {
  const loaded = [];
  const page = await open(session.context, session.base);
  // The page's bundle holds all but what it imports when used (web/build-bundle.mjs): the
  // Search card's code is a chunk of its own, fetched when the card is opened.
  page.on('request', (r) => { if (/\/app\/index-chunk-[A-Z0-9]+\.js$/.test(r.url())) loaded.push(r.url()); });
  await page.waitForTimeout(300);
  const early = await page.$$eval('link[rel="modulepreload"]', (links) => links.map((l) => l.href));
  assert.deepEqual(loaded.filter((u) => !early.includes(u)), [], 'the Search card\'s code is not loaded before it is opened');
  assert.equal(await page.isVisible('#search-run'), false);
  await page.click('#search-details summary');
  await page.waitForSelector('#search-run', { state: 'visible' });
  const preloaded = await page.$$eval('link[rel="modulepreload"]', (links) => links.map((l) => l.href));
  assert.equal(loaded.filter((u) => !preloaded.includes(u)).length, 1, 'one chunk, when the card opens');
  assert.match(await page.evaluate(() => location.hash), /&search=on/);
  // The serving inputs show, the training one does not.
  assert.equal(await page.isVisible('#search-ttft'), true);
  assert.equal(await page.isVisible('#search-rank'), false);
  await page.fill('#search-chips', '8');
  await page.fill('#search-ttft', '2000');
  await page.click('#search-run');
  const out = await searched(page);
  assert.match(out.counts, /enumerated/);
  assert.match(out.counts, /evaluated/);
  assert.ok(out.rows >= 1, 'a top table with Apply buttons');
  assert.ok(out.chart, 'the front is drawn');
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /search\.chips=8/);
  assert.match(hash, /search\.ttft_ms=2000/);

  // Apply: the form and the link take the row's layout.
  const layout = out.layouts[0];
  const tp = Number(layout.match(/TP (\d+)/)[1]);
  const batch = Number(layout.match(/batch (\d+)/)[1]);
  await page.click('#search-table tbody tr:first-child button');
  await page.waitForFunction(([t, b]) => document.querySelector('#tp').value === String(t) && document.querySelector('#batch').value === String(b),
    [tp, batch]);
  const applied = await page.evaluate(() => location.hash);
  assert.match(applied, new RegExp(`&tp=${tp}&`));
  assert.match(applied, new RegExp(`&batch=${batch}&`));
  assert.match(applied, /search\.chips=8/, 'the search stays in the link');

  // The link round trip: a fresh page from it opens the card with its inputs and runs the search.
  const again = await open(session.context, session.base + hash);
  await again.waitForSelector('#search-run', { state: 'visible' });
  assert.equal(await again.inputValue('#search-chips'), '8');
  assert.equal(await again.inputValue('#search-ttft'), '2000');
  const rerun = await searched(again);
  assert.deepEqual(rerun.layouts, out.layouts, 'the same search, the same answer');
  await assertClean(page);
  await assertClean(again);
  await page.close();
  await again.close();
});

test('training: chip counts and rank, Cancel ends a run and the next one runs, Apply sets the layout and the chips', async () => {
  const page = await open(session.context, session.base + TRAINING);
  await page.click('#search-details summary');
  await page.waitForSelector('#search-run', { state: 'visible' });
  assert.equal(await page.isVisible('#search-rank'), true);
  assert.equal(await page.isVisible('#search-ttft'), false);
  await page.fill('#search-chips', '8 16 32 64 128 256 512 1024');
  await page.selectOption('#search-rank', 'mfu');
  // Started and cancelled in one task: the search cannot have finished in between.
  const cancelled = await page.evaluate(() => {
    document.querySelector('#search-run').click();
    const running = !document.querySelector('#search-cancel').hidden;
    document.querySelector('#search-cancel').click();
    return { running, hidden: document.querySelector('#search-cancel').hidden, status: document.querySelector('#search-status').textContent };
  });
  assert.deepEqual(cancelled, { running: true, hidden: true, status: 'Search cancelled.' });
  await page.waitForTimeout(300);
  assert.equal(await page.textContent('#search-status'), 'Search cancelled.', 'no late answer after Cancel');

  // The page stays answered while the search runs in its worker: a timer's longest gap.
  await page.fill('#search-chips', '8 16 32');
  await page.evaluate(() => {
    window.__gap = 0;
    let last = performance.now();
    window.__tick = setInterval(() => { const now = performance.now(); window.__gap = Math.max(window.__gap, now - last); last = now; }, 20);
  });
  await page.click('#search-run');
  const out = await searched(page);
  const gap = await page.evaluate(() => { clearInterval(window.__tick); return window.__gap; });
  assert.ok(gap < 1000, `the main thread was blocked for ${gap.toFixed(0)} ms during the search`);
  assert.match(await page.textContent('#search-status'), /\(worker\)/);
  assert.ok(out.rows >= 1);
  assert.ok(out.chart);
  assert.match(await page.evaluate(() => location.hash), /search\.chips=8\+16\+32&search\.rank=mfu/);
  const layout = out.layouts[0];
  const tp = Number(layout.match(/TP (\d+)/)[1]);
  const chips = Number(await page.textContent('#search-table tbody tr:first-child td:nth-child(3)'));
  await page.click('#search-table tbody tr:first-child button');
  await page.waitForFunction(([t, c]) => document.querySelector('#tp').value === String(t) && location.hash.includes(`&chips=${c}&`), [tp, chips]);
  await assertClean(page);
  await page.close();
});
