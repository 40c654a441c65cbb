// The built page's network features in headless Chromium: the network editor (edits,
// the link, errors at their field), a two-node pipeline scenario and its mapping picture,
// and the collective bandwidth view with measured points.
// Run after ./dev.sh build:  node --test tests/browser/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open as openIn, assertClean, metric, headline, inputs } from './helpers.mjs';

let context;
let base;
const open = (url) => openIn(context, url);
useBrowser((session) => ({ context, base } = session));

// Waits until the text at `selector` is no longer `old`.
const changed = (page, selector, old) =>
  page.waitForFunction(([sel, o]) => document.querySelector(sel)?.textContent !== o, [selector, old]);

// The option ECharts holds for the chart in `selector`.
const chartOption = (page, selector) => page.evaluate((sel) => {
  const option = window.echarts.getInstanceByDom(document.querySelector(sel)).getOption();
  return option.series.map((s) => ({ name: s.name, type: s.type, data: s.data.map((d) => d.value ?? d) }));
}, selector);

test('the network editor edits a level, the numbers change, and the link restores it', async () => {
  const page = await open(base);
  assert.equal(await page.isVisible('#net-badge'), false);
  await page.click('#net summary');
  assert.equal(await page.inputValue('#net-0-name'), 'NVLink4 + NVSwitch');
  assert.equal(await page.inputValue('#net-0-link_gbps'), '25');
  assert.equal(await page.inputValue('#net-1-topology'), 'fat_tree');
  assert.equal(await page.inputValue('#net-1-oversubscription'), '1');
  assert.equal(await page.isChecked('#net-0-inr'), true);

  // A tenth of the NVLink bandwidth: the all-reduces of every decode step slow down.
  const tpot = await metric(page, 'tpot');
  await page.fill('#net-0-link_gbps', '2.5');
  await changed(page, '[data-metric="tpot"] .metric-value', tpot);
  assert.ok(parseFloat(await metric(page, 'tpot')) > parseFloat(tpot), 'TPOT grows with slower links');
  assert.equal(await page.isVisible('#net-badge'), true);
  assert.equal(await page.evaluate(() => document.querySelector('[data-field="net-0-link_gbps"]').classList.contains('edited')), true);
  assert.match(await page.evaluate(() => location.hash), /&net0\.link_gbps=2\.5&/);
  assert.equal(await page.inputValue('#scenario-preset'), '', 'no longer the preset scenario');

  // A topology without a field drops it; a torus asks for its dimensions.
  await page.focus('#net-1-topology');
  await page.selectOption('#net-1-topology', 'torus');
  await page.locator('#net-1-dims').waitFor();
  assert.equal(await page.inputValue('#net-1-dims'), '128');
  assert.equal(await page.$('#net-1-oversubscription'), null);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'net-1-topology', 'focus survives the rebuild');
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /net1\.topology=torus&net1\.dims=128&net1\.oversubscription=none/);
  const shown = await headline(page);
  const form = await inputs(page);
  await assertClean(page);

  const copy = await open(base + hash);
  assert.deepEqual(await inputs(copy), form);
  assert.deepEqual(await headline(copy), shown);
  assert.equal(await copy.isVisible('#net-badge'), true);
  assert.equal(await copy.evaluate(() => location.hash), hash);
  await assertClean(copy);

  // Back to the preset's network: the badge and the link's network keys go.
  await copy.click('#net summary');
  await copy.click('#net-reset');
  await copy.waitForFunction(() => !location.hash.includes('net'));
  assert.equal(await copy.isVisible('#net-badge'), false);
  assert.equal(await copy.inputValue('#net-0-link_gbps'), '25');
  assert.equal(await copy.inputValue('#scenario-preset'), 'llama2-70b-dgx-h100-tp8');
  await copy.close();

  // Levels can be added and removed.
  await page.click('#net-add');
  await page.locator('#net-2-size').waitFor();
  assert.match(await page.evaluate(() => location.hash), /levels=3/);
  await page.click('button.net-remove[data-level="2"]');
  await page.waitForFunction(() => !location.hash.includes('levels='));
  await assertClean(page);
  await page.close();
});

test('an engine error on a network field shows next to that field', async () => {
  const page = await open(base);
  await page.click('#net summary');
  await page.fill('#net-1-link_gbps', '0');
  const error = page.locator('#net-1-link_gbps-error');
  await error.waitFor({ state: 'visible' });
  // The engine's [1e-09, 1e+07] in the page's words (format.js plainNumbers).
  assert.match(await error.textContent(), /must be a number in \[10⁻⁹, 10,000,000\]/);
  assert.equal(await page.getAttribute('#net-1-link_gbps', 'aria-invalid'), 'true');
  assert.match(await page.textContent('#general-error'), /see “Level 1: Link GB\/s”/);
  assert.equal(await page.evaluate(() => document.querySelector('#result-body').classList.contains('stale')), true);

  // A torus whose dimensions do not multiply to its size: the error lands on the dimensions.
  await page.fill('#net-1-link_gbps', '50');
  await error.waitFor({ state: 'hidden' });
  await page.selectOption('#net-1-topology', 'torus');
  await page.fill('#net-1-dims', '4x4');
  await page.locator('#net-1-dims-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#net-1-dims-error'), /multiplies to 16, not size = 128/);

  // An emptied required field is caught before the engine, at that field.
  await page.fill('#net-1-dims', '16x8');
  await page.locator('#net-1-dims-error').waitFor({ state: 'hidden' });
  await page.fill('#net-0-efficiency', '');
  await page.locator('#net-0-efficiency-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#net-0-efficiency-error'), /Enter a number/);
  await page.fill('#net-0-efficiency', '0.8');
  await page.locator('#net-0-efficiency-error').waitFor({ state: 'hidden' });
  assert.equal(await page.evaluate(() => document.querySelector('#result-body').classList.contains('stale')), false);
  await assertClean(page);
  await page.close();
});

test('a bandwidth that is not above zero shows no derived text, and an emptied field leaves no stale error or link key', async () => {
  const page = await open(base);
  await page.click('#net summary');
  assert.match(await page.textContent('#hardware-hint'), /450 GB\/s per chip/);
  for (const bad of ['-5', '0']) {
    await page.fill('#net-0-link_gbps', bad);
    await page.locator('#net-0-link_gbps-error').waitFor({ state: 'visible' });
    await page.waitForFunction((b) => location.hash.includes(`net0.link_gbps=${b}`), bad);
    // The engine's error at the field and at the collective, but no "-90 GB/s per chip".
    assert.doesNotMatch(await page.textContent('#hardware-hint'), /GB\/s/);
    await page.locator('#collective-error').waitFor({ state: 'visible' });
    assert.match(await page.textContent('#collective-error'), new RegExp(`got ${bad}`));
  }

  // Emptied: "Enter a number" at the field; the collective's error of the old entry goes,
  // the link drops the entry, the hint shows nothing derived from it.
  await page.fill('#net-0-link_gbps', '');
  await page.waitForFunction(() => /Enter a number/.test(document.querySelector('#net-0-link_gbps-error').textContent));
  await page.waitForFunction(() => !location.hash.includes('net0.link_gbps'));
  assert.equal(await page.isVisible('#collective-error'), false);
  assert.equal(await page.evaluate(() => document.querySelector('#collective-chart').classList.contains('stale')), true);
  assert.doesNotMatch(await page.textContent('#hardware-hint'), /GB\/s/);

  // The next edit elsewhere rewrites the field with the preset's value: all is well again.
  await page.fill('#batch', '2');
  await page.locator('#net-0-link_gbps-error').waitFor({ state: 'hidden' });
  assert.equal(await page.inputValue('#net-0-link_gbps'), '25');
  assert.match(await page.textContent('#hardware-hint'), /450 GB\/s per chip/);
  assert.equal(await page.evaluate(() => document.querySelector('#collective-chart').classList.contains('stale')), false);
  await assertClean(page);
  await page.close();
});

test('choosing a scenario preset resets the collective chip count and its error', async () => {
  const page = await open(base);
  await page.fill('#coll-chips', '1e9');
  await page.locator('#coll-chips-error').waitFor({ state: 'visible' });
  await page.waitForFunction(() => location.hash.includes('coll_chips=1000000000'));
  await page.selectOption('#scenario-preset', 'llama3-70b-2x-dgx-h100-pp2');
  await page.waitForFunction(() => location.hash.includes('pp=2'));
  await page.locator('#coll-chips-error').waitFor({ state: 'hidden' });
  assert.doesNotMatch(await page.evaluate(() => location.hash), /coll_chips/);
  assert.equal(await page.inputValue('#coll-chips'), '');
  assert.equal(await page.getAttribute('#coll-chips', 'placeholder'), '8 (TP)');
  assert.equal(await page.inputValue('#scenario-preset'), 'llama3-70b-2x-dgx-h100-pp2');
  await assertClean(page);
  await page.close();
});

test('two DGX H100 with TP 8 × PP 2: two stages, TP on NVLink and PP on InfiniBand', async () => {
  const page = await open(base);
  await page.selectOption('#scenario-preset', 'llama3-70b-2x-dgx-h100-pp2');
  await page.waitForFunction(() => location.hash.includes('pp=2'));
  assert.equal(await page.inputValue('#pp'), '2');
  assert.equal(await page.inputValue('#chips'), '16');
  assert.equal(await page.inputValue('#dp'), '');
  assert.equal(await page.getAttribute('#dp', 'placeholder'), 'auto: 1');
  assert.equal(await page.getAttribute('#micro_batches', 'placeholder'), 'auto: 2');

  const chips = await page.textContent('[data-metric="chips"]');
  assert.match(chips, /16\s*chips/);
  assert.match(chips, /TP 8 × PP 2 × DP 1 · 1 replica of 16 chips/);
  assert.match(chips, /2 pipeline stages of 40 \+ 40 layers · 2 micro-batches of 16 sequences/);
  assert.match(await page.textContent('#scenario-desc'), /TP 8 × PP 2/);

  // The picture: two nodes of eight chips, coloured by stage; one line per dimension.
  assert.match(await page.textContent('#mapping-note'), /16 chips in 2 boxes of 8/);
  assert.equal(await page.locator('#mapping svg rect:not(.map-box)').count(), 16);
  assert.equal(await page.isChecked('#map-pp'), true);
  assert.deepEqual(await page.$$eval('#mapping-key li', (els) => els.map((e) => e.textContent)), ['stage 0', 'stage 1']);
  const tp = await page.textContent('#mapping-dims li[data-dimension="tp"]');
  const pp = await page.textContent('#mapping-dims li[data-dimension="pp"]');
  assert.match(tp, /^TP 8 → NVLink4 \+ NVSwitch ×8 · [\d.]+\sGB sent per chip, [\d.]+\sms over the run/);
  assert.match(pp, /^PP 2 → InfiniBand NDR .* ×2 · [\d.]+\sMB sent per chip/);
  // A chip says where it is.
  const chip9 = await page.locator('#mapping svg g').nth(1).locator('rect:not(.map-box)').nth(1).locator('title').textContent();
  assert.equal(chip9, 'chip 9 · TP rank 1 in group 1 · stage 1');

  // The operator table names the stages; the latency bars show the busiest stage and its wait.
  assert.match(await page.textContent('#ops thead'), /Stages/);
  assert.match(await page.textContent('#ops tbody'), /stage_send/);
  assert.match(await page.textContent('#ops tfoot'), /All stages, summed.*Phase, pipelined/s);
  const latency = await chartOption(page, '#latency-chart');
  assert.ok(latency.some((s) => s.name === 'Waiting on other stages'));

  // Colour by TP group instead: kept in the link.
  await page.click('label[for="map-tp"]');
  await page.waitForFunction(() => location.hash.includes('map=tp'));
  assert.deepEqual(await page.$$eval('#mapping-key li', (els) => els.map((e) => e.textContent)), ['TP group 0', 'TP group 1']);

  // Twice the chips and no DP given: the engine adds a replica.
  const e2e = await metric(page, 'throughput');
  await page.fill('#chips', '32');
  await changed(page, '[data-metric="throughput"] .metric-value', e2e);
  assert.equal(await page.getAttribute('#dp', 'placeholder'), 'auto: 2');
  assert.match(await page.textContent('[data-metric="chips"]'), /2 replicas of 16 chips/);
  assert.match(await page.textContent('#mapping-dims li[data-dimension="dp"]'), /^DP 2 → InfiniBand/);
  await assertClean(page);
  await page.close();
});

test('the network view sweeps a collective and overlays the measured runs', async () => {
  const page = await open(base);
  await page.locator('#collective-chart canvas').waitFor();
  // The measured runs are drawn once the page has fetched the cases (the engine does not carry them).
  await page.waitForFunction(() => /Diamonds: \d+ measured runs/.test(document.querySelector('#collective-note').textContent));
  assert.equal(await page.inputValue('#coll-op'), 'all_reduce');
  assert.equal(await page.getAttribute('#coll-chips', 'placeholder'), '8 (TP)');
  const note = await page.textContent('#collective-note');
  assert.match(note, /^All-reduce on 8 chips of NVIDIA DGX H100 \(NVLink4 \+ NVSwitch ×8\), 8\sB to \d+\sGiB: /);
  assert.match(note, /Diamonds: \d+ measured runs of NVIDIA H100/);

  const series = await chartOption(page, '#collective-chart');
  const lines = series.filter((s) => s.type === 'line');
  assert.ok(lines.length >= 1);
  assert.ok(lines[0].data.length >= 31, `${lines[0].data.length} sizes`);
  const measured = series.find((s) => s.name === 'measured, 8 chips');
  assert.ok(measured && measured.data.length >= 1, 'at least one measured point at 8 chips');
  assert.ok(measured.data.every(([bytes, busbw]) => bytes > 0 && busbw > 0));

  // The tooltip of a measured point names its chips and its source.
  const index = series.indexOf(measured);
  await page.locator('#collective-chart').scrollIntoViewIfNeeded();
  await page.evaluate((i) => window.echarts.getInstanceByDom(document.querySelector('#collective-chart'))
    .dispatchAction({ type: 'showTip', seriesIndex: i, dataIndex: 0 }), index);
  const tip = page.locator('#collective-chart .echarts-tooltip');
  await tip.waitFor({ state: 'visible' });
  assert.match(await tip.textContent(), /Measured: [\d.]+\sGB\/s bus bandwidth.* on 8 chips.*https?:\/\//);

  // Another collective and chip count: both in the link; 16 chips cross InfiniBand.
  await page.selectOption('#coll-op', 'all_gather');
  await page.waitForFunction(() => location.hash.includes('coll=all_gather'));
  await page.fill('#coll-chips', '16');
  await page.waitForFunction(() => location.hash.includes('coll_chips=16'));
  assert.match(await page.textContent('#collective-note'), /^All-gather on 16 chips .*InfiniBand/);
  assert.match(await page.textContent('#collective-table tbody'), /8\sGiB/);

  // A chip count beyond what the network joins is reported at the input.
  await page.fill('#coll-chips', '5000');
  await page.locator('#coll-chips-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#coll-chips-error'), /\[2, 1024\], got 5000/);
  await page.fill('#coll-chips', '');
  await page.locator('#coll-chips-error').waitFor({ state: 'hidden' });
  await assertClean(page);
  await page.close();
});

test('thousands of chips are drawn as boxes of chips', async () => {
  const page = await open(`${base}#model=llama-3-8b&system=tpu-v4-pod&chips=4096&tp=4&pp=4&batch=8&input=2048&output=256&precision=bf16&flash=on`);
  assert.match(await page.textContent('#mapping-note'), /^4,096 chips in \d+ boxes of \d+/);
  const boxes = await page.locator('#mapping svg g').count();
  assert.ok(boxes > 0 && boxes <= 128, `${boxes} boxes`);
  assert.match(await page.textContent('#mapping-dims li[data-dimension="dp"]'), /^DP 256 → ICI .* ×4 × 16 × 4 \(torus dimensions 0, 1, 2\)/);
  assert.match(await page.textContent('[data-metric="chips"]'), /256 replicas of 16 chips/);
  await assertClean(page);
  await page.close();
});
