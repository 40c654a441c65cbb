// What a shared link carries beyond the scenario, in the built page (headless Chromium): the
// Trade-off card's knobs and values, a pin's name, and a die on a custom wafer, each chosen in
// the page, found in the link, and back when the link is opened; a bad value in a link named
// in the notice, the rest shown.
// Run after ./dev.sh build (or ENVELOPE_BUILD=… ./dev.sh site):  node --test tests/browser/link-choices.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open as openIn, assertClean } from './helpers.mjs';
import { usd } from '../../web/js/cost-format.js';

let context;
let base;
const open = (url) => openIn(context, url);
useBrowser((session) => ({ context, base } = session));

const hash = (page) => page.evaluate(() => location.hash);
const LINK = '#v=1&model=llama-2-70b&system=dgx-h100&chips=8&tp=8&pp=1&batch=1&input=2048&output=256&precision=bf16&flash=on';
const PACKAGE = '&pkg=si_interposer&pkg.die1.name=GH100&pkg.die1.area=814&pkg.die1.count=1&pkg.die1.node=5nm-actuary-2022'
  + '&pkg.hbm=5&pkg.hbm_usd=300&pkg.hbm_area=110';
const points = (page, n) => page.waitForFunction((want) => {
  const d = document.querySelector('#tradeoff-chart').dataset;
  return d.state === 'done' && d.points === want;
}, String(n));
// The engine's own package cost for the link in the address bar (a second engine in the page).
const enginePackage = (page) => page.evaluate(async () => {
  const at = (p) => new URL(p, document.baseURI).href;
  const [{ loadEngine }, { toScenario }, { fromHash }] = await Promise.all(
    [import(at('js/engine.js')), import(at('js/scenario.js')), import(at('js/state.js'))]);
  window.__engine ??= await loadEngine();
  return window.__engine.evaluate(toScenario(fromHash(location.hash, window.__engine.presets).state)).cost.package;
});

test('trade-off: the knobs and values chosen go into the link and come back with it', async () => {
  const page = await open(`${base}${LINK}${PACKAGE}`);
  await points(page, 20);
  assert.doesNotMatch(await hash(page), /tradeoff/, 'the card’s own choice is not written');
  await page.selectOption('#to-knob-0', 'die_area_mm2');
  await page.waitForFunction(() => /&tradeoff=die_area_mm2\+chiplets(&|$)/.test(location.hash));
  await page.fill('#to-values-0', '400, 600, 814');
  await page.waitForFunction(() => /&tradeoff\.1=400\+600\+814(&|$)/.test(location.hash));
  await page.selectOption('#to-knob-1', '');
  await page.waitForFunction(() => /&tradeoff=die_area_mm2&tradeoff\.1=400\+600\+814(&|$)/.test(location.hash));
  await points(page, 3);
  // The notice stays quiet: the page's own link is read back without a problem.
  assert.equal(await page.isVisible('#notice'), false);
  await assertClean(page);

  const copy = await open(base + (await hash(page)));
  await points(copy, 3);
  assert.equal(await copy.inputValue('#to-knob-0'), 'die_area_mm2');
  assert.equal(await copy.inputValue('#to-values-0'), '400, 600, 814');
  assert.equal(await copy.inputValue('#to-knob-1'), '');
  assert.equal(await copy.isDisabled('#to-values-1'), true);
  assert.equal(await copy.textContent('#tradeoff-table'), await page.textContent('#tradeoff-table'));
  await assertClean(copy);
  await copy.close();

  // While a form entry is half-typed, the choice waits (the entry is not put back), then goes in.
  await page.fill('#input', '');
  await page.locator('#input-error').waitFor({ state: 'visible' });
  await page.selectOption('#to-knob-1', 'chiplets');
  await page.waitForTimeout(400);
  assert.equal(await page.inputValue('#input'), '');
  assert.doesNotMatch(await hash(page), /tradeoff=die_area_mm2\+chiplets/);
  await page.fill('#input', '4096');
  await page.waitForFunction(() => /&input=4096&.*&tradeoff=die_area_mm2\+chiplets&tradeoff\.1=400\+600\+814/.test(location.hash));
  assert.equal(await page.inputValue('#input'), '4096');
  await page.close();
});

test('trade-off: a bad value in a link is named in the notice; the card falls back, nothing breaks', async () => {
  const page = await open(`${base}${LINK}${PACKAGE}&tradeoff=hbm_stacks+chiplets&tradeoff.1=4+five&tradeoff.2=1+2`);
  assert.match(await page.textContent('#notice'), /tradeoff\.1 = "4 five": “five” is not a number/);
  await points(page, 10); // five stacks around the scenario's own × the two chiplet counts of the link
  assert.equal(await page.inputValue('#to-values-0'), '3, 4, 5, 6, 8');
  assert.equal(await page.inputValue('#to-values-1'), '1, 2');
  await assertClean(page);
  await page.close();
  const knob = await open(`${base}${LINK}&tradeoff=warp_drive`);
  assert.match(await knob.textContent('#notice'), /tradeoff = "warp_drive": "warp_drive" is not one of hbm_stacks/);
  await knob.waitForSelector('#tradeoff-chart[data-state="done"]');
  assert.equal(await knob.inputValue('#to-knob-0'), 'scale_up_gbps');
  await assertClean(knob);
  await knob.close();
});

test('a pin’s name: typed in the card, in its column, its bar and the sweep’s legend, in the link and back', async () => {
  const page = await open(base);
  await page.click('#pin-button');
  await page.waitForFunction(() => document.querySelector('#compare-card').dataset.pins === '1');
  const box = '#compare-table input[aria-label="Name of pin 1"]';
  assert.equal(await page.inputValue(box), 'Pin 1');
  const name = 'Baseline <b>&amp; "TP8" #1';
  await page.fill(box, `${name}${'!'.repeat(20)}`); // 46 characters: the box takes 40
  await page.press(box, 'Enter');
  const kept = `${name}${'!'.repeat(40 - name.length)}`;
  await page.waitForFunction(() => /&pin=label%3D/.test(location.hash));
  assert.equal(await page.inputValue(box), kept);
  assert.equal(await page.getAttribute('#compare-table .compare-unpin', 'aria-label'), `Unpin ${kept}`);
  assert.match(await page.textContent('#compare-note'), /^Changes are against “Baseline <b>&amp; "TP8" #1!+” \(pin 1\)\./);
  await page.waitForFunction(() => window.echarts?.getInstanceByDom(document.querySelector('#compare-chart')));
  const bars = await page.evaluate(() => window.echarts.getInstanceByDom(document.querySelector('#compare-chart')).getOption().yAxis[0].data);
  assert.deepEqual(bars, [kept, 'Current']);
  // The sweep draws the pin under its name.
  await page.waitForFunction((n) => window.echarts.getInstanceByDom(document.querySelector('#sweep-chart'))
    ?.getOption().series.some((s) => s.name === n), kept, { timeout: 15000 });
  // The link opened elsewhere: the same name.
  const copy = await open(base + (await hash(page)));
  await copy.waitForFunction(() => document.querySelector('#compare-card').dataset.pins === '1');
  assert.equal(await copy.inputValue(box), kept);
  assert.equal(await copy.isVisible('#notice'), false);
  await assertClean(copy);
  await copy.close();
  // Emptied: the automatic name again, and no name in the link.
  await page.fill(box, '');
  await page.press(box, 'Enter');
  await page.waitForFunction(() => !/label%3D/.test(location.hash));
  assert.equal(await page.inputValue(box), 'Pin 1');
  await assertClean(page);
  await page.close();
});

test('a custom wafer: chosen per die, priced by the engine, in the link and back; bad entries named at their field', async () => {
  const page = await open(`${base}${LINK}${PACKAGE}`);
  await page.waitForSelector('#pkg-die-0-node option[value="custom"]', { state: 'attached' });
  await page.waitForSelector('#pkg-die-0-node option[value="5nm-actuary-2022"]', { state: 'attached' });
  assert.equal(await page.isVisible('#pkg-die-0-wafer_usd'), false);
  const total = () => page.textContent('#pkg-table tfoot td.num');
  const preset = await enginePackage(page);
  await page.click('#pkg summary');
  await page.selectOption('#pkg-die-0-node', 'custom');
  // It starts from the numbers of the node it was on: the same cost.
  await page.waitForFunction(() => /pkg\.die1\.node=custom&pkg\.die1\.wafer_usd=16988&pkg\.die1\.defect_density=0\.11&pkg\.die1\.nre_usd=542000000/.test(location.hash));
  assert.equal(await page.isVisible('#pkg-die-0-wafer_usd'), true);
  assert.equal(await page.inputValue('#pkg-die-0-wafer_usd'), '16988');
  assert.equal(await page.inputValue('#pkg-die-0-critical_level'), '');
  assert.equal(await page.getAttribute('#pkg-die-0-critical_level', 'placeholder'), 'auto: 10');
  assert.match(await page.textContent('#pkg-die-0-custom .hint'), /wafer price \(\$ per 300 mm wafer\) 1 – 10M; defect density \(per cm²\) 0 – 100/);
  assert.equal((await enginePackage(page)).total_usd, preset.total_usd);

  // A dearer wafer with more defects: dearer dies, lower yield.
  const before = await total();
  await page.fill('#pkg-die-0-wafer_usd', '25000');
  await page.fill('#pkg-die-0-defect_density_per_cm2', '0.2');
  await page.waitForFunction(() => /wafer_usd=25000&pkg\.die1\.defect_density=0\.2(&|$)/.test(location.hash));
  await page.waitForFunction((t) => document.querySelector('#pkg-table tfoot td.num').textContent !== t, before);
  const dear = await enginePackage(page);
  assert.ok(dear.total_usd > preset.total_usd && dear.dies[0].yield < preset.dies[0].yield);
  assert.equal(await total(), usd(dear.total_usd));
  await assertClean(page);

  // The link restores the custom wafer.
  const copy = await open(base + (await hash(page)));
  await copy.click('#pkg summary');
  assert.equal(await copy.inputValue('#pkg-die-0-node'), 'custom');
  assert.equal(await copy.inputValue('#pkg-die-0-wafer_usd'), '25000');
  assert.equal(await copy.inputValue('#pkg-die-0-defect_density_per_cm2'), '0.2');
  assert.equal(await copy.textContent('#pkg-table tfoot td.num'), usd(dear.total_usd));
  await assertClean(copy);
  await copy.close();

  // Out of range: the engine's error at the field, named by its label.
  await page.fill('#pkg-die-0-defect_density_per_cm2', '500');
  await page.locator('#pkg-die-0-defect_density_per_cm2-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#pkg-die-0-defect_density_per_cm2-error'), /^Out of range: must be a number in \[0, 100\]/);
  assert.match(await page.textContent('#general-error'), /Die 1: Defect density \(per cm²\)/);
  // Empty, where a value is required: said at the field.
  await page.fill('#pkg-die-0-defect_density_per_cm2', '0.1');
  await page.fill('#pkg-die-0-wafer_usd', '');
  await page.locator('#pkg-die-0-wafer_usd-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#pkg-die-0-wafer_usd-error'), /Enter a number/);
  // Back to a preset node: the custom inputs go, and their error with them.
  await page.selectOption('#pkg-die-0-node', '7nm-actuary-2022');
  await page.waitForFunction(() => /pkg\.die1\.node=7nm-actuary-2022/.test(location.hash) && !/wafer_usd/.test(location.hash));
  assert.equal(await page.isVisible('#pkg-die-0-wafer_usd'), false);
  await page.locator('#general-error').waitFor({ state: 'hidden' });
  await assertClean(page);
  await page.close();

  // A link with a wafer key on a preset node: named, left out.
  const odd = await open(`${base}${LINK}${PACKAGE}&pkg.die1.wafer_usd=9000`);
  assert.match(await odd.textContent('#notice'), /"pkg\.die1\.wafer_usd" is a setting of a custom wafer/);
  await assertClean(odd);
  await odd.close();
});
