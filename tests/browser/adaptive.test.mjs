// The page on every screen, and small bugs of the form (issue "The page people keep open"):
// on a phone the headline comes before the form and the chart legends wrap instead of
// paging; at 1024 px the operator table shows Total, Share and Bound without scrolling;
// the "Start from…" name is never cut off; a system preset's hint says how many of its
// chips the scenario uses; a number beyond range names its field and range; an emptied
// field keeps the last results undimmed. Run after ./dev.sh build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './helpers.mjs';

let session;
let browser;

useBrowser((s) => {
  session = s;
  browser = s.browser;
});

async function openAt(width, hash = '', { height = 900, ready = '#result-body:not([hidden])', mobile = false } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, isMobile: mobile, hasTouch: mobile, serviceWorkers: 'block' });
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`pageerror: ${e.message}`));
  await page.goto(session.base + hash);
  await page.waitForSelector(ready, { timeout: 15000 });
  page.done = () => context.close();
  return page;
}

const chartsReady = (page) => page.waitForFunction(() => document.documentElement.dataset.charts === 'ready', null, { timeout: 15000 });

test('on a phone the headline numbers come first, on the first screen, before the form', async () => {
  const page = await openAt(390, '', { height: 844, mobile: true });
  const box = await page.evaluate(() => {
    const top = (sel) => document.querySelector(sel).getBoundingClientRect().top + window.scrollY;
    return { ttft: top('[data-metric="ttft"] .metric-value'), tpot: top('[data-metric="tpot"] .metric-value'),
      form: top('#inputs'), card: top('#latency-chart'), width: document.documentElement.scrollWidth };
  });
  assert.ok(box.ttft < 844 && box.tpot < 844, `the first numbers at ${box.ttft} px and ${box.tpot} px`);
  assert.ok(box.ttft < box.form, 'the headline before the form');
  assert.ok(box.form < box.card, 'the form before the charts');
  assert.ok(box.width <= 390, `the page is ${box.width} px wide`);
  await page.done();
});

test('on a phone every chart legend wraps under its plot and keeps every series (no paging)', async () => {
  const page = await openAt(390, '', { height: 844, mobile: true });
  await chartsReady(page);
  for (const split of ['class', 'bound', 'op']) {
    await page.evaluate((v) => document.querySelector(`input[name="split"][value="${v}"]`).click(), split);
    await page.waitForFunction((v) => location.hash.includes(`split=${v}`) || v === 'class', split);
    const legend = await page.evaluate(() => {
      const chart = window.echarts.getInstanceByDom(document.querySelector('#latency-chart'));
      const option = chart.getOption();
      const names = option.series.map((s) => s.name);
      return { type: option.legend[0].type, data: option.legend[0].data.map((d) => d.name ?? d), names,
        top: option.legend[0].top, height: document.querySelector('#latency-chart').clientHeight };
    });
    assert.equal(legend.type, 'plain', split);
    for (const name of legend.names) assert.ok(legend.data.includes(name), `${name} in the legend (${split})`);
    assert.ok(legend.height > legend.top, 'the legend inside the chart box');
    if (split === 'class') assert.ok(legend.data.includes('Collective'), 'the collectives are in the legend');
  }
  await page.done();
});

test('at 1024 px the operator table shows Total, Share and Bound without sideways scrolling', async () => {
  const page = await openAt(1024);
  const table = await page.evaluate(() => {
    const box = document.querySelector('#ops').closest('.table-scroll');
    const shown = (label) => [...document.querySelectorAll(`#ops thead th[data-col="${label}"]`)]
      .some((th) => th.getBoundingClientRect().width > 0 && th.getBoundingClientRect().right <= box.getBoundingClientRect().right + 0.5);
    return { scroll: box.scrollWidth, client: box.clientWidth, total: shown('Total'), share: shown('Share'), bound: shown('Bound'),
      note: getComputedStyle(document.querySelector('.ops-narrow-note')).display };
  });
  assert.ok(table.scroll <= table.client, `the table is ${table.scroll} px in a ${table.client} px box`);
  assert.ok(table.total && table.share && table.bound, JSON.stringify(table));
  assert.notEqual(table.note, 'none', 'the note says which columns are left out');
  await page.done();
  // Wide enough: every column, no note.
  const wide = await openAt(1600);
  assert.ok(await wide.evaluate(() => document.querySelector('#ops thead th[data-col="Intensity"]').getBoundingClientRect().width > 0));
  assert.equal(await wide.evaluate(() => getComputedStyle(document.querySelector('.ops-narrow-note')).display), 'none');
  await wide.done();
});

test('the "Start from…" preset name is shown whole at every width', async () => {
  for (const width of [390, 1024, 1440]) {
    const page = await openAt(width);
    const face = await page.evaluate(() => {
      const el = document.querySelector('.select-face');
      const select = document.querySelector('#scenario-preset');
      return { text: el.textContent, option: select.selectedOptions[0].textContent,
        cut: el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1, hidden: el.getAttribute('aria-hidden') };
    });
    assert.equal(face.text, face.option, `${width} px`);
    assert.equal(face.cut, false, `${width} px: the name overflows its box`);
    assert.equal(face.hidden, 'true');
    // The select is still the control: picking a preset changes the face.
    await page.selectOption('#scenario-preset', 'llama3-8b-h100-batch64-fp8');
    await page.waitForFunction(() => document.querySelector('.select-face').textContent.startsWith('Llama-3-8B on one H100'));
    await page.done();
  }
});

test('the one-H100 preset says it uses 1 chip of the system, not "8 × H100 per system"', async () => {
  const page = await openAt(1280);
  await page.selectOption('#scenario-preset', 'llama3-8b-h100-batch64-fp8');
  await page.waitForFunction(() => document.querySelector('#chips').value === '1');
  const hint = await page.textContent('#hardware-hint');
  assert.match(hint, /^1 × NVIDIA H100[^,]*, of the 8 in one system/);
  assert.doesNotMatch(hint, /^8 ×/);
  await page.fill('#chips', '16');
  await page.waitForFunction(() => /^16 × .*2 systems of 8/.test(document.querySelector('#hardware-hint').textContent));
  await page.done();
});

test('a 5,000-digit batch, in a link or typed, is out of range: the field and its range are named', async () => {
  const digits = '9'.repeat(5000);
  const page = await openAt(1280, `#model=llama-2-70b&system=dgx-h100&chips=8&tp=8&batch=${digits}&input=2048&output=256`,
    { ready: '#batch-error:not([hidden])' });
  const field = await page.textContent('#batch-error');
  assert.match(field, /^⚠?\s*Out of range: must be an integer in \[1, 10000000\]/);
  assert.doesNotMatch(field, /required/);
  const general = await page.textContent('#general-error');
  assert.match(general, /Batch \(sequences\): the value is out of range, it must be an integer in \[1, 10000000\]/);
  await page.done();

  // Typed (1e999, or 5,000 digits): beyond double range the browser empties a number input's value (as for "1e"),
  // so the page cannot know the digits; it says what may be wrong, not "required".
  const typed = await openAt(1280);
  await typed.fill('#batch', '');
  await typed.locator('#batch').pressSequentially('1e999');
  await typed.waitForFunction(() => /too large/.test(document.querySelector('#batch-error').textContent));
  assert.match(await typed.textContent('#batch-error'), /Not a number, or too large to be one/);
  await typed.done();
});

test('emptying a field while typing keeps the last results, undimmed; only the field is marked', async () => {
  const page = await openAt(1280);
  const before = await page.textContent('[data-metric="ttft"] .metric-value');
  await page.fill('#input', '');
  await page.locator('#input-error').waitFor({ state: 'visible' });
  const state = await page.evaluate(() => ({
    stale: document.querySelector('#result-body').classList.contains('stale'),
    opacity: getComputedStyle(document.querySelector('#summary')).opacity,
    general: document.querySelector('#general-error').hidden,
    marked: document.querySelector('[data-field="input"]').classList.contains('incomplete'),
    invalid: document.querySelector('#input').getAttribute('aria-invalid'),
  }));
  assert.deepEqual(state, { stale: false, opacity: '1', general: true, marked: true, invalid: 'true' });
  assert.equal(await page.textContent('[data-metric="ttft"] .metric-value'), before);
  await page.fill('#input', '4096');
  await page.locator('#input-error').waitFor({ state: 'hidden' });
  assert.notEqual(await page.textContent('[data-metric="ttft"] .metric-value'), before);
  assert.deepEqual(page.problems.filter((p) => !/mod\[msg\.method\]/.test(p)), []);
  await page.done();
});
