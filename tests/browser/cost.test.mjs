// Cost and energy in the built page (build/site), headless Chromium: the Cost card's numbers
// are the engine's (each compared with a second evaluation of the link's scenario, formatted as
// the card formats it), a price typed or picked goes into the link and back, owned pricing
// splits the chip-hour, the package editor computes a package cost with its yield, the
// trade-off draws its designs with the Pareto front and a table, and bad inputs get plain errors.
// Run after ./dev.sh build:  node --test tests/browser/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open as openIn, assertClean } from './helpers.mjs';
import { usd, siParts } from '../../web/js/cost-format.js';

let context;
let base;
const open = (url) => openIn(context, url);
useBrowser((session) => ({ context, base } = session));

const hash = (page) => page.evaluate(() => location.hash);
const value = async (page, id) => (await page.textContent(`[data-metric="${id}"] .metric-value`)).replace(/\s+/g, ' ').trim();
// The engine's own result for the link in the address bar: a second engine in the page,
// fed the scenario the link describes.
const engineCost = (page) => page.evaluate(async () => {
  const at = (p) => new URL(p, document.baseURI).href;
  const [{ loadEngine }, { toScenario }, { fromHash }] = await Promise.all(
    [import(at('js/engine.js')), import(at('js/scenario.js')), import(at('js/state.js'))]);
  window.__engine ??= await loadEngine();
  const result = window.__engine.evaluate(toScenario(fromHash(location.hash, window.__engine.presets).state));
  return result.cost;
});
const changed = (page, id, before) => page.waitForFunction(([sel, old]) => document.querySelector(sel)?.textContent !== old,
  [`[data-metric="${id}"] .metric-value`, before]);

const PACKAGE = '&pkg=si_interposer&pkg.die1.name=GH100&pkg.die1.area=814&pkg.die1.count=1&pkg.die1.node=5nm-actuary-2022'
  + '&pkg.hbm=5&pkg.hbm_usd=300&pkg.hbm_area=110';

test('the Cost card shows the engine’s numbers; a typed $/chip-hour changes them, goes into the link and back', async () => {
  const page = await open(base);
  const cost = await engineCost(page);
  assert.equal(cost.pricing, 'cloud');
  assert.equal(await value(page, 'cost-output'), usd(cost.usd_per_m_output_tokens));
  assert.equal(await value(page, 'cost-input'), usd(cost.usd_per_m_input_tokens));
  assert.equal(await value(page, 'cost-request'), usd(cost.usd_per_request));
  const j = siParts(cost.joules_per_output_token, 'J');
  assert.equal(await value(page, 'cost-energy'), `${j.value} ${j.unit}`);
  assert.match(await page.textContent('.cost-hour'), new RegExp(`^\\${usd(cost.usd_per_chip_hour)} per chip-hour, rented`));
  assert.match(await page.textContent('.cost-power'), /at the facility \(PUE 1\.56\)/);
  // Every default the engine used is listed.
  const listed = await page.$$eval('#cost-assumptions li', (lis) => lis.map((li) => li.textContent));
  assert.deepEqual(listed, cost.assumptions);
  assert.match(await page.getAttribute('#cost-usd_per_chip_hour', 'placeholder'), /^auto: 6\.16$/);

  const before = await value(page, 'cost-output');
  await page.fill('#cost-usd_per_chip_hour', '3');
  await changed(page, 'cost-output', before);
  assert.match(await hash(page), /&pricing=cloud&usd_per_chip_hour=3(&|$)/);
  const three = await engineCost(page);
  assert.equal(three.usd_per_chip_hour, 3);
  assert.equal(await value(page, 'cost-output'), usd(three.usd_per_m_output_tokens));
  // $/M output tokens scales with the price per chip-hour.
  assert.ok(Math.abs(three.usd_per_m_output_tokens / cost.usd_per_m_output_tokens - 3 / cost.usd_per_chip_hour) < 1e-9);
  await assertClean(page);

  // The link restores the price and the numbers.
  const link = await hash(page);
  const again = await open(`${base}${link}`);
  assert.equal(await again.inputValue('#cost-usd_per_chip_hour'), '3');
  assert.equal(await value(again, 'cost-output'), usd(three.usd_per_m_output_tokens));
  await again.close();
  await page.close();
});

// Issue 17, defect 5: the default link with &usd_per_chip_hour=2 showed $2 and computed with the
// preset's $6.155 ($148 per million output tokens). Rented, the cost is linear in the price:
// 148 × 2 / 6.155 = 48.1, so about $48 (three digits of $148 leave 47.9 – 48.3).
test('a price in a link without pricing= is the price used: $2 per chip-hour gives about $48 per million output tokens', async () => {
  const page = await open(`${base}#usd_per_chip_hour=2`);
  assert.equal(await page.inputValue('#cost-usd_per_chip_hour'), '2');
  assert.equal(await page.isVisible('#notice'), false);
  const cost = await engineCost(page);
  assert.equal(cost.usd_per_chip_hour, 2);
  const shown = await value(page, 'cost-output');
  assert.equal(shown, usd(cost.usd_per_m_output_tokens));
  assert.match(shown, /^\$4(7\.9|8(\.[0-3])?)$/);
  assert.match(await page.textContent('.cost-hour'), /^\$2(\.00)? per chip-hour, rented/);
  await assertClean(page);
  await page.close();
  // The preset's price, for the hand check above: $148.
  const preset = await open(base);
  assert.equal(await value(preset, 'cost-output'), '$148');
  // "As the presets say" takes a typed price away: the field is empty and the preset's price used.
  await preset.fill('#cost-usd_per_chip_hour', '2');
  await changed(preset, 'cost-output', '$148');
  assert.match(await hash(preset), /&pricing=cloud&usd_per_chip_hour=2(&|$)/);
  await preset.focus('#cost-pricing'); // as a person moves to it (a focused number input is not rewritten)
  await preset.selectOption('#cost-pricing', '');
  await preset.waitForFunction(() => document.querySelector('[data-metric="cost-output"] .metric-value')?.textContent.trim() === '$148');
  assert.equal(await preset.inputValue('#cost-usd_per_chip_hour'), '');
  assert.doesNotMatch(await hash(preset), /usd_per_chip_hour|pricing=/);
  await preset.close();
});

test('a chip without a TDP shows no energy, says why, and a TDP typed in brings it back', async () => {
  // presets/chips/tpu-v5e.json has no tdp_w (Google publishes none).
  const page = await open(`${base}#model=llama-3-8b&system=tpu-v5e-pod&chips=4&tp=4&batch=8&input=512&output=128&precision=bf16`);
  assert.equal((await engineCost(page)).power_w_per_chip, null);
  assert.equal(await value(page, 'cost-energy'), '—');
  assert.match(await page.textContent('[data-metric="cost-energy"]'), /power not modelled: the chip has no TDP/);
  assert.match(await page.textContent('.cost-power'), /not modelled/);
  assert.equal(await page.getAttribute('#cost-tdp_w', 'placeholder'), 'none known');
  await page.fill('#cost-tdp_w', '200');
  await changed(page, 'cost-energy', '—');
  assert.match(await hash(page), /&tdp_w=200(&|$)/);
  const cost = await engineCost(page);
  const j = siParts(cost.joules_per_output_token, 'J');
  assert.equal(await value(page, 'cost-energy'), `${j.value} ${j.unit}`);
  assert.ok(cost.power_w_per_chip.chip > 0 && cost.power_w_per_chip.chip <= 200);
  await assertClean(page);
  await page.close();
});

test('the system’s idle chips are charged and said so: half of a DGX H100 idle doubles the $ per request', async () => {
  const link = (dp) => `${base}#model=llama-3.1-8b&system=dgx-h100&chips=8&tp=4&dp=${dp}&batch=8&input=512&output=256&precision=bf16`
    + '&pricing=cloud&usd_per_chip_hour=2';
  const page = await open(link(1));
  await page.waitForFunction(() => /idle and charged/.test(document.querySelector('#cost-note')?.textContent));
  const half = await engineCost(page);
  assert.equal(half.idle_chips, 4);
  assert.match(await page.textContent('#cost-note'), /^4 chips, rented\. The system’s other 4 chips are idle and charged too at \$2 per chip-hour, drawing \d[\d,]* W each idle/);
  await page.goto(link(2));
  await page.waitForFunction(() => !/idle/.test(document.querySelector('#cost-note')?.textContent ?? 'idle'));
  const both = await engineCost(page);
  assert.equal(both.idle_chips, 0);
  // The same replica and cycle, the same eight chips paid for, twice the requests.
  assert.ok(Math.abs(half.usd_per_request / both.usd_per_request - 2) < 1e-9);
  await assertClean(page);
  await page.close();
});

test('a cloud offering sets the price and names its source; owned pricing splits the chip-hour', async () => {
  const page = await open(base);
  await page.waitForSelector('#cost-offering option[value="lambda-h100-sxm"]', { state: 'attached' });
  const before = await value(page, 'cost-output');
  await page.selectOption('#cost-offering', 'lambda-h100-sxm');
  await changed(page, 'cost-output', before);
  assert.equal(await page.inputValue('#cost-usd_per_chip_hour'), '2.99');
  assert.match(await page.textContent('#cost-offering-hint'), /^Lambda .*2025/);
  assert.match(await hash(page), /usd_per_chip_hour=2\.99/);

  await page.selectOption('#cost-pricing', 'owned');
  await page.waitForFunction(() => /pricing=owned/.test(location.hash) && /to own/.test(document.querySelector('.cost-hour')?.textContent));
  assert.equal(await page.isVisible('#cost-chip_usd'), true);
  assert.equal(await page.isVisible('#cost-usd_per_chip_hour'), false);
  const owned = await engineCost(page);
  assert.equal(owned.pricing, 'owned');
  assert.ok(Math.abs(owned.capex_usd_per_chip_hour + owned.energy_usd_per_chip_hour - owned.usd_per_chip_hour) < 1e-9);
  assert.match(await page.textContent('.cost-hour'),
    new RegExp(`^\\${usd(owned.usd_per_chip_hour)} per chip-hour = \\${usd(owned.capex_usd_per_chip_hour)} to own .* \\+ \\${usd(owned.energy_usd_per_chip_hour)} of electricity`));
  assert.equal(await value(page, 'cost-output'), usd(owned.usd_per_m_output_tokens));
  // A chip price typed: in the link, in the numbers.
  const o = await value(page, 'cost-output');
  await page.fill('#cost-chip_usd', '40000');
  await changed(page, 'cost-output', o);
  assert.match(await hash(page), /chip_usd=40000/);
  // The default system has no server price: the write-off says it is left out, and one typed in
  // joins it (a chip-hour dearer by its write-off: $9,000 over the years × 8,766 hours).
  assert.match(await page.textContent('.cost-hour'), /to own \(the chip \$40K, written off .* No price is known for its server, so the server is left out/);
  const bare = await engineCost(page);
  await page.fill('#cost-system_usd_per_chip', '9000');
  await page.waitForFunction(() => /its server \$9(,000|K)/.test(document.querySelector('.cost-hour')?.textContent));
  assert.match(await hash(page), /system_usd_per_chip=9000/);
  const served = await engineCost(page);
  const years = Number(await page.getAttribute('#cost-amortization_years', 'placeholder').then((t) => t.replace(/^auto: /, '')));
  assert.ok(Math.abs(served.capex_usd_per_chip_hour - bare.capex_usd_per_chip_hour - 9000 / (years * 8766)) < 1e-9);
  await assertClean(page);
  await page.close();
});

test('bad prices: the error names the field, in plain words', async () => {
  const page = await open(base);
  await page.fill('#cost-usd_per_chip_hour', '-1');
  await page.locator('#cost-usd_per_chip_hour-error').waitFor({ state: 'visible' });
  assert.equal(await page.getAttribute('#cost-usd_per_chip_hour', 'aria-invalid'), 'true');
  assert.match(await page.textContent('#cost-usd_per_chip_hour-error'), /^Out of range: must be a number in \[/);
  assert.match(await page.textContent('#general-error'), /“\$ per chip-hour”/);
  assert.doesNotMatch(await page.textContent('#general-error'), /cost\.usd_per_chip_hour/);
  await page.fill('#cost-usd_per_chip_hour', '2');
  await page.locator('#cost-usd_per_chip_hour-error').waitFor({ state: 'hidden' });
  await page.fill('#cost-pue', '0.5');
  await page.locator('#cost-pue-error').waitFor({ state: 'visible' });
  await page.fill('#cost-pue', '');
  await page.locator('#cost-pue-error').waitFor({ state: 'hidden' });
  await page.close();
});

test('the package editor computes a package cost, its parts and each die’s yield', async () => {
  const page = await open(base);
  assert.equal(await page.isVisible('#cost-package'), false);
  await page.click('#pkg summary');
  await page.check('#pkg-on');
  await page.waitForSelector('#cost-package:not([hidden])');
  assert.match(await hash(page), /&pkg=si_interposer&pkg\.die1\.name=GH100&pkg\.die1\.area=814/);
  const { package: pkg } = await engineCost(page);
  const total = () => page.textContent('#pkg-table tfoot td.num');
  assert.equal(await total(), usd(pkg.total_usd));
  const parts = await page.$$eval('#pkg-table tbody tr', (trs) => Object.fromEntries(trs.map((tr) => [tr.dataset.part, tr.querySelector('td').textContent])));
  for (const key of ['raw_dies_usd', 'die_defects_usd', 'raw_package_usd', 'package_defects_usd', 'wasted_dies_usd', 'hbm_usd']) {
    assert.equal(parts[key], usd(pkg[key]), key);
  }
  assert.equal(parts.hbm_usd, '$1,500'); // 5 stacks × $300
  const yieldCell = await page.getAttribute('#pkg-dies-table tbody td[data-yield]', 'data-yield');
  assert.equal(Number(yieldCell), pkg.dies[0].yield);
  assert.ok(pkg.dies[0].yield > 0 && pkg.dies[0].yield < 1);

  // A smaller die costs less and yields better.
  const old = await total();
  await page.fill('#pkg-die-0-area_mm2', '400');
  await page.waitForFunction((t) => document.querySelector('#pkg-table tfoot td.num').textContent !== t, old);
  const small = (await engineCost(page)).package;
  assert.ok(small.total_usd < pkg.total_usd && small.dies[0].yield > pkg.dies[0].yield);
  assert.equal(await total(), usd(small.total_usd));
  // A die larger than the wafer: the engine's error at the die's area.
  await page.fill('#pkg-die-0-area_mm2', '90000');
  await page.locator('#pkg-die-0-area_mm2-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#pkg-die-0-area_mm2-error'), /not one whole die fits/);
  // Larger than one scanner field (858 mm²): refused at the field, with the limit named.
  await page.fill('#pkg-die-0-area_mm2', '1000');
  await page.waitForFunction(() => /reticle limit, 858 mm²/.test(document.querySelector('#pkg-die-0-area_mm2-error')?.textContent));
  await page.fill('#pkg-die-0-area_mm2', '814');
  await page.locator('#pkg-die-0-area_mm2-error').waitFor({ state: 'hidden' });
  // A second die; then the package off: the link forgets it.
  await page.click('#pkg-add-die');
  await page.waitForFunction(() => /pkg\.die2\.area=100/.test(location.hash));
  await page.uncheck('#pkg-on');
  await page.waitForFunction(() => !/pkg=/.test(location.hash));
  assert.equal(await page.isVisible('#cost-package'), false);
  await assertClean(page);
  await page.close();
});

test('a die sold with units switched off yields more and costs less; the wafer size is an input', async () => {
  const page = await open(base);
  await page.click('#pkg summary');
  await page.check('#pkg-on');
  await page.waitForSelector('#cost-package:not([hidden])');
  const plain = (await engineCost(page)).package;
  const total = () => page.textContent('#pkg-table tfoot td.num');
  // GH100's 144 SMs of which the H100 SXM5 enables 132, half the die's area (an assumption).
  let old = await total();
  await page.fill('#pkg-die-0-units', '144');
  await page.fill('#pkg-die-0-units_needed', '132');
  await page.fill('#pkg-die-0-unit_area_share', '0.5');
  await page.waitForFunction((t) => document.querySelector('#pkg-table tfoot td.num').textContent !== t, old);
  assert.match(await hash(page), /pkg\.die1\.units=144&pkg\.die1\.units_needed=132&pkg\.die1\.unit_share=0\.5/);
  const salvaged = (await engineCost(page)).package;
  assert.ok(salvaged.dies[0].yield > plain.dies[0].yield && salvaged.total_usd < plain.total_usd);
  assert.equal(salvaged.dies[0].defect_free_yield, plain.dies[0].yield);
  assert.match(await page.textContent('#pkg-dies-table tbody td[data-yield]'), /defect-free/);
  // More units needed than it has: the engine's error at that field.
  await page.fill('#pkg-die-0-units_needed', '150');
  await page.locator('#pkg-die-0-units_needed-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#pkg-die-0-units_needed-error'), /144/);
  await page.fill('#pkg-die-0-units_needed', '132');
  await page.locator('#pkg-die-0-units_needed-error').waitFor({ state: 'hidden' });
  // A 200 mm wafer holds fewer dies than the 300 mm default.
  const perWafer = salvaged.dies[0].dies_per_wafer;
  old = await total();
  await page.fill('#pkg-wafer_diameter_mm', '200');
  await page.waitForFunction((t) => document.querySelector('#pkg-table tfoot td.num').textContent !== t, old);
  assert.match(await hash(page), /pkg\.wafer_mm=200/);
  assert.ok((await engineCost(page)).package.dies[0].dies_per_wafer < perWafer / 2);
  // The link brings it all back.
  const again = await open(`${base}#${await hash(page)}`);
  await again.waitForSelector('#cost-package:not([hidden])');
  assert.equal(await again.inputValue('#pkg-die-0-units'), '144');
  assert.equal(await again.inputValue('#pkg-wafer_diameter_mm'), '200');
  await assertClean(page);
  await again.close();
  await page.close();
});

test('the trade-off draws every design, the Pareto front joined, and the numbers as a table', async () => {
  const page = await open(`${base}#v=1&model=llama-2-70b&system=dgx-h100&chips=8&tp=8&pp=1&batch=1&input=2048&output=256&precision=bf16&flash=on${PACKAGE}`);
  await page.waitForSelector('#tradeoff-chart[data-state="done"]');
  assert.equal(await page.inputValue('#to-knob-0'), 'hbm_stacks');
  assert.equal(await page.inputValue('#to-values-0'), '3, 4, 5, 6, 8');
  assert.equal(await page.inputValue('#to-knob-1'), 'chiplets');
  const data = await page.evaluate(() => ({ ...document.querySelector('#tradeoff-chart').dataset }));
  assert.equal(data.points, '20');
  assert.ok(Number(data.pareto) >= 1);
  await page.waitForFunction(() => window.echarts?.getInstanceByDom(document.querySelector('#tradeoff-chart')));
  const series = await page.evaluate(() => Object.fromEntries(window.echarts.getInstanceByDom(document.querySelector('#tradeoff-chart'))
    .getOption().series.map((s) => [s.name, { type: s.type, data: s.data.map((d) => d.value) }])));
  assert.equal(series['Pareto front'].type, 'line');
  assert.equal(series['Pareto front'].data.length, Number(data.pareto));
  const xs = series['Pareto front'].data.map(([x]) => x);
  assert.deepEqual(xs, [...xs].sort((a, b) => a - b), 'the front is joined in order of cost');
  assert.equal(series['This scenario'].data.length, 1);
  const rows = await page.$$eval('#tradeoff-table tbody tr', (trs) => trs.map((tr) => tr.dataset.kind));
  assert.equal(rows.length, 20);
  assert.equal(rows.filter((k) => k === 'pareto').length, Number(data.pareto));

  // Values that are not numbers: said at the field, nothing computed.
  await page.fill('#to-values-0', '4, five');
  await page.locator('#to-values-0-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#to-values-0-error'), /“five” is not a number/);
  await page.fill('#to-values-0', '4, 5');
  await page.waitForFunction(() => document.querySelector('#tradeoff-chart').dataset.points === '8');
  assert.equal(await page.isVisible('#to-values-0-error'), false);
  // One knob: the second set to none.
  await page.selectOption('#to-knob-1', '');
  await page.waitForFunction(() => document.querySelector('#tradeoff-chart').dataset.points === '2');
  await assertClean(page);
  await page.close();
});

test('training: $ per step and to train from the engine; the trade-off plots step time against $ per step', async () => {
  const page = await open(`${base}#mode=training&model=llama-3-8b&system=dgx-h100&chips=8&tp=1&pp=1&seq=4096&global_batch=64&micro_batch=1&tokens=1e9`);
  const cost = await engineCost(page);
  assert.equal(await value(page, 'cost-step'), usd(cost.usd_per_step));
  assert.equal(await value(page, 'cost-total'), usd(cost.usd_total));
  assert.match(await page.textContent('[data-metric="cost-total"] .metric-sub'), /steps$/);
  await page.waitForSelector('#tradeoff-chart[data-state="done"]');
  assert.equal(await page.inputValue('#to-knob-0'), 'scale_up_gbps');
  assert.match(await page.textContent('#tradeoff-table thead'), /Step time.*\$ per step/);
  await assertClean(page);
  await page.close();
});
