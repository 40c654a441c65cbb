// Training on a phone (a new user's test at 390 px) and on the desktop: the pipeline
// timeline drawn whole at its box's width (its "≈ end" label on screen, no sideways
// scrolling), the Inference/Training switch first in the form at every width, and the
// headline in a bar at the top of the screen while the form is edited in the one-column
// layout (a button to the results; axe finds nothing serious with it shown, in either
// theme). Run after ./dev.sh build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { useBrowser } from './helpers.mjs';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const PRESET = 'train-llama3-70b-64-h100';

let session;
useBrowser((s) => { session = s; });

async function openAt(width, { height = 900, mobile = false, colorScheme = 'light', path = '' } = {}) {
  const context = await session.browser.newContext({
    viewport: { width, height }, isMobile: mobile, hasTouch: mobile, colorScheme, reducedMotion: 'reduce', serviceWorkers: 'block',
  });
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`pageerror: ${e.message}`));
  await page.goto(session.base + path);
  await page.waitForSelector('#result-body:not([hidden])', { timeout: 15000 });
  page.done = () => context.close();
  return page;
}
const openPhone = (options = {}) => openAt(390, { height: 844, mobile: true, ...options });

async function loadTraining(page) {
  await page.selectOption('#scenario-preset', PRESET);
  await page.waitForSelector('#timeline svg');
}

const squash = (text) => text.replace(/\s+/g, ' ').trim();

// The timeline's drawing against its box and the screen.
const timelineBox = (page) => page.evaluate(() => {
  const box = document.querySelector('#timeline');
  const svg = box.querySelector('svg');
  const end = [...svg.querySelectorAll('.tl-axis text')].at(-1);
  const r = end.getBoundingClientRect();
  return {
    box: box.clientWidth, scroll: box.scrollWidth, drawn: Number(svg.getAttribute('width')),
    shown: svg.getBoundingClientRect().width, end: end.textContent, endRight: r.right,
    boxRight: box.getBoundingClientRect().right, screen: document.documentElement.clientWidth,
    label: getComputedStyle(svg.querySelector('.tl-label')).fontSize,
  };
});

test('at 390 px the whole pipeline timeline shows, its end label on screen, its text at full size', async () => {
  const page = await openPhone();
  await loadTraining(page);
  await page.locator('#timeline').scrollIntoViewIfNeeded();
  const t = await timelineBox(page);
  assert.ok(t.drawn <= t.box && t.box < 390, `drawn ${t.drawn} px in a ${t.box} px box`);
  assert.ok(t.scroll <= t.box, `the box scrolls: ${t.scroll} px in ${t.box} px`);
  assert.equal(Math.round(t.shown), t.drawn, 'drawn at its own size, not scaled down');
  assert.match(t.end, /^≈\s\d[\d.]*\ss$/);
  assert.ok(t.endRight <= t.boxRight + 0.5 && t.endRight <= t.screen, `the end label reaches ${t.endRight} px`);
  assert.equal(t.label, '11px');
  // The blocks fill the drawing: the last block ends inside it.
  const right = await page.evaluate(() => Math.max(...[...document.querySelectorAll('#timeline .tl-block')].map((b) => b.getBoundingClientRect().right)));
  assert.ok(right <= t.boxRight + 0.5, `blocks reach ${right} px`);
  // Turned to landscape: drawn again for the wider box.
  await page.setViewportSize({ width: 700, height: 390 });
  await page.waitForFunction((old) => Number(document.querySelector('#timeline svg').getAttribute('width')) > old, t.drawn);
  const wide = await timelineBox(page);
  assert.equal(wide.drawn, wide.box, `drawn ${wide.drawn} px in a ${wide.box} px box`);
  assert.deepEqual(page.problems, []);
  await page.done();
});

test('on the desktop the timeline is drawn as before: 760 px at 1440, the box\'s width at 1024, unscaled', async () => {
  for (const [width, expected] of [[1440, 760], [1024, null]]) {
    const page = await openAt(width);
    await loadTraining(page);
    const t = await timelineBox(page);
    if (expected) assert.equal(t.drawn, expected, `${width} px`);
    else assert.equal(t.drawn, t.box, `${width} px: drawn ${t.drawn} in ${t.box}`);
    assert.equal(Math.round(t.shown), t.drawn, `${width} px: not scaled`);
    assert.ok(t.scroll <= t.box, `${width} px`);
    assert.deepEqual(page.problems, []);
    await page.done();
  }
});

test('the Inference/Training switch is the form\'s first control, before Model, at every width, and still switches', async () => {
  for (const width of [390, 1024, 1440]) {
    const page = width === 390 ? await openPhone() : await openAt(width);
    const where = await page.evaluate(() => {
      const top = (el) => el.getBoundingClientRect().top + window.scrollY;
      const form = document.querySelector('#inputs');
      const controls = [...form.querySelectorAll('input, select, textarea, button')].filter((e) => e.offsetParent || e.closest('.segmented'));
      return {
        first: form.firstElementChild.matches('fieldset.mode-switch'),
        firstControl: controls[0].name,
        switchTop: top(document.querySelector('.mode-switch')), modelTop: top(document.querySelector('#model')),
        formTop: top(form), summaryBottom: document.querySelector('#summary').getBoundingClientRect().bottom + window.scrollY,
      };
    });
    assert.ok(where.first, `${width} px: the switch opens the form`);
    assert.equal(where.firstControl, 'mode');
    assert.ok(where.switchTop < where.modelTop, `${width} px: before Model`);
    assert.ok(where.switchTop - where.formTop < 40, `${width} px: ${where.switchTop - where.formTop} px under the form's top`);
    // On a phone: right under the headline, not 2,000 px down under Parallelism.
    if (width === 390) assert.ok(where.switchTop < where.summaryBottom + 400, `the switch at ${where.switchTop} px`);
    // Its name and its behaviour.
    const group = page.getByRole('group', { name: 'Mode' });
    assert.equal(await group.getByRole('radio').count(), 2);
    await group.getByText('Training').click();
    await page.waitForSelector('[data-metric="step"]');
    assert.equal(await page.isChecked('#mode-training'), true);
    assert.match(await page.evaluate(() => location.hash), /mode=training/);
    await group.getByText('Inference').click();
    await page.waitForSelector('[data-metric="ttft"]');
    assert.equal(await page.isChecked('#mode-inference'), true);
    assert.deepEqual(page.problems, []);
    await page.done();
  }
});

// The bar's state and the field's place under it.
const barState = (page, field) => page.evaluate((sel) => {
  const bar = document.querySelector('#headline-bar');
  const r = bar.getBoundingClientRect();
  const f = sel ? document.querySelector(sel).getBoundingClientRect() : null;
  return { shown: !bar.hidden && getComputedStyle(bar).display !== 'none', top: r.top, bottom: r.bottom,
    text: bar.textContent.replace(/\s+/g, ' ').trim(), fieldTop: f?.top, position: getComputedStyle(bar).position };
}, field);

const metricText = async (page, id) => squash(await page.textContent(`[data-metric="${id}"] .metric-value`));

test('on a phone the step time stays in view while a field is edited, and the bar leads back to the results', async () => {
  const page = await openPhone();
  await loadTraining(page);
  assert.equal((await barState(page)).shown, false, 'no bar while the headline is on screen');
  // Edit a training field far down the form.
  await page.locator('#seq_len').scrollIntoViewIfNeeded();
  const before = await metricText(page, 'step');
  await page.fill('#seq_len', '4096');
  await page.waitForFunction((old) => document.querySelector('[data-metric="step"] .metric-value').textContent.replace(/\s+/g, ' ').trim() !== old, before);
  await page.waitForFunction(() => !document.querySelector('#headline-bar').hidden);
  const bar = await barState(page, '#seq_len');
  assert.ok(bar.shown);
  assert.equal(bar.position, 'fixed');
  assert.equal(bar.top, 0);
  assert.ok(bar.fieldTop >= bar.bottom, `the field (${bar.fieldTop} px) under the bar (${bar.bottom} px)`);
  const step = await metricText(page, 'step');
  const mfu = await metricText(page, 'mfu');
  assert.ok(bar.text.includes(`Step time ${step}`), `${bar.text} shows ${step}`);
  assert.ok(bar.text.includes(`MFU ${mfu}`), bar.text);
  // Its accessible name carries the numbers; a button, in the tab order, not a live region.
  const button = page.getByRole('button', { name: new RegExp(`^Step time ${step.replace('.', '\\.')} MFU .* Results$`) });
  assert.equal(await button.count(), 1);
  assert.equal(await page.getAttribute('#headline-bar', 'aria-live'), null);
  // Inputs the engine refuses: the numbers are marked as the last valid ones.
  await page.fill('#tp', '3');
  await page.waitForFunction(() => /Last valid:/.test(document.querySelector('#headline-bar').textContent));
  await page.fill('#tp', '4');
  await page.waitForFunction(() => !/Last valid:/.test(document.querySelector('#headline-bar').textContent));
  // The bar brings the results back and moves the focus to their title; then it goes.
  await button.click();
  assert.equal(await page.evaluate(() => document.activeElement.id), 'scenario-title');
  const shown = await page.evaluate(() => {
    const r = document.querySelector('[data-metric="step"] .metric-value').getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
  });
  assert.ok(shown, 'the step time on screen');
  await page.waitForFunction(() => document.querySelector('#headline-bar').hidden);
  assert.deepEqual(page.problems, []);
  await page.done();
});

test('in inference the bar shows TTFT and TPOT; at 1440 px and in an embed there is no bar', async () => {
  const page = await openPhone();
  await page.locator('#batch').scrollIntoViewIfNeeded();
  const before = await metricText(page, 'ttft');
  await page.fill('#batch', '16');
  await page.waitForFunction((old) => document.querySelector('[data-metric="ttft"] .metric-value').textContent.replace(/\s+/g, ' ').trim() !== old, before);
  await page.waitForFunction(() => !document.querySelector('#headline-bar').hidden);
  const bar = await barState(page);
  assert.ok(bar.text.includes(`TTFT ${await metricText(page, 'ttft')}`), bar.text);
  assert.ok(bar.text.includes(`TPOT ${await metricText(page, 'tpot')}`), bar.text);
  await page.done();

  for (const [width, path] of [[1440, ''], [390, '?embed=1']]) {
    const other = width === 390 ? await openPhone({ path }) : await openAt(width, { path });
    await other.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await other.waitForTimeout(200);
    assert.equal((await barState(other)).shown, false, `${width} px ${path}`);
    await other.done();
  }
});

for (const colorScheme of ['light', 'dark']) {
  test(`axe: no serious or critical violations with the bar shown at 390 px, ${colorScheme}`, async () => {
    const page = await openPhone({ colorScheme });
    await loadTraining(page);
    await page.locator('#seq_len').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => !document.querySelector('#headline-bar').hidden);
    await page.evaluate(AXE);
    const found = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 6) })));
    assert.deepEqual(found, [], JSON.stringify(found, null, 1));
    await page.done();
  });
}
