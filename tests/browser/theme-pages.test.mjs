// The theme on the validation and methodology pages: each has the calculator's switch
// (web/js/theme.js), the validation chart is drawn in the theme and redraws when it
// changes (the switch, or the system while the choice is "system"), its tooltip is the dark
// card, and axe-core finds no serious contrast or other issue in either theme.
// Run after ./dev.sh build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { useBrowser } from './helpers.mjs';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

let session;
useBrowser((s) => {
  session = s;
});

const READY = { 'validation.html': '#validation-chart canvas', 'methodology.html': '#doc h2' };

async function openPage(context, name) {
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') page.problems.push(m.text());
  });
  await page.goto(`${session.base}${name}`);
  await page.waitForSelector(READY[name], { timeout: 15000 });
  return page;
}

// The colours the validation chart is drawn with (the light theme's: palette.js; the
// dark theme's: views/chart-theme.js).
const chartColours = (page) => page.evaluate(() => {
  const o = window.echarts.getInstanceByDom(document.querySelector('#validation-chart')).getOption();
  return {
    label: o.xAxis[0].axisLabel.color, name: o.yAxis[0].nameTextStyle.color,
    grid: o.xAxis[0].splitLine.lineStyle.color, legend: o.legend[0].textStyle.color, text: o.textStyle.color,
  };
});
const LIGHT = { label: '#5b6675', name: '#5b6675', grid: '#e6ebf2', legend: '#5b6675' };
const DARK = { label: '#a9b4c2', name: '#a9b4c2', grid: '#394556', legend: '#a9b4c2', text: '#a9b4c2' };
const drawnIn = (page, want) => page.waitForFunction((w) => {
  const o = window.echarts.getInstanceByDom(document.querySelector('#validation-chart')).getOption();
  return o.xAxis[0].axisLabel.color === w.label && o.xAxis[0].splitLine.lineStyle.color === w.grid;
}, want);

test('both pages have the calculator\'s theme switch, set to the current choice', async () => {
  const context = await session.browser.newContext({ colorScheme: 'dark', serviceWorkers: 'block' });
  for (const name of Object.keys(READY)) {
    const page = await openPage(context, name);
    const box = await page.evaluate(() => {
      const s = document.querySelector('.site-header #theme-switch');
      return s && { legend: s.querySelector('legend').textContent,
        choices: [...s.querySelectorAll('input[name="theme"]')].map((i) => i.value),
        checked: s.querySelector('input:checked')?.value };
    });
    assert.deepEqual(box, { legend: 'Theme', choices: ['light', 'dark', 'system'], checked: 'system' }, name);
    assert.deepEqual(page.problems, [], name);
    await page.close();
  }
  await context.close();
});

test('the validation chart is drawn in the theme and redraws when it changes', async () => {
  const context = await session.browser.newContext({ colorScheme: 'dark', serviceWorkers: 'block' });
  const page = await openPage(context, 'validation.html');
  await drawnIn(page, DARK);
  assert.deepEqual(await chartColours(page), DARK);
  // The tooltip: the dark card (css/theme.css), its text the page's ink.
  const tip = await page.evaluate(() =>
    window.echarts.getInstanceByDom(document.querySelector('#validation-chart')).getOption().tooltip[0].className);
  assert.equal(tip, 'echarts-tooltip');
  // The system turns light while the choice is "system": the chart follows.
  await page.emulateMedia({ colorScheme: 'light' });
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  await drawnIn(page, LIGHT);
  const { text: _, ...light } = await chartColours(page); // (ECharts' own default text colour)
  assert.deepEqual(light, LIGHT);
  // The switch: dark, remembered, and the chart redrawn.
  await page.click('label[for="theme-dark"]');
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  await drawnIn(page, DARK);
  assert.equal(await page.evaluate(() => localStorage.getItem('envelope-theme')), 'dark');
  // Hovering a point shows the tooltip on the dark card.
  const point = await page.evaluate(() => {
    const chart = window.echarts.getInstanceByDom(document.querySelector('#validation-chart'));
    const series = chart.getOption().series.findIndex((s) => s.type === 'scatter');
    const [x, y] = chart.convertToPixel({ seriesIndex: series }, chart.getOption().series[series].data[0].value);
    const box = document.querySelector('#validation-chart').getBoundingClientRect();
    return { x: box.left + x, y: box.top + y };
  });
  await page.mouse.move(point.x, point.y);
  await page.waitForSelector('.echarts-tooltip', { state: 'visible', timeout: 5000 });
  const card = await page.evaluate(() => {
    const t = document.querySelector('.echarts-tooltip');
    return { bg: getComputedStyle(t).backgroundColor, ink: getComputedStyle(t).color };
  });
  assert.deepEqual(card, { bg: 'rgb(23, 31, 43)', ink: 'rgb(228, 234, 241)' });
  assert.deepEqual(page.problems, []);
  await context.close();
});

test('a choice made on the methodology page holds on the others', async () => {
  const context = await session.browser.newContext({ colorScheme: 'light', serviceWorkers: 'block' });
  const page = await openPage(context, 'methodology.html');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
  await page.click('label[for="theme-dark"]');
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  const [r, g, b] = (await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).match(/\d+/g).map(Number);
  assert.ok(r + g + b < 200, `a dark background, got rgb(${r}, ${g}, ${b})`);
  await page.goto(`${session.base}validation.html`);
  await page.waitForSelector(READY['validation.html'], { timeout: 15000 });
  assert.equal(await page.isChecked('#theme-dark'), true);
  await drawnIn(page, DARK);
  await context.close();
});

for (const scheme of ['light', 'dark']) {
  for (const width of [1280, 390]) {
    test(`axe: no serious or critical violations on the validation and methodology pages, ${width} px ${scheme}`, async () => {
      const context = await session.browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme, serviceWorkers: 'block' });
      for (const name of Object.keys(READY)) {
        const page = await openPage(context, name);
        assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), scheme, name);
        await page.evaluate(AXE); // through the DevTools protocol: the page's CSP does not apply
        const found = (await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] }))
          .violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 6) }))))
          .filter((v) => v.impact === 'serious' || v.impact === 'critical');
        assert.deepEqual(found, [], `${name}: ${JSON.stringify(found, null, 1)}`);
        await page.close();
      }
      await context.close();
    });
  }
}
