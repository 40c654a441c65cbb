// Inference serving in the built page (build/site), headless Chromium: speculative decoding
// (E in the summary, a lower time per token, errors at its fields), continuous batching at a
// concurrency, the "does it fit?" answer under the memory verdict with its Apply, the
// throughput–latency curve with the scenario's point marked, and links that carry all of it.
// Run after ./dev.sh build:  node --test tests/browser/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open as openIn, assertClean, inputs, headline, metric } from './helpers.mjs';

let context;
let base;
const open = (url) => openIn(context, url);
useBrowser((session) => ({ context, base } = session));

const hash = (page) => page.evaluate(() => location.hash);
// Milliseconds, as the TPOT headline shows them ("10.8 ms").
const tpotMs = async (page) => {
  const [value, unit] = (await metric(page, 'tpot')).trim().split(/\s+/);
  return Number(value) * { 's': 1000, 'ms': 1, 'µs': 1e-3 }[unit];
};
// The curve drawn for this batch (it is computed after a short pause); `more`: what else
// the chart's data attributes must say ({serving, over: the points that do not fit}).
const curveFor = (page, batch, more = {}) => page.waitForFunction(([b, m]) => {
  const d = document.querySelector('#curve-chart')?.dataset ?? {};
  return d.batch === String(b) && (m.serving === undefined || d.serving === m.serving) && (m.over === undefined || (m.over ? d.over > 0 : d.over === '0'));
}, [batch, more]);
const curveSeries = (page) => page.evaluate(() => Object.fromEntries(window.echarts.getInstanceByDom(document.querySelector('#curve-chart'))
  .getOption().series.map((s) => [s.name, s.data.length])));

test('speculative decoding: E in the summary, a lower time per token, errors at its fields, and back off', async () => {
  const page = await open(base);
  assert.equal(await page.isVisible('#spec-fields'), false, 'off by default');
  assert.equal(await page.$('[data-metric="spec"]'), null);
  const plain = await tpotMs(page);

  await page.check('#spec');
  await page.waitForSelector('[data-metric="spec"]');
  // k = 4 drafts at α = 0.8: E = 1 + 0.8 + 0.64 + 0.512 + 0.4096 = 3.3616 (METHODOLOGY §15.1).
  assert.equal((await metric(page, 'spec')).trim(), '3.36');
  assert.match(await page.textContent('[data-metric="spec"]'), /4 draft tokens at acceptance 0\.8, drafted by a one-layer head/);
  assert.ok(await tpotMs(page) < plain, `TPOT with speculation ${await tpotMs(page)} ms, without ${plain} ms`);
  assert.match(await hash(page), /&draft_tokens=4&acceptance_rate=0\.8(&|$)/);
  assert.match(await page.textContent('#scenario-desc'), /speculative decoding \(4 drafts at 0\.8 acceptance\)/);

  // Every draft accepted: E = k + 1 = 5.
  await page.fill('#acceptance_rate', '1');
  await page.waitForFunction(() => /^5\b/.test(document.querySelector('[data-metric="spec"] .metric-value').textContent.trim()));
  // A draft model: Llama-3-8B has 32 heads, which TP 8 divides.
  await page.selectOption('#draft_model', 'llama-3-8b');
  await page.waitForFunction(() => /draft_model=llama-3-8b/.test(location.hash));
  assert.match(await page.textContent('[data-metric="spec"]'), /drafted by Llama-3-8B/);
  assert.equal(await page.isVisible('#general-error'), false);
  await assertClean(page);

  // Out of range: the engine's error at the field.
  await page.fill('#draft_tokens', '100');
  await page.locator('#draft_tokens-error').waitFor({ state: 'visible' });
  assert.equal(await page.getAttribute('#draft_tokens', 'aria-invalid'), 'true');
  await page.fill('#draft_tokens', '4');
  await page.locator('#draft_tokens-error').waitFor({ state: 'hidden' });
  // With pipeline stages speculation is refused: the error at its checkbox.
  await page.fill('#tp', '4');
  await page.fill('#pp', '2');
  await page.locator('#spec-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#spec-error'), /pp = 1/);
  await page.fill('#pp', '1');
  await page.locator('#spec-error').waitFor({ state: 'hidden' });
  await page.fill('#tp', '8');

  await page.uncheck('#spec');
  await page.waitForFunction(() => !/draft_tokens/.test(location.hash));
  assert.equal(await page.isVisible('#spec-fields'), false);
  assert.equal(await page.$('[data-metric="spec"]'), null);
  // On again: the settings it had.
  await page.check('#spec');
  await page.waitForFunction(() => /draft_model=llama-3-8b/.test(location.hash));
  assert.equal(await page.inputValue('#acceptance_rate'), '1');
  await assertClean(page);
  await page.close();
});

test('continuous batching: the batch becomes concurrent requests, the link and the headline say so', async () => {
  const page = await open(`${base}#model=llama-3-8b&system=dgx-h100&chips=8&tp=1&pp=1&batch=32&input=1024&output=256&precision=bf16&flash=on`);
  assert.equal(await page.textContent('label[for="batch"]'), 'Batch (sequences)');
  const ttft = (await headline(page)).ttft;
  await page.selectOption('#serving', 'concurrency');
  await page.waitForFunction(() => /&serving=concurrency/.test(location.hash));
  assert.equal(await page.textContent('label[for="batch"]'), 'Concurrent requests');
  assert.match(await page.textContent('#scenario-desc'), /continuous batching of 32 concurrent requests/);
  assert.match(await page.textContent('[data-metric="ttft"]'), /one request's prefill of 1,024 tokens/);
  // One request's prefill, not 32 of them: the time to first token is shorter.
  assert.notEqual((await headline(page)).ttft, ttft);
  assert.match(await page.textContent('[data-metric="memory"] .metric-fit'), /^Largest concurrency that fits: [\d,]+ · Longest context: [\d,]+ tokens$/);
  await curveFor(page, 32, { serving: 'concurrency' });
  assert.match(await page.textContent('#curve-table thead'), /Concurrency/);
  await assertClean(page);
  await page.selectOption('#serving', 'static');
  await page.waitForFunction(() => !/serving=/.test(location.hash));
  assert.equal(await page.textContent('label[for="batch"]'), 'Batch (sequences)');
  await page.close();
});

test('DeepSeek-V3: latent attention and layer groups in the editor, the fit answer and its Apply', async () => {
  const page = await open(base);
  await page.selectOption('#model', 'deepseek-v3');
  await page.selectOption('#hardware', 'system:hgx-h200');
  for (const role of ['weights', 'kv_cache', 'activations']) await page.selectOption(`#${role}`, 'fp8');
  await page.fill('#batch', '8');
  await page.waitForFunction(() => /DeepSeek-V3 on 8 × NVIDIA H200/.test(document.querySelector('#scenario-title').textContent)
    && /&batch=8&/.test(location.hash) && /precision=fp8/.test(location.hash));
  await page.click('#arch summary');
  assert.equal(await page.isVisible('#arch-mla'), true);
  const mla = ['q_lora_rank', 'kv_lora_rank', 'qk_rope_dim', 'qk_nope_dim', 'v_head_dim'];
  assert.deepEqual(await Promise.all(mla.map((f) => page.inputValue(`#arch-${f}`))), ['1536', '512', '64', '128', '128']);
  assert.equal(await page.isVisible('#arch-groups'), true);
  const rows = await page.$$eval('#arch-groups-table tbody tr', (trs) => trs.map((tr) => tr.textContent));
  assert.equal(rows.length, 2);
  assert.match(rows[0], /^3.*latent attention.*dense/);
  assert.match(rows[1], /^58.*256 experts, 8 per token, 1 shared/);
  assert.equal(await page.isVisible('#ep'), true);
  assert.doesNotMatch(await page.textContent('#scenario-title'), /modified/);
  // It fits on the 8 H200s in fp8: the limits at this layout.
  const fit = page.locator('[data-metric="memory"] .metric-fit');
  assert.equal(await fit.getAttribute('data-fit'), 'fits');
  assert.match(await fit.textContent(), /^Largest batch that fits: [\d,]+ · Longest context: [\d,]+ tokens$/);
  await curveFor(page, 8, { over: false });
  await assertClean(page);

  // An MLA edit goes into the link, is computed, and its error shows at the field.
  await page.fill('#arch-kv_lora_rank', '256');
  await page.waitForFunction(() => /&kv_lora_rank=256&/.test(location.hash) && /modified/.test(document.querySelector('#scenario-title').textContent));
  assert.equal(await page.isVisible('#general-error'), false);
  await page.fill('#arch-kv_lora_rank', '0');
  await page.locator('#arch-kv_lora_rank-error').waitFor({ state: 'visible' });
  await page.click('#arch-reset');
  await page.locator('#arch-kv_lora_rank-error').waitFor({ state: 'hidden' });

  // On 16 H100s it does not fit at TP 8: it would on all 16 as TP 8 × PP 2, and Apply sets that.
  await page.selectOption('#hardware', 'chip:h100-sxm');
  await page.fill('#chips', '16');
  await page.waitForFunction(() => document.querySelector('[data-metric="memory"] .metric-fit')?.dataset.fit === 'chips');
  assert.equal(await fit.textContent(), 'Fits on 16 chips (TP 8 × PP 2) Apply');
  assert.match(await page.textContent('.metric-fit-detail'), /^At this layout it fits up to batch \d+ at this context/);
  await page.click('[data-metric="memory"] .metric-fit button');
  await page.waitForFunction(() => /&tp=8&pp=2&dp=1&/.test(location.hash));
  assert.deepEqual([await page.inputValue('#tp'), await page.inputValue('#pp'), await page.inputValue('#dp')], ['8', '2', '1']);
  assert.match(await page.textContent('[data-metric="memory"] .metric-sub'), /^fits/);
  assert.equal(await fit.getAttribute('data-fit'), 'fits');

  // On one DGX H100 nothing fits, and no layout of its 8 chips would.
  await page.selectOption('#hardware', 'system:dgx-h100');
  await page.fill('#pp', '1');
  await page.waitForFunction(() => document.querySelector('[data-metric="memory"] .metric-fit')?.dataset.fit === 'none');
  assert.equal(await fit.textContent(), 'Does not fit on this system');
  // The curve greys the batches that do not fit and marks the scenario's.
  await curveFor(page, 8, { over: true });
  const series = await curveSeries(page);
  assert.ok(series['does not fit'] > 0, JSON.stringify(series));
  assert.equal(series['this batch'], 1);
  assert.equal(await page.getAttribute('#curve-table tr[aria-current="true"]', 'data-batch'), '8');
  await assertClean(page);
  await page.close();
});

test('Llama 4 Scout: its layer groups read-only, its hidden size editable, EP offered', async () => {
  const page = await open(`${base}#model=llama-4-scout-17b-16e&system=hgx-h200&chips=8&tp=8&pp=1&batch=4&input=2048&output=256&precision=bf16&flash=on`);
  await page.click('#arch summary');
  for (const field of ['layers', 'heads', 'kv_heads', 'head_dim', 'sliding_window', 'ffn', 'gated_ffn', 'experts']) {
    assert.equal(await page.isVisible(`#arch-${field}`), false, `${field} is not shown blank`);
  }
  assert.equal(await page.inputValue('#arch-hidden'), '5120');
  assert.match(await page.textContent('#arch-groups-note'), /48 layers in 24 groups of 2 kinds/);
  const rows = await page.$$eval('#arch-groups-table tbody tr', (trs) => trs.map((tr) => tr.textContent));
  assert.match(rows[0], /^36 \(12 groups\).*window of 8,192.*16 experts, 1 per token, 1 shared/);
  assert.match(rows[1], /^12 \(12 groups\).*full attention/);
  assert.equal(await page.isVisible('#ep'), true);
  assert.doesNotMatch(await page.textContent('#scenario-title'), /modified/);
  assert.match(await page.textContent('[data-metric="params"]'), /active/);
  await page.fill('#arch-hidden', '4096');
  await page.waitForFunction(() => /&hidden=4096&/.test(location.hash) && /modified/.test(document.querySelector('#scenario-title').textContent));
  assert.equal(await page.isVisible('#general-error'), false);
  await assertClean(page);
  await page.close();
});

test('a link with every serving field restores the same inputs, numbers and curve', async () => {
  const link = `${base}#model=deepseek-v3&kv_lora_rank=384&system=hgx-h200&chips=8&tp=8&pp=1&batch=16&input=4096&output=512`
    + '&precision=fp8&flash=on&serving=concurrency&draft_tokens=3&acceptance_rate=0.7';
  const page = await open(link);
  await curveFor(page, 16);
  assert.equal(await page.inputValue('#serving'), 'concurrency');
  assert.equal(await page.isChecked('#spec'), true);
  assert.deepEqual([await page.inputValue('#draft_tokens'), await page.inputValue('#acceptance_rate'), await page.inputValue('#draft_model')], ['3', '0.7', '']);
  assert.equal(await page.inputValue('#arch-kv_lora_rank'), '384');
  assert.equal(await hash(page), `#v=1&${link.slice(base.length + 1)}`);
  // E = 1 + 0.7 + 0.49 + 0.343 = 2.533.
  assert.equal((await metric(page, 'spec')).trim(), '2.53');
  const form = await inputs(page);
  const shown = await headline(page);
  const table = await page.textContent('#curve-table');
  const copy = await open(base + (await hash(page)));
  await curveFor(copy, 16);
  assert.deepEqual(await inputs(copy), form);
  assert.deepEqual(await headline(copy), shown);
  assert.equal(await copy.textContent('#curve-table'), table);
  await assertClean(copy);
  await copy.close();
  await page.close();
});
