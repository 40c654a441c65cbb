// Copy link and export in headless Chromium: the link copied (or, where the clipboard is
// blocked as in an iframe, selected in a field), the JSON whose scenario re-evaluates to the
// same result, the operator CSV and a chart's PNG, all downloads made in the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useBrowser, open, assertClean, headline } from './helpers.mjs';

let context;
let base;
useBrowser((session) => ({ context, base } = session));

const LINK = '#model=llama-3-8b&chip=h100-sxm&chips=2&tp=2&pp=1&batch=4&input=1000&output=100&precision=fp8&flash=on';

async function downloaded(page, selector) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

test('Copy link puts the versioned link of the scenario on the clipboard, and it reproduces it', async () => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const page = await open(context, `${base}${LINK}`);
  await page.click('#copy-link');
  await page.waitForFunction(() => /copied/.test(document.querySelector('#share-status').textContent));
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, `${base}#v=1&${LINK.slice(1)}`);
  const again = await open(context, copied);
  assert.deepEqual(await headline(again), await headline(page));
  await assertClean(page);
  await again.close();
  await page.close();
  await context.clearPermissions();
});

test('inside an iframe without clipboard access the link is shown selected instead', async () => {
  // A host page that denies its iframe the clipboard, as a docs site's embed may.
  const host = `${base}__host.html`;
  await context.route(host, (route) => route.fulfill({
    contentType: 'text/html', body: `<!doctype html><iframe src="${base}${LINK}" allow="clipboard-write 'none'; clipboard-read 'none'" width="900" height="700"></iframe>`,
  }));
  const page = await context.newPage();
  await page.goto(host);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await frame.waitForSelector('#result-body:not([hidden])', { timeout: 10000 });
  await frame.click('#copy-link');
  await frame.waitForSelector('#share-link:not([hidden])', { timeout: 5000 });
  assert.equal(await frame.inputValue('#share-link'), `${base}#v=1&${LINK.slice(1)}`);
  const selected = await frame.evaluate(() => {
    const f = document.querySelector('#share-link');
    return document.activeElement === f && f.selectionStart === 0 && f.selectionEnd === f.value.length;
  });
  assert.equal(selected, true);
  assert.match(await frame.textContent('#share-status'), /copied|selected/);
  await page.close();
});

test('Export JSON: its scenario re-evaluates to the same result; CSV and PNG download', async () => {
  const page = await open(context, `${base}${LINK}`);
  const json = await downloaded(page, '#export-json');
  assert.equal(json.name, 'envelope-llama-3-8b-h100-sxm.json');
  const doc = JSON.parse(json.bytes.toString('utf8'));
  assert.equal(doc.format, 'envelope-export');
  assert.equal(doc.version, 1);
  assert.equal(doc.link, `${base}#v=1&${LINK.slice(1)}`);
  assert.equal(doc.result.ok, true);
  const again = await page.evaluate(async (scenario) => {
    const { loadEngine } = await import('./js/engine.js');
    return (await loadEngine()).evaluate(scenario);
  }, doc.scenario);
  assert.deepEqual(again.summary, doc.result.summary);
  assert.deepEqual(again.memory, doc.result.memory);

  const csv = await downloaded(page, '#export-csv');
  assert.equal(csv.name, 'envelope-llama-3-8b-h100-sxm-prefill-operators.csv');
  const lines = csv.bytes.toString('utf8').trim().split('\r\n');
  assert.equal(lines[0], 'phase,stage,operator,variant,class,count,flops,bytes_read,bytes_written,network_bytes,time_s,total_time_s,bound');
  assert.equal(lines.length - 1, doc.result.phases.prefill.ops.length);
  assert.ok(lines.slice(1).every((l) => l.startsWith('prefill,')));

  const png = await downloaded(page, 'section[aria-labelledby="memory-heading"] .chart-png');
  assert.equal(png.name, 'envelope-llama-3-8b-h100-sxm-memory.png');
  assert.deepEqual([...png.bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  assert.ok(png.bytes.length > 2000);

  // The same chart as SVG: a vector document with the chart's text in it.
  const svgFile = await downloaded(page, 'section[aria-labelledby="memory-heading"] .chart-svg');
  assert.equal(svgFile.name, 'envelope-llama-3-8b-h100-sxm-memory.svg');
  const svgText = svgFile.bytes.toString('utf8');
  assert.match(svgText, /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.match(svgText, /<text|<path/);
  await assertClean(page);
  await page.close();
});

test('the Sweep and Trade-off cards save their points as CSV, one row a point', async () => {
  const page = await open(context, `${base}${LINK}`);
  await page.waitForFunction(() => document.querySelector('#sweep-card')?.dataset.state === 'done', null, { timeout: 20000 });
  await page.click('.sweep-data summary');
  const sweep = await downloaded(page, '#sweep-csv');
  assert.match(sweep.name, /^envelope-llama-3-8b-h100-sxm-sweep-[a-z_]+\.csv$/);
  const lines = sweep.bytes.toString('utf8').trimEnd().split('\r\n');
  const rows = await page.locator('#sweep-table tbody tr').count();
  assert.equal(lines.length, 1 + rows, 'a header and one line a point of the table');
  assert.match(lines[0], /^value,ok,/);
  assert.ok(Number.isFinite(Number(lines[1].split(',')[0])));

  await page.waitForSelector('#tradeoff-chart[data-state="done"]', { timeout: 20000 });
  await page.click('.tradeoff-data summary');
  const tradeoff = await downloaded(page, '#tradeoff-csv');
  assert.equal(tradeoff.name, 'envelope-llama-3-8b-h100-sxm-tradeoff.csv');
  const header = tradeoff.bytes.toString('utf8').split('\r\n')[0];
  assert.match(header, /^setting\.[a-z_]+/);
  assert.equal(tradeoff.bytes.toString('utf8').trimEnd().split('\r\n').length - 1,
    await page.locator('#tradeoff-table tbody tr').count());
  await assertClean(page);
  await page.close();
});
