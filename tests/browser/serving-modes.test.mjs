// The serving view in the built page (build/site), headless Chromium: the engine picker
// (engine and release, unknown = current practice, the profile used in the title line), an
// offered request rate with its load and its point on the throughput–latency chart,
// offline at the largest batch that fits, disaggregated prefill and decode pools with their
// errors at their inputs, the Serving card (TTFT, TPOT, what binds each phase), the
// framework picker of training, and "unvalidated" where no scored case checks the regime.
// Run after ./dev.sh build:  node --test tests/browser/serving-modes.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open as openIn, assertClean, metric } from './helpers.mjs';

let context;
let base;
const open = (url) => openIn(context, url);
useBrowser((session) => ({ context, base } = session));

const hash = (page) => page.evaluate(() => location.hash);
const facts = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#serving-facts dt')]
  .map((dt) => [dt.textContent, dt.nextElementSibling.textContent])));
const servingIs = (page, serving) => page.waitForFunction((s) => document.querySelector('#serving-card')?.dataset.serving === s, serving);
const LINK = '#v=1&model=llama-3-8b&chip=h100-sxm&chips=8&tp=1&pp=1&dp=1&batch=64&input=1024&output=128&precision=fp8&flash=on';

test('the engine picker: current practice first, then each engine and release; the title line names the profile used', async () => {
  const page = await open(base + LINK);
  const groups = await page.evaluate(() => [...document.querySelectorAll('#engine optgroup')].map((g) => g.label));
  assert.deepEqual(groups.sort(), ['Intel Gaudi software', 'SGLang', 'TensorRT-LLM', 'vLLM']);
  assert.match(await page.textContent('#engine option[value="default"]'), /^Unknown engine: Current practice/);
  assert.equal(await page.inputValue('#engine'), 'default');
  assert.match(await page.textContent('#scenario-desc'), /engine: Current practice \(2025\)/);
  assert.match((await facts(page)).Engine, /^Current practice \(2025\), as no engine is named$/);
  await page.selectOption('#engine', 'sglang-0.5');
  await page.waitForFunction(() => /&engine=sglang-0\.5(&|$)/.test(location.hash));
  await page.waitForFunction(() => /engine: SGLang 0\.5/.test(document.querySelector('#scenario-desc').textContent));
  assert.equal((await facts(page)).Engine, 'SGLang 0.5');
  await assertClean(page);
  await page.close();
});

test('an offered request rate: the load in the Serving card, and its point on the closed loop\'s curve', async () => {
  const page = await open(base + LINK);
  await page.selectOption('#serving', 'server');
  await page.waitForFunction(() => /&serving=server&request_rate=1(&|$)/.test(location.hash));
  assert.equal(await page.isVisible('#request_rate'), true);
  await page.fill('#request_rate', '5');
  await page.waitForFunction(() => /request_rate=5(&|$)/.test(location.hash));
  await servingIs(page, 'server');
  await page.waitForFunction(() => /offered 5 requests\/s/.test(document.querySelector('#serving-facts').textContent));
  const f = await facts(page);
  assert.match(f.Serving, /^an offered 5 requests\/s \(an open loop\) of a capacity of [\d.,]+ requests\/s$/);
  assert.match(f.Load, /running of \d+ slots a replica · prompt queue busy/);
  assert.match(f.TTFT, /mean$/);
  assert.match(f.Percentiles, /not given/);
  assert.match(f['Prefill binds'], /-bound|overhead/i);
  assert.match(f['Decode binds'], /-bound|overhead/i);
  // The chart: the closed loop over concurrency, the rate's own point marked from the engine's sweep.
  await page.waitForFunction(() => document.querySelector('#curve-chart')?.dataset.serving === 'server'
    && document.querySelector('#curve-chart').dataset.marked === 'yes'
    && /This scenario \(5 requests\/s\) gives/.test(document.querySelector('#curve-note').textContent));
  const series = await page.evaluate(() => window.echarts.getInstanceByDom(document.querySelector('#curve-chart'))
    .getOption().series.map((s) => [s.name, s.data.length]));
  assert.deepEqual(Object.fromEntries(series)['this scenario'], 1);
  assert.match(await page.textContent('#curve-note'), /over|concurrency from 1 to/);
  // A rate the engine refuses: its error at the field.
  await page.fill('#request_rate', '0');
  await page.locator('#request_rate-error').waitFor({ state: 'visible' });
  await page.fill('#request_rate', '5');
  await page.locator('#request_rate-error').waitFor({ state: 'hidden' });
  // Back to a static batch: no rate in the link.
  await page.selectOption('#serving', 'static');
  await page.waitForFunction(() => !/request_rate/.test(location.hash));
  assert.equal(await page.isVisible('#request_rate'), false);
  await assertClean(page);
  await page.close();
});

test('offline: the largest batch that fits, said in the Serving card; the batch input is the engine\'s', async () => {
  const page = await open(base + LINK + '&serving=offline');
  await servingIs(page, 'offline');
  const f = await facts(page);
  const [, batch] = f.Serving.match(/^offline: a static batch of ([\d,]+), the largest that fits$/);
  assert.ok(Number(batch.replaceAll(',', '')) > 64, `largest batch ${batch}`);
  assert.equal(await page.isDisabled('#batch'), true);
  assert.equal(await page.inputValue('#batch'), batch.replaceAll(',', ''), 'the batch the engine ran');
  assert.match(await page.textContent('#scenario-desc'), new RegExp(`batch ${batch}`));
  await page.waitForFunction((b) => document.querySelector('#curve-chart')?.dataset.batch === b, batch.replaceAll(',', ''));
  // Pinned, it is evaluated at the same largest batch: the same TTFT as the current one.
  await page.click('#pin-button');
  await page.waitForFunction(() => document.querySelector('#compare-card').dataset.pins === '1');
  const cell = (col) => page.textContent(`#compare-table tr[data-row="ttft"] td[data-col="${col}"]`);
  assert.equal((await cell('Pin 1')).trim().split(/\s/)[0], (await metric(page, 'ttft')).trim().split(/\s/)[0]);
  await assertClean(page);
  await page.close();
});

test('disaggregated pools: on under continuous batching, their layouts in the link, the pools in the Serving card', async () => {
  const page = await open(base + LINK.replace('chips=8&tp=1', 'chips=8&tp=4').replace('dp=1', 'dp=2') + '&serving=concurrency');
  assert.equal(await page.isVisible('#disagg'), true);
  await page.check('#disagg');
  await page.waitForFunction(() => /&prefill_workers=1&prefill_tp=2&decode_workers=1&decode_tp=2(&|$)/.test(location.hash));
  assert.equal(await page.isDisabled('#tp'), true, 'the aggregated layout is not used');
  await servingIs(page, 'disaggregated');
  let f = await facts(page);
  assert.match(f['Prefill pool'], /^1 worker, 2 chips, 1 rank · \d+ prompts? a step of/);
  assert.match(f['Decode pool'], /running of \d+ slots a rank/);
  assert.match(f['KV cache move'], /a request over /);
  assert.match(f['Request rate'], /requests\/s, set by the/);
  assert.match(f.TTFT, /mean = prefill queue/);
  assert.match(await page.textContent('#scenario-desc'), /disaggregated: prefill 1 × \(TP 2\), decode 1 × \(TP 2\)/);
  assert.match(await page.textContent('[data-metric="chips"]'), /prefill 2 chips \+ decode 2 chips/);
  // Two decode workers of TP 4: 2 + 8 chips, more than the 8 there are: the engine's error at a pool's input.
  await page.fill('#decode_workers', '2');
  await page.fill('#decode_tp', '4');
  await page.waitForSelector('.field.has-error');
  assert.ok(await page.evaluate(() => ['decode_workers', 'decode_tp', 'prefill_workers', 'disagg']
    .some((id) => !document.querySelector(`#${id}-error`).hidden)), 'the error sits at a pool input');
  await page.fill('#decode_workers', '1');
  await page.waitForFunction(() => /decode_workers=1&decode_tp=4/.test(location.hash));
  await page.waitForFunction(() => !document.querySelector('.field.has-error'));
  f = await facts(page);
  assert.match(f['Decode pool'], /^1 worker, 4 chips/);
  // The link restores the pools; off again, the layout above is back.
  const link = await hash(page);
  const again = await open(base + link);
  await servingIs(again, 'disaggregated');
  assert.equal(await again.inputValue('#decode_tp'), '4');
  await again.uncheck('#disagg');
  await again.waitForFunction(() => !/prefill_workers/.test(location.hash));
  assert.equal(await again.isDisabled('#tp'), false);
  await servingIs(again, 'concurrency');
  await assertClean(page);
  await assertClean(again);
  await page.close();
  await again.close();
});

test('training: the framework picker, current practice by default, the framework in the title line, unvalidated where no case is scored', async () => {
  const page = await open(`${base}#v=1&mode=training&model=llama-3-8b&system=dgx-h100&chips=8&tp=1&pp=1&dp=8&sp=off&cp=1&zero=1`
    + '&schedule=1f1b&vs=1&seq=4096&global_batch=64&micro_batch=1&recompute=full&precision=bf16&flash=on&dropout=off');
  assert.equal(await page.inputValue('#framework'), 'current');
  assert.match(await page.textContent('#framework option[value="current"]'), /^Unknown: current practice/);
  assert.match(await page.textContent('#scenario-desc'), /framework: current practice \(Megatron-Core defaults\)/);
  assert.match(await page.textContent('[data-metric="step"]'), /if off like past runs/);
  await page.selectOption('#framework', 'maxtext');
  await page.waitForFunction(() => /&framework=maxtext(&|$)/.test(location.hash));
  await page.waitForFunction(() => /framework: MaxText/.test(document.querySelector('#scenario-desc').textContent));
  // No public MaxText run is scored: no band, and the reason.
  await page.waitForFunction(() => /unvalidated: no measured run of this kind \(framework MaxText/.test(document.querySelector('[data-metric="step"]').textContent));
  await page.selectOption('#framework', 'current');
  await page.waitForFunction(() => !/framework=/.test(location.hash));
  await assertClean(page);
  await page.close();
});

test('inference on a chip no scored case ran on: unvalidated, naming the chip', async () => {
  const page = await open(`${base}#v=1&model=llama-3-8b&chip=tpu-v5e&chips=1&tp=1&pp=1&batch=1&input=128&output=16&precision=bf16&flash=on`);
  assert.match(await page.textContent('[data-metric="ttft"]'), /unvalidated: no measured run of this kind \(chip Google TPU v5e\)/);
  assert.match(await metric(page, 'ttft'), /\d/);
  await assertClean(page);
  await page.close();
});
