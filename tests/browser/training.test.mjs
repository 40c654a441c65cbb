// Training mode in the built page (build/site), headless Chromium: the mode switch, a
// training preset's results (step time, MFU, the step breakdown, memory per stage, the
// pipeline timeline, the backward operators), an edit and its link, and engine errors at
// the training fields. Run after ./dev.sh build:  node --test tests/browser/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useBrowser, open as openIn, assertClean, metric, headline } from './helpers.mjs';

const PRESET = 'train-llama3-70b-64-h100';
const doc = JSON.parse(readFileSync(new URL(`../../presets/scenarios/${PRESET}.json`, import.meta.url), 'utf8'));

let context;
let base;
const open = (url) => openIn(context, url);
useBrowser((session) => ({ context, base } = session));

// The values of the inputs a person sees (the other mode's inputs are hidden).
const visibleInputs = (page) => page.evaluate(() => Object.fromEntries(
  [...document.querySelectorAll('#inputs input, #inputs select')].filter((e) => !e.closest('[hidden]'))
    .map((e) => [e.id, e.type === 'checkbox' || e.type === 'radio' ? e.checked : e.value])));

// A number shown with a unit ("8.9 s", "44.8%") as a number in seconds or a fraction.
function shownNumber(text) {
  const m = text.trim().match(/^([\d.,]+)\s*(ms|s|%)$/);
  assert.ok(m, `not a time or a share: ${text}`);
  const value = Number(m[1].replace(/,/g, ''));
  return m[2] === 'ms' ? value / 1e3 : m[2] === '%' ? value / 100 : value;
}

async function loadPreset(page) {
  await page.selectOption('#scenario-preset', PRESET);
  await page.waitForFunction(() => location.hash.startsWith('#v=1&mode=training') && document.querySelector('[data-metric="step"]'));
}

test('the mode switch shows the training inputs and views, and switching back restores inference exactly', async () => {
  const page = await open(base);
  const hash = await page.evaluate(() => location.hash);
  const shown = await headline(page);
  assert.equal(await page.isVisible('#batch'), true);
  assert.equal(await page.isVisible('#seq_len'), false);

  // Llama-2-70B cannot train on 8 H100 even with full recomputation and ZeRO 1 (≈ 156 GB
  // per chip), so the first switch loads the training preset of one DGX H100, and says so.
  await page.click('label[for="mode-training"]');
  await page.waitForSelector('[data-metric="step"]');
  const trainingHash = await page.evaluate(() => location.hash);
  assert.match(trainingHash, /^#v=1&mode=training&model=llama-3-8b&system=dgx-h100&chips=8&tp=1&pp=1&dp=4&sp=off&cp=2&zero=1&/);
  assert.equal(await page.inputValue('#scenario-preset'), 'train-llama3-8b-8-h100');
  assert.match(await page.textContent('#notice'), /Llama-2-70B on 8 chips does not fit in memory.*Train Llama-3-8B on one DGX H100/);
  assert.match(await page.textContent('[data-metric="memory"]'), /fits/);
  for (const id of ['#seq_len', '#global_batch', '#micro_batch', '#recompute', '#train_precision', '#train_flash', '#dropout', '#train_tokens', '#cp', '#zero', '#schedule', '#sp']) {
    assert.equal(await page.isVisible(id), true, `${id} shown in training`);
  }
  for (const id of ['#batch', '#input', '#output', '#engine', '#weights', '#micro_batches', '#virtual_stages', '#latency-chart', '#memory-chart']) {
    assert.equal(await page.isVisible(id), false, `${id} hidden in training`);
  }
  assert.ok(await page.$('#timeline svg'));
  assert.match(await page.textContent('#scenario-desc'), /^training · TP 1 × CP 2 × DP 4 · ZeRO 1/);
  // The framework options sit in a closed section that opens with the keyboard.
  await page.focus('#framework summary');
  await page.keyboard.press('Enter');
  assert.equal(await page.isVisible('#overlap_grad_reduce'), true);
  await assertClean(page);

  await page.click('label[for="mode-inference"]');
  await page.waitForSelector('[data-metric="ttft"]');
  assert.equal(await page.evaluate(() => location.hash), hash);
  assert.deepEqual(await headline(page), shown);
  assert.equal(await page.isVisible('#latency-chart'), true);
  assert.equal(await page.isVisible('#timeline'), false);
  assert.equal(await page.isVisible('#notice'), false);
  await assertClean(page);

  // And to training again: the same training scenario as before.
  await page.click('label[for="mode-training"]');
  await page.waitForSelector('[data-metric="step"]');
  assert.equal(await page.evaluate(() => location.hash), trainingHash);
  await page.close();
});

test('the first switch to training keeps a model that fits with memory-lean settings', async () => {
  // Llama-2-70B on 32 H100, TP 8: the usual defaults need ≈ 185 GB per chip; one sequence
  // per micro-batch, full recomputation, ZeRO 1 and SP bring it under 80 GiB.
  const page = await open(`${base}#model=llama-2-70b&system=dgx-h100&chips=32&tp=8&pp=1&batch=1&input=2048&output=256&precision=bf16&flash=on`);
  await page.click('label[for="mode-training"]');
  await page.waitForSelector('[data-metric="step"]');
  assert.match(await page.evaluate(() => location.hash),
    /^#v=1&mode=training&model=llama-2-70b&system=dgx-h100&chips=32&tp=8&pp=1&sp=on&cp=1&zero=1&.*&micro_batch=1&recompute=full&/);
  assert.equal(await page.inputValue('#model'), 'llama-2-70b');
  assert.equal(await page.inputValue('#recompute'), 'full');
  assert.equal(await page.inputValue('#zero'), '1');
  assert.match(await page.textContent('[data-metric="memory"]'), /fits/);
  assert.equal(await page.isVisible('#notice'), false);
  await assertClean(page);
  await page.close();
});

test('"with recomputation" is said only when something is recomputed', async () => {
  const page = await open(base);
  await loadPreset(page); // recompute = none
  const mfu = await page.textContent('[data-metric="mfu"] .metric-sub');
  const tflops = await page.textContent('[data-metric="tflops"] .metric-sub');
  assert.match(mfu, /^HFU [\d.]+%$/);
  assert.doesNotMatch(tflops, /with recomputation/);
  const blocks = await page.$$eval('#timeline .tl-b title', (ts) => ts.map((t) => t.textContent));
  assert.ok(blocks.length > 0);
  for (const text of blocks) assert.doesNotMatch(text, /recomputation/);
  assert.doesNotMatch(await page.getAttribute('#breakdown-list li[data-part="compute_s"]', 'title'), /recomputation/);

  for (const mode of ['selective', 'full']) {
    await page.selectOption('#recompute', mode);
    await page.waitForFunction((m) => location.hash.includes(`recompute=${m}`), mode);
    await page.waitForFunction(() => /with recomputation/.test(document.querySelector('[data-metric="mfu"] .metric-sub').textContent));
    assert.match(await page.textContent('[data-metric="tflops"] .metric-sub'), /TFLOP\/s with recomputation/);
    assert.match(await page.textContent('#timeline .tl-b title'), /backward \(recomputation included\)/);
    assert.match(await page.getAttribute('#breakdown-list li[data-part="compute_s"]', 'title'), /recomputation included/);
  }
  await assertClean(page);
  await page.close();
});

test('a training preset fills the form and shows step time, MFU, the breakdown, memory per stage and the timeline', async () => {
  const page = await open(base);
  await loadPreset(page);
  const stages = doc.parallelism.pp;
  assert.equal(await page.isChecked('#mode-training'), true);
  assert.equal(await page.inputValue('#scenario-preset'), PRESET);
  assert.equal(await page.inputValue('#seq_len'), String(doc.workload.seq_len));
  assert.equal(await page.inputValue('#global_batch'), String(doc.workload.global_batch));
  assert.equal(await page.inputValue('#train_precision'), doc.workload.precision);
  assert.equal(await page.inputValue('#cp'), String(doc.parallelism.cp));
  assert.equal(await page.inputValue('#schedule'), doc.parallelism.schedule);
  assert.equal(await page.inputValue('#virtual_stages'), String(doc.parallelism.virtual_stages));
  assert.equal(await page.isChecked('#sp'), doc.parallelism.sp);
  assert.match(await page.textContent('#micro_batch-hint'), /^\d+ micro-batches per replica/);

  const step = shownNumber(await metric(page, 'step'));
  assert.ok(step > 0);
  // The measured-run range of the bundled training cases beside the step time.
  assert.match(await page.textContent('[data-metric="step"] .metric-band'), /^if off like past runs: .+ – .+/);
  const mfu = shownNumber(await metric(page, 'mfu'));
  assert.ok(mfu > 0.05 && mfu < 1, `MFU ${mfu}`);
  assert.match(await page.textContent('[data-metric="mfu"]'), /HFU \d.*causal mask not halved \(Korthikanti et al\. 2022 eq\. 7\)/);
  assert.match(await metric(page, 'tokens'), /tokens\/s/);
  assert.match(await metric(page, 'tflops'), /TFLOP\/s/);

  // The breakdown's parts add up to the step time (within 1%), which the headline shows.
  const parts = await page.$$eval('#breakdown-list li[data-part]', (lis) => lis.map((li) => Number(li.dataset.seconds)));
  const total = Number(await page.getAttribute('#breakdown-list .breakdown-total', 'data-seconds'));
  assert.ok(parts.length >= 2);
  assert.ok(Math.abs(parts.reduce((a, b) => a + b, 0) - total) <= 0.01 * total);
  assert.ok(Math.abs(step - total) <= 0.01 * total, `headline ${step} s, breakdown ${total} s`);
  assert.ok(await page.$('#breakdown-chart canvas'));
  assert.match(await page.textContent('#breakdown-list'), /Compute/);

  // One memory bar per stage, against the capacity.
  const memory = await page.evaluate(() => {
    const option = window.echarts.getInstanceByDom(document.querySelector('#stage-memory-chart')).getOption();
    return { bars: option.yAxis[0].data, lengths: option.series.map((s) => s.data.length), names: option.series.map((s) => s.name) };
  });
  assert.deepEqual(memory.bars, Array.from({ length: stages }, (_, i) => `Stage ${i}`));
  assert.ok(memory.lengths.every((n) => n === stages));
  assert.deepEqual(memory.names.slice(0, 4), ['Weights', 'Gradients', 'Optimizer states', 'Activations']);

  // The timeline: a row per stage, each with forward and backward blocks.
  const rows = await page.$$eval('#timeline .tl-row', (gs) => gs.map((g) => ({
    f: g.querySelectorAll('.tl-f').length, b: g.querySelectorAll('.tl-b').length,
  })));
  assert.equal(rows.length, stages);
  for (const row of rows) assert.ok(row.f > 0 && row.b > 0, JSON.stringify(row));
  assert.match(await page.textContent('#timeline .tl-f title'), /^Stage \d+ · forward of micro-batch \d+/);

  // The mapping and network views read the training result too.
  assert.ok(await page.$('#mapping svg'));
  assert.match(await page.textContent('#mapping-dims'), /CP 2/);
  assert.ok(await page.$('#collective-chart canvas'));

  // The backward operators, with their variants.
  // Click the label, as a person does: the radio itself is a 1-pixel, transparent input.
  await page.click('label[for="table-backward"]');
  await page.waitForFunction(() => /wgrad/.test(document.querySelector('#ops tbody').textContent));
  assert.match(await page.textContent('#ops thead'), /Variant/);
  assert.match(await page.textContent('#ops tbody'), /dgrad/);
  assert.match(await page.evaluate(() => location.hash), /table=backward/);
  await assertClean(page);

  // Every "?" of the training views lands on a heading of the methodology.
  const links = await page.evaluate(() => [...document.querySelectorAll('a.how')].filter((a) => !a.closest('[hidden]'))
    .map((a) => a.getAttribute('href').split('#')[1]));
  const methodology = await context.newPage();
  await methodology.goto(`${base}methodology.html`);
  await methodology.locator('#doc h2').first().waitFor({ timeout: 10000 });
  const ids = await methodology.evaluate(() => [...document.querySelectorAll('#doc h2, #doc h3')].map((e) => e.id));
  assert.ok(links.length >= 8);
  for (const id of links) assert.ok(ids.includes(id), `no heading #${id} in the methodology`);
  await methodology.close();
  await page.close();
});

test('full recomputation changes the step time, and its link restores everything exactly', async () => {
  const page = await open(base);
  await loadPreset(page);
  const before = await metric(page, 'step');
  await page.selectOption('#recompute', 'full');
  await page.waitForFunction((old) => document.querySelector('[data-metric="step"] .metric-value').textContent !== old, before);
  assert.ok(shownNumber(await metric(page, 'step')) > shownNumber(before));
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /recompute=full/);
  assert.equal(await page.inputValue('#scenario-preset'), '');

  const form = await visibleInputs(page);
  const summary = await page.textContent('#summary');
  const breakdown = await page.textContent('#breakdown-list');
  const timeline = await page.innerHTML('#timeline');
  const copy = await open(base + hash);
  assert.deepEqual(await visibleInputs(copy), form);
  assert.equal(await copy.textContent('#summary'), summary);
  assert.equal(await copy.textContent('#breakdown-list'), breakdown);
  assert.equal(await copy.innerHTML('#timeline'), timeline);
  assert.equal(await copy.evaluate(() => location.hash), hash);
  await assertClean(copy);
  await copy.close();

  // The schedule choice keeps the chunks consistent: 1F1B has one, interleaving at least two.
  await page.selectOption('#schedule', '1f1b');
  await page.waitForFunction(() => /schedule=1f1b&vs=1&/.test(location.hash));
  assert.equal(await page.isVisible('#virtual_stages'), false);
  await page.selectOption('#schedule', 'interleaved_1f1b');
  await page.waitForFunction(() => /schedule=interleaved_1f1b&vs=2&/.test(location.hash));
  assert.equal(await page.inputValue('#virtual_stages'), '2');
  await assertClean(page);
  await page.close();
});

test('a global batch that is not a whole number of micro-batches per replica shows the engine error at that field', async () => {
  const page = await open(base);
  await loadPreset(page);
  const dp = doc.parallelism.dp;
  const bad = doc.workload.global_batch + 1;
  await page.fill('#global_batch', String(bad));
  const error = page.locator('#global_batch-error');
  await error.waitFor({ state: 'visible' });
  assert.match(await error.textContent(), new RegExp(`global batch ${bad} .*micro-batches of 1 on each of the ${dp}`));
  assert.equal(await page.getAttribute('#global_batch', 'aria-invalid'), 'true');
  assert.match(await page.textContent('#general-error'), /cannot be computed.*Global batch/);
  assert.equal(await page.evaluate(() => document.querySelector('#result-body').classList.contains('stale')), true);
  assert.match(await page.evaluate(() => location.hash), new RegExp(`global_batch=${bad}`));

  await page.fill('#global_batch', String(doc.workload.global_batch));
  await error.waitFor({ state: 'hidden' });
  assert.equal(await page.evaluate(() => document.querySelector('#result-body').classList.contains('stale')), false);
  await assertClean(page);
  await page.close();
});

test('links with training errors put them at the training fields', async () => {
  const hash = (edits) => {
    let h = '#mode=training&model=llama-3-70b&system=dgx-h100&chips=64&tp=4&pp=4&dp=2&sp=on&cp=2&zero=1'
      + '&schedule=interleaved_1f1b&vs=5&seq=8192&global_batch=128&micro_batch=1&recompute=none&precision=fp8&flash=on&dropout=off';
    for (const [key, value] of Object.entries(edits)) h = h.replace(new RegExp(`([#&]${key}=)[^&]*`), `$1${value}`);
    return h;
  };
  const cases = [
    [{ schedule: '1f1b' }, 'virtual_stages', /interleaved_1f1b/],
    [{ seq: '8191' }, 'cp', /CP = 2 must divide/],
    [{ system: 'dgx-a100' }, 'train_precision', /fp8/],
  ];
  for (const [edits, field, message] of cases) {
    const page = await context.newPage();
    await page.goto(base + hash(edits));
    const error = page.locator(`#${field}-error`);
    await error.waitFor({ state: 'visible', timeout: 10000 });
    assert.match(await error.textContent(), message, field);
    assert.equal(await page.isVisible(`#${field}`), true);
    await page.close();
  }
});

test('NVMe offload is offered only where the host has NVMe bandwidth (a custom system can give it)', async () => {
  const link = `${base}#v=1&mode=training&model=llama-3-8b&system=dgx-h100&chips=8&tp=1&pp=1&dp=8&seq=4096&global_batch=64&micro_batch=1&zero=3`;
  const page = await open(link);
  await page.waitForSelector('[data-metric="step"]');
  const nvme = (id) => page.$eval(`#${id} option[value="nvme"]`, (o) => ({ disabled: o.disabled, text: o.textContent }));
  // The DGX H100 preset gives no NVMe bandwidth.
  for (const id of ['offload_optimizer', 'offload_parameters']) {
    const o = await nvme(id);
    assert.equal(o.disabled, true, id);
    assert.match(o.text, /no NVMe bandwidth for this system: set one under Custom system/);
  }
  // A custom host with 7 GB/s of NVMe per chip: offered.
  const custom = await open(`${link}&host.nvme_gbps=7`);
  await custom.waitForSelector('[data-metric="step"]');
  const o = await custom.$eval('#offload_optimizer option[value="nvme"]', (e) => ({ disabled: e.disabled, text: e.textContent }));
  assert.deepEqual(o, { disabled: false, text: 'NVMe' });
  await assertClean(page);
  await assertClean(custom);
});
