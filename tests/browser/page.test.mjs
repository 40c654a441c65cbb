// The built page (build/site) in headless Chromium: loads under its CSP, recomputes on
// input, keeps the scenario in the URL hash, and puts engine errors next to their field.
// Run after ./dev.sh build:  node --test tests/browser/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, open as openIn, assertClean, metric, headline, inputs, setField } from './helpers.mjs';

// The default scenario's hash, as links were written before pp, dp and the network editor
// existed (so it also checks that such links still load); `&table=prefill` (a default,
// dropped when re-serialized) makes it differ from any hash the page writes, so assigning
// it always fires hashchange.
const RESET_HASH = '#model=llama-2-70b&system=dgx-h100&chips=8&tp=8&batch=1&input=2048&output=256&precision=bf16&flash=on&table=prefill';

let session;
let context;
let base;
let page; // one page for most tests; each test starts it from the default scenario
const open = (url) => openIn(context, url);

before(async () => {
  session = await launch();
  ({ context, base } = session);
  page = await open(base);
});

after(async () => {
  await session?.close();
});

// Back to the default scenario the way a followed link does it: a hash change, no reload.
async function reset() {
  await page.evaluate((hash) => { location.hash = hash; }, RESET_HASH);
  await page.waitForFunction(() => !location.hash.includes('table=prefill'));
  assert.equal(await page.inputValue('#tp'), '8');
}

test('loads the default scenario under the page CSP and shows headline numbers', async () => {
  const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
  assert.match(csp, /style-src 'self'/);

  const h = await headline(page);
  assert.match(h.ttft, /^\d[\d.,]*\s*ms$/);
  assert.match(h.tpot, /^\d[\d.,]*\s*(ms|µs)$/);
  assert.match(h.e2e, /^\d[\d.,]*\s*(s|ms)$/);
  assert.match(h.throughput, /tokens\/s/);
  assert.match(h.memory, /of 85.5\sGB/); // 80 GiB: what nvidia-smi reports (presets/chips/h100-sxm.json)
  assert.match(h.params, /^\d+(\.\d+)?B$/);
  assert.equal(await page.inputValue('#model'), 'llama-2-70b');
  assert.equal(await page.inputValue('#tp'), '8');
  assert.equal(await page.inputValue('#scenario-preset'), 'llama2-70b-dgx-h100-tp8');
  assert.match(await page.evaluate(() => location.hash), /model=llama-2-70b.*system=dgx-h100.*tp=8/);

  // Both charts drew, and the table lists the prefill operators.
  assert.ok(await page.$('#memory-chart canvas'));
  assert.ok(await page.$('#latency-chart canvas'));
  assert.ok((await page.$$('#ops tbody tr')).length > 10);
  assert.match(await page.textContent('#ops tbody'), /qkv_proj/);

  // A chart tooltip: ECharts styles it through the CSSOM, which the CSP allows.
  const chart = page.locator('#latency-chart');
  await chart.scrollIntoViewIfNeeded();
  const box = await chart.boundingBox();
  // Inside the prefill bar's first segment (its grid is laid out for the chart's width).
  const grid = await page.evaluate(() => window.echarts.getInstanceByDom(document.querySelector('#latency-chart')).getOption().grid[0]);
  await page.mouse.move(box.x + 60, box.y + grid.top + grid.height / 2);
  const tip = page.locator('#latency-chart .echarts-tooltip');
  await tip.waitFor({ state: 'visible' });
  assert.match(await tip.textContent(), /Prefill: .*of the phase/);
  await assertClean(page);

  // The policy is live: an inline style attribute is refused (so the clean checks above mean something).
  const refusal = page.waitForEvent('console', (m) => /Content Security Policy/.test(m.text()));
  await page.evaluate(() => {
    const probe = document.createElement('div');
    probe.innerHTML = '<span style="color: red">probe</span>';
    document.body.append(probe);
    probe.remove();
  });
  await page.waitForFunction(() => window.__csp.length > 0);
  assert.match((await page.evaluate(() => window.__csp)).join(), /style-src/);
  await refusal;
  await page.evaluate(() => { window.__csp = []; });
  page.problems.length = 0; // that console error was the expected refusal
});

test('an edit recomputes, lands in the hash, and the link restores it exactly', async () => {
  await reset();
  const ttftBefore = await metric(page, 'ttft');
  const hashBefore = await page.evaluate(() => location.hash);

  await setField(page, '#batch', 8);
  await setField(page, '#output', 512, '[data-metric="e2e"] .metric-value');
  await page.check('#table-decode');
  await page.waitForFunction(() => location.hash.includes('table=decode'));
  assert.notEqual(await metric(page, 'ttft'), ttftBefore);

  const hash = await page.evaluate(() => location.hash);
  assert.notEqual(hash, hashBefore);
  assert.match(hash, /batch=8/);
  assert.match(hash, /output=512/);
  const shown = await headline(page);
  const form = await inputs(page);
  const table = await page.textContent('#ops');
  await assertClean(page);

  const copy = await open(base + hash);
  assert.deepEqual(await inputs(copy), form);
  assert.deepEqual(await headline(copy), shown);
  assert.equal(await copy.textContent('#ops'), table);
  assert.equal(await copy.isChecked('#table-decode'), true);
  assert.equal(await copy.evaluate(() => location.hash), hash);
  await assertClean(copy);
  await copy.close();
});

test('TP = 3 for Llama-2-70B shows the engine error next to the TP field', async () => {
  await reset();
  await page.fill('#tp', '3');
  const error = page.locator('#tp-error');
  await error.waitFor({ state: 'visible' });
  const text = await error.textContent();
  assert.match(text, /TP = 3/);
  assert.match(text, /divide/);
  assert.match(text, /64/);
  assert.equal(await page.getAttribute('#tp', 'aria-invalid'), 'true');
  assert.match(await page.textContent('#general-error'), /cannot be computed/);
  // The last good numbers stay, dimmed.
  assert.equal(await page.evaluate(() => document.querySelector('#result-body').classList.contains('stale')), true);
  assert.match(await page.evaluate(() => location.hash), /tp=3/);
  await assertClean(page);

  // Back to a valid TP: the error goes and the results are live again.
  await page.fill('#tp', '4');
  await error.waitFor({ state: 'hidden' });
  assert.equal(await page.evaluate(() => document.querySelector('#result-body').classList.contains('stale')), false);
  assert.equal(await page.getAttribute('#tp', 'aria-invalid'), null);
  await assertClean(page);
});

test('errors find their field by path prefix, and empty inputs are caught before the engine', async () => {
  await reset();
  await page.click('#arch summary');
  await page.fill('#arch-kv_heads', '7');
  await page.locator('#arch-kv_heads-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#arch-kv_heads-error'), /must divide/);
  assert.match(await page.evaluate(() => location.hash), /kv_heads=7/);
  await page.click('#arch-reset');
  await page.locator('#arch-kv_heads-error').waitFor({ state: 'hidden' });

  await page.fill('#batch', '');
  await page.locator('#batch-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#batch-error'), /number/i);
  assert.doesNotMatch(await page.evaluate(() => location.hash), /batch=&|batch=$/);

  // A chip count beyond what the system's network joins: a switched scale-out fabric grows
  // by more of its units (the warnings say so), a single switch cannot, and that is
  // reported at the chip count.
  await page.fill('#batch', '1');
  await page.fill('#chips', '2000');
  await page.waitForFunction(() => /grown from \d+ to \d+ units to join 2000 chips/.test(document.querySelector('#warnings').textContent));
  await page.selectOption('#hardware', 'system:l40s-pcie-8');
  await page.fill('#chips', '16');
  await page.locator('#chips-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#chips-error'), /join 8 chips, fewer than “Number of chips” = 16/);

  // More chips asked of the mapping than the system has: reported at the chip count too.
  await page.selectOption('#hardware', 'system:dgx-h100');
  await page.fill('#chips', '8');
  await page.fill('#pp', '2');
  // The engine names the field by its path; the page by its label (the path stays in the tooltip).
  await page.waitForFunction(() => /needs more chips than “Number of chips” = 8/.test(document.querySelector('#chips-error').textContent));
  await page.fill('#pp', '1');
  await page.locator('#chips-error').waitFor({ state: 'hidden' });
  await assertClean(page);
});

test('too few chips for TP × PP × DP: the error is at DP when DP was set, with the product the page asks for', async () => {
  await reset();
  await page.fill('#chips', '4');
  await page.fill('#tp', '2');
  await page.fill('#pp', '2');
  await page.fill('#dp', '2');
  const dpError = page.locator('#dp-error');
  await dpError.waitFor({ state: 'visible' });
  // The engine's words unchanged, then the page's hint (inference shows no CP field).
  assert.equal(await dpError.textContent(), 'tp × cp × dp × pp = 8 needs more chips than “Number of chips” = 4 — TP × PP × DP = 8 chips needed.');
  assert.equal(await page.textContent('#dp-error .error-note'), ' — TP × PP × DP = 8 chips needed.');
  assert.equal(await page.isVisible('#chips-error'), false);
  assert.equal(await page.getAttribute('#dp', 'aria-invalid'), 'true');
  assert.match(await page.textContent('#general-error'), /\(TP × PP × DP = 8 chips needed\) \(see “Replicas \(DP\)”\)/);

  // DP left to the engine: the chip count is what falls short.
  await page.fill('#dp', '');
  await dpError.waitFor({ state: 'hidden' });
  await page.fill('#pp', '4');
  await page.locator('#chips-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#chips-error'), /needs more chips than “Number of chips” = 4 — TP × PP × DP = 8 chips needed\./);
  await assertClean(page);
});

test('long latencies read in hours, bound and measured range included', async () => {
  // Ten million prompt tokens on one DGX H100: attention 80 layers × 4·8 heads·128·(10⁷)²/2 =
  // 1.64e19 FLOPs a chip at 0.662 of 989 TFLOP/s (FlashAttention-3's long-row rate) = 25,000 s,
  // plus 220 s of GEMMs: about 7.0 h to the first token.
  await page.evaluate(() => {
    location.hash = '#model=llama-2-70b&system=dgx-h100&chips=8&tp=8&pp=1&batch=1&input=10000000&output=256&precision=bf16&flash=on';
  });
  await page.waitForFunction(() => document.querySelector('#input').value === '10000000');
  const h = await headline(page);
  assert.match(h.ttft, /^7\.\d+\s*h$/);
  assert.match(h.e2e, /^7\.\d+\s*h$/);
  assert.match(h.tpot, /^\d+(\.\d+)?\s*ms$/);
  const trust = await page.textContent('[data-metric="ttft"] .metric-trust');
  assert.match(trust, /roofline bound [\d.]+\s*h/);
  assert.match(trust, /if off like past runs: [\d.]+\s*h – [\d.]+\s*h/);
  assert.doesNotMatch(await page.textContent('#summary'), /\d{2},\d{3}\s*s/);
  await assertClean(page);
});

test('a page restored from the back-forward cache is drawn again from its link', async () => {
  await reset();
  await page.fill('#batch', '7');
  await page.waitForFunction(() => location.hash.includes('batch=7'));
  // What a browser may put back into the controls of a cached page, then the event it fires.
  await page.evaluate(() => {
    document.querySelector('#batch').value = '1024';
    document.querySelector('#tp').value = '3';
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
  });
  assert.equal(await page.inputValue('#batch'), '7');
  assert.equal(await page.inputValue('#tp'), '8');
  await assertClean(page);
});

test('back to a training link: the hidden inference inputs hold nothing the browser kept', async () => {
  const training = '#mode=training&model=gpt-3-175b&system=dgx-a100&chips=1024&tp=8&pp=8&dp=16&sp=off&cp=1&zero=2'
    + '&schedule=interleaved_1f1b&vs=4&seq=2048&global_batch=1536&micro_batch=2&recompute=full&precision=fp16&flash=off&dropout=on';
  const tab = await open(base + training);
  assert.equal(await tab.getAttribute('#inputs', 'autocomplete'), 'off');
  await tab.goto(base);
  await tab.waitForSelector('[data-metric="ttft"]');
  await tab.fill('#batch', '9');
  await tab.goBack();
  await tab.waitForSelector('[data-metric="step"]');
  await tab.waitForFunction(() => document.querySelector('#seq_len').value === '2048');
  assert.equal(await tab.isChecked('#mode-training'), true);
  for (const id of ['#batch', '#input', '#output', '#micro_batches']) assert.equal(await tab.inputValue(id), '', id);
  await tab.close();
});

test('a chip × count machine and a scenario preset load into the form', async () => {
  await reset();
  await page.selectOption('#hardware', 'chip:h200-sxm');
  await page.fill('#chips', '4');
  await page.fill('#tp', '4');
  await page.waitForFunction(() => location.hash.includes('chip=h200-sxm') && location.hash.includes('tp=4'));
  assert.match(await page.textContent('#scenario-title'), /4 × NVIDIA H200/);
  assert.match(await metric(page, 'memory'), /of 141\sGB/);

  await page.selectOption('#scenario-preset', 'llama3-70b-mi300x-tp4');
  await page.waitForFunction(() => location.hash.includes('model=llama-3-70b'));
  assert.equal(await page.inputValue('#tp'), '4');
  assert.equal(await page.inputValue('#batch'), '16');
  assert.equal(await page.inputValue('#kv_cache'), 'fp8');
  assert.equal(await page.inputValue('#weights'), 'bf16');
  assert.equal(await page.inputValue('#chips'), '4');
  assert.equal(await page.inputValue('#scenario-preset'), 'llama3-70b-mi300x-tp4');
  assert.match(await page.textContent('#scenario-title'), /MI300X/);
  await assertClean(page);
});

test('a link with unreadable fields names them, keeps the rest and is not rewritten', async () => {
  await page.fill('#tp', '2');
  await page.evaluate(() => { location.hash = '#model=gpt-9&tp=banana&batch=3'; });
  await page.locator('#notice').waitFor({ state: 'visible' });
  const notice = await page.textContent('#notice');
  assert.match(notice, /ignored: there is no model preset "gpt-9"; tp = "banana" is not a number/);
  assert.equal(await page.inputValue('#model'), 'llama-2-70b');
  assert.equal(await page.inputValue('#tp'), '8');
  assert.equal(await page.inputValue('#batch'), '3');
  // The author's link stays in the address bar until the first edit.
  assert.equal(await page.evaluate(() => location.hash), '#model=gpt-9&tp=banana&batch=3');
  await setField(page, '#batch', 4);
  assert.match(await page.evaluate(() => location.hash), /^#v=1&model=llama-2-70b&.*batch=4/);
  assert.equal(await page.isVisible('#notice'), false);
  await assertClean(page);
});

test('a link with an unknown field loads with a notice naming it and keeps its other fields', async () => {
  const link = `${base}#model=llama-3-8b&chip=h100-sxm&chips=2&tp=2&pp=1&batch=4&input=1000&output=100&precision=fp8&flash=on&bogus=1`;
  const tolerant = await open(link);
  assert.match(await tolerant.textContent('#notice'), /unknown setting "bogus"/);
  assert.equal(await tolerant.inputValue('#model'), 'llama-3-8b');
  assert.equal(await tolerant.inputValue('#chips'), '2');
  assert.equal(await tolerant.inputValue('#batch'), '4');
  assert.equal(await tolerant.inputValue('#input'), '1000');
  assert.match(await tolerant.evaluate(() => location.hash), /&bogus=1$/);
  await assertClean(tolerant);
  await tolerant.close();
});

test('a number beyond double range in a link names the allowed range at its field', async () => {
  // Before: #batch=1e400 was sent as null and the page said "is required".
  // No result can be shown (the first evaluation fails), so this page is opened by hand.
  const hostile = await context.newPage();
  await hostile.goto(`${base}#model=llama-2-70b&system=dgx-h100&chips=8&tp=8&batch=1e400&input=2048&output=256&precision=bf16&flash=on`);
  await hostile.locator('#batch-error').waitFor({ state: 'visible', timeout: 10000 });
  const message = await hostile.textContent('#batch-error');
  assert.match(message, /an integer in \[1, 10000000\]/);
  assert.doesNotMatch(message, /required/);
  assert.match(await hostile.evaluate(() => location.hash), /batch=1e999/);
  await hostile.close();
});

test('without its engine the page says it needs WebAssembly', async () => {
  const broken = await context.newPage();
  await broken.route('**/envelope.mjs', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await broken.goto(base);
  await broken.locator('#fatal').waitFor({ state: 'visible', timeout: 10000 });
  assert.match(await broken.textContent('#fatal'), /WebAssembly/);
  assert.equal(await broken.isHidden('#loading'), true);
  await broken.close();
});

test('a file of the app that fails to load is reported, not an endless "Loading…"', async () => {
  const broken = await context.newPage();
  await broken.route('**/app/index-*.js', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await broken.goto(base);
  await broken.locator('#fatal').waitFor({ state: 'visible', timeout: 10000 });
  assert.match(await broken.textContent('#fatal'), /could not start.*failed to load/s);
  await broken.close();
});

test('each headline shows the roofline bound, the measured-run range and a methodology link', async () => {
  await reset();
  const ttft = page.locator('[data-metric="ttft"]');
  assert.match(await ttft.locator('.metric-bound').textContent(), /^roofline bound \d/);
  assert.match(await ttft.locator('.metric-band').textContent(), /^if off like past runs: .+ – .+/);
  assert.match(await ttft.locator('.metric-band').getAttribute('title'), /80% of \d+ published runs of other setups/);
  assert.match(await ttft.locator('a.how').getAttribute('href'), /^methodology\.html#[a-z-]+$/);
  await assertClean(page);
});

test('the serving software is a choice of the form, kept in the link, and changes the numbers', async () => {
  await reset();
  const before = await metric(page, 'tpot');
  await page.selectOption('#engine', 'tensorrt-llm-0.5');
  await page.waitForFunction(() => location.hash.includes('engine=tensorrt-llm-0.5'));
  await page.waitForFunction((old) => document.querySelector('[data-metric="tpot"] .metric-value')?.textContent !== old, before);
  assert.match(await page.textContent('#engine-hint'), /once per query head/);
  const hash = await page.evaluate(() => location.hash);
  const copy = await open(base + hash);
  assert.equal(await copy.inputValue('#engine'), 'tensorrt-llm-0.5');
  await copy.close();
  await page.selectOption('#engine', 'default');
  await page.waitForFunction(() => !location.hash.includes('engine='));
  await assertClean(page);
});

test('the validation view plots every scored case and prints the validate summary', async () => {
  const v = await context.newPage();
  v.problems = [];
  v.on('pageerror', (e) => v.problems.push(e.message));
  await v.goto(`${base}validation.html`);
  await v.locator('#validation-summary tbody tr').first().waitFor({ timeout: 15000 });
  assert.match(await v.textContent('#lede'), /^\d+ published measurements predicted, mean absolute error [\d.]+%/);
  const rows = await v.$$('#validation-cases tbody tr');
  assert.ok(rows.length > 100, `${rows.length} case rows`);
  assert.ok(await v.$('#validation-chart canvas'));
  assert.match(await v.textContent('#validation-summary'), /inference/);
  // Filtering by kind narrows the table to that kind.
  await v.selectOption('#filter-kind', 'collective');
  await v.waitForFunction(() => [...document.querySelectorAll('#validation-cases tbody tr td:nth-child(2)')]
    .every((td) => td.textContent === 'collective'));
  assert.ok((await v.$$('#validation-cases tbody tr')).length >= 20);
  // Every skipped case is listed (fewer as the engine learns more: pp cases are scored now).
  const skipped = Number((await v.textContent('#lede')).match(/(\d+) more cases need/)[1]);
  assert.ok(skipped > 0);
  assert.equal((await v.$$('#validation-skipped li')).length, skipped);
  // Cases with a web address in their source link to it.
  assert.match(await v.getAttribute('#validation-cases tbody tr a', 'href'), /^https?:\/\//);
  // The coverage table: every regime, a regime with no scored case (SN40L: no chip preset)
  // marked unvalidated instead of given a number, and `server` mode scored (METHODOLOGY §15.5).
  const sn40l = v.locator('#validation-coverage tbody tr', { hasText: 'inference chip' }).filter({ hasText: 'SN40L' });
  assert.match(await sn40l.textContent(), /unvalidated/);
  const server = v.locator('#validation-coverage tbody tr', { hasText: 'inference mode' }).filter({ hasText: 'server' });
  assert.match(await server.textContent(), /\d+\.\d%/);
  const concurrency = v.locator('#validation-coverage tbody tr', { hasText: 'inference mode' }).filter({ hasText: 'concurrency' });
  assert.match(await concurrency.textContent(), /\d+\.\d%/);
  assert.deepEqual(v.problems, []);
  await v.close();
});

test('the methodology view renders the document and every headline link lands on a heading', async () => {
  const m = await context.newPage();
  await m.goto(`${base}methodology.html`);
  await m.locator('#doc h2').first().waitFor({ timeout: 10000 });
  const ids = await m.evaluate(() => [...document.querySelectorAll('#doc h2, #doc h3')].map((e) => e.id));
  const links = await page.evaluate(() => [...document.querySelectorAll('a.how')].map((a) => a.getAttribute('href').split('#')[1]));
  assert.ok(links.length >= 7);
  for (const id of links) assert.ok(ids.includes(id), `no heading #${id} in the methodology`);
  assert.ok((await m.$$('#toc a')).length > 10);
  await m.close();
});

test('"Skip to results" moves the focus to the results and keeps the scenario and its link', async () => {
  await page.evaluate(() => {
    location.hash = '#model=llama-2-70b&system=dgx-h100&chips=8&tp=8&pp=1&batch=7&input=2048&output=256&precision=bf16&flash=on';
  });
  await page.waitForFunction(() => document.querySelector('#batch').value === '7');
  const before = await page.evaluate(() => location.hash);
  await page.focus('.skip-link');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.id === 'results');
  assert.equal(await page.evaluate(() => location.hash), before);
  assert.equal(await page.inputValue('#batch'), '7');
  await assertClean(page);
});
