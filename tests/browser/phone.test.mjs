// The built site on a phone-sized screen (390 × 844, touch), headless Chromium: no page
// pans sideways (wide tables scroll inside their own box), the header's links stay on
// screen, and the charts lay themselves out for the width (legends under the plot and
// unpaged, labels only where they fit, fewer size ticks). Run after ./dev.sh build.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './helpers.mjs';

const WIDTH = 390;
let session;
let phone;
let base;

before(async () => {
  session = await launch();
  base = session.base;
  phone = await session.context.browser().newContext({ viewport: { width: WIDTH, height: 844 }, isMobile: true, hasTouch: true });
});

after(async () => {
  await phone?.close();
  await session?.close();
});

async function openPhone(path, ready) {
  const page = await phone.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`pageerror: ${e.message}`));
  await page.goto(base + path);
  await page.waitForSelector(ready, { timeout: 10000 });
  // The chart library loads after the first numbers (the calculator page only).
  if (ready === '#result-body:not([hidden])') await page.waitForFunction(() => document.documentElement.dataset.charts, null, { timeout: 15000 });
  return page;
}

// The page's width and anything of the header that reaches past the screen's edge.
const fit = (page) => page.evaluate((width) => ({
  scrollWidth: document.documentElement.scrollWidth,
  offscreen: [...document.querySelectorAll('.site-header a, .site-header .engine-version')]
    .filter((e) => e.textContent.trim() && e.getBoundingClientRect().right > width + 0.5)
    .map((e) => e.textContent.trim()),
}), WIDTH);

const chartOption = (page, selector) => page.evaluate((sel) => {
  const option = window.echarts.getInstanceByDom(document.querySelector(sel)).getOption();
  return {
    legend: option.legend?.[0] && { type: option.legend[0].type, top: option.legend[0].top },
    grids: option.grid.map((g) => ({ top: g.top, height: g.height })),
    xAxis: option.xAxis.map((a) => ({ type: a.type, logBase: a.logBase })),
    labels: option.series.flatMap((s) => s.data.map((d) => (d?.label?.show ?? s.label?.show) ?? false)),
    height: document.querySelector(sel).clientHeight,
  };
}, selector);

test('the calculator fits 390 px: no sideways scroll, header on screen, tables scroll in their box', async () => {
  const page = await openPhone('', '#result-body:not([hidden])');
  await page.waitForFunction(() => document.querySelector('#engine-version').textContent !== '');
  const { scrollWidth, offscreen } = await fit(page);
  assert.ok(scrollWidth <= WIDTH, `the page is ${scrollWidth} px wide`);
  assert.deepEqual(offscreen, []);
  // The operator table is wider than the screen and scrolls inside its own box.
  const table = await page.evaluate(() => {
    const box = document.querySelector('#ops').closest('.table-scroll');
    return { inner: box.scrollWidth, outer: box.clientWidth, overflow: getComputedStyle(box).overflowX };
  });
  assert.ok(table.inner > table.outer, 'the table is wider than its box');
  assert.equal(table.overflow, 'auto');

  // The legends sit under their plots, unpaged; the collective's sizes tick per 1024×.
  const latency = await chartOption(page, '#latency-chart');
  assert.equal(latency.legend.type, 'plain');
  assert.ok(latency.legend.top >= latency.grids.at(-1).top + latency.grids.at(-1).height, 'legend under the bars');
  const collective = await chartOption(page, '#collective-chart');
  assert.equal(collective.legend.type, 'plain');
  assert.ok(collective.legend.top > collective.grids[0].top + collective.grids[0].height);
  assert.equal(collective.xAxis[0].logBase, 1024);
  assert.ok(collective.height >= collective.legend.top, 'the chart is tall enough for its legend');
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('a training scenario fits 390 px, and memory labels show only in segments wide enough', async () => {
  const page = await openPhone('', '#result-body:not([hidden])');
  await page.selectOption('#scenario-preset', 'train-llama3-70b-64-h100');
  await page.waitForSelector('[data-metric="step"]');
  const { scrollWidth, offscreen } = await fit(page);
  assert.ok(scrollWidth <= WIDTH, `the page is ${scrollWidth} px wide`);
  assert.deepEqual(offscreen, []);
  const memory = await chartOption(page, '#stage-memory-chart');
  assert.ok(memory.legend.top >= memory.grids[0].top + memory.grids[0].height, 'legend under the bars');
  // At this width the thin weights and gradients segments carry no value label.
  const shown = memory.labels.filter(Boolean).length;
  assert.ok(shown > 0 && shown < memory.labels.length / 2, `${shown} of ${memory.labels.length} labels shown`);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the validation and methodology pages fit 390 px', async () => {
  for (const [path, ready] of [['validation.html', '#validation-cases tbody tr'], ['methodology.html', '#doc h2']]) {
    const page = await openPhone(path, ready);
    const { scrollWidth, offscreen } = await fit(page);
    assert.ok(scrollWidth <= WIDTH, `${path} is ${scrollWidth} px wide`);
    assert.deepEqual(offscreen, [], path);
    assert.deepEqual(page.problems, [], path);
    await page.close();
  }
});
