// Training offload and fit advice in the built page (build/site), headless Chromium: the
// offload selects, the "Offload" part of the step and host memory; a step that does not fit,
// the engine's advice and its Apply button; the verdict when no single change fits; offload
// errors at their select. Run after ./dev.sh build:  node --test tests/browser/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open as openIn, assertClean } from './helpers.mjs';

const PRESET = 'train-llama3-8b-8-h100';

let context;
let base;
const open = (url) => openIn(context, url);
useBrowser((session) => ({ context, base } = session));

// Llama-3-70B on DGX H100s, TP 8, ZeRO 0, one sequence of 4,096 tokens per micro-batch: 189 GB
// per chip (2 + 4 + 12 = 18 bytes per parameter of the 8.8 B on a chip, plus activations).
const tooBig = (chips) => `#mode=training&model=llama-3-70b&system=dgx-h100&chips=${chips}&tp=8&pp=1&sp=off&cp=1&zero=0`
  + '&schedule=1f1b&vs=1&seq=4096&global_batch=256&micro_batch=1&recompute=none&precision=bf16&flash=on&dropout=off';

const memoryCard = '[data-metric="memory"]';

test('offloading the optimizer to CPU memory: an Offload part in the step, host memory per chip, and a link that keeps it', async () => {
  const page = await open(base);
  await page.selectOption('#scenario-preset', PRESET);
  await page.waitForFunction(() => location.hash.startsWith('#v=1&mode=training') && document.querySelector('[data-metric="step"]'));
  assert.equal(await page.isVisible('#offload_optimizer'), true);
  assert.equal(await page.isVisible('#offload_parameters'), true);
  assert.equal(await page.inputValue('#offload_optimizer'), 'none');
  assert.match(await page.textContent('#offload_optimizer-hint'), /ZeRO-Offload/);
  assert.equal(await page.$('#breakdown-list li[data-part="offload_s"]'), null);
  assert.equal(await page.$(`${memoryCard} .metric-host`), null);

  await page.selectOption('#offload_optimizer', 'cpu');
  await page.waitForSelector('#breakdown-list li[data-part="offload_s"]');
  assert.match(await page.evaluate(() => location.hash), /&offload_optimizer=cpu(&|$)/);
  assert.equal(await page.inputValue('#scenario-preset'), '');
  const part = page.locator('#breakdown-list li[data-part="offload_s"]');
  assert.match(await part.textContent(), /^Offload/);
  assert.ok(Number(await part.getAttribute('data-seconds')) > 0);
  const aria = await page.evaluate(() => window.echarts.getInstanceByDom(document.querySelector('#breakdown-chart')).getOption().aria.label.description);
  assert.match(aria, /Offload [\d.]+/);

  // 16 bytes per parameter of the shard on the host: 16 · 8.03e9 / (CP 2 × DP 4) ≈ 16 GB of 250 GB.
  assert.match(await page.textContent(`${memoryCard} .metric-host`), /^Host memory: 16\.\d\sGB of 250\sGB per chip$/);
  assert.match(await page.textContent('#stage-memory-note'), /Host memory: 16\.\d\sGB of 250\sGB per chip/);
  assert.equal(await page.$(`${memoryCard} .metric-advice`), null, 'it fits: no advice');

  const copy = await open(base + await page.evaluate(() => location.hash));
  assert.equal(await copy.inputValue('#offload_optimizer'), 'cpu');
  assert.ok(await copy.$('#breakdown-list li[data-part="offload_s"]'));
  await assertClean(copy);
  await copy.close();
  await assertClean(page);
  await page.close();
});

test('a step that does not fit shows the engine\'s advice; Apply changes the form and the link, and then it fits', async () => {
  // On 32 chips (DP 4) ZeRO 2 shards the gradients and optimizer states enough: 83 GB of 85.5.
  const page = await open(base + tooBig(32));
  const card = page.locator(memoryCard);
  assert.match(await card.locator('.metric-sub').textContent(), /^does not fit/);
  assert.match(await card.locator('.metric-advice').textContent(), /^Fits with ZeRO stage 2 \(83\.2\sGB per chip\)\.\s*Apply$/);
  assert.match(await page.textContent('#warnings'), /it fits with (parallelism\.zero|“ZeRO stage”) = 2/);

  await card.locator('button.apply-advice').click();
  await page.waitForFunction(() => /&zero=2&/.test(location.hash));
  await page.waitForFunction((sel) => /^fits/.test(document.querySelector(`${sel} .metric-sub`).textContent), memoryCard);
  assert.equal(await page.inputValue('#zero'), '2');
  assert.equal(await card.locator('.metric-advice').count(), 0);
  assert.equal(await page.isVisible('#general-error'), false);
  await assertClean(page);
  await page.close();
});

test('when no single change makes the step fit, the page says so', async () => {
  // On one DGX H100 (DP 1) no ZeRO stage shards anything, and neither recomputation, PP,
  // TP nor the optimizer's offload brings 189 GB under 85.5 GB.
  const page = await open(base + tooBig(8));
  const advice = page.locator(`${memoryCard} .metric-advice`);
  assert.match(await advice.textContent(), /No single change .* makes it fit/);
  assert.equal(await page.locator(`${memoryCard} button.apply-advice`).count(), 0);
  await assertClean(page);
  await page.close();
});

test('offload errors show at the offload selects', async () => {
  const page = await open(base + tooBig(32));
  // The optimizer's offload needs ZeRO 1 or more.
  await page.selectOption('#offload_optimizer', 'cpu');
  const optimizerError = page.locator('#offload_optimizer-error');
  await optimizerError.waitFor({ state: 'visible' });
  assert.match(await optimizerError.textContent(), /“ZeRO stage” ≥ 1/);  // the engine's parallelism.zero, by its label
  assert.equal(await page.getAttribute('#offload_optimizer', 'aria-invalid'), 'true');
  await page.selectOption('#offload_optimizer', 'none');
  await optimizerError.waitFor({ state: 'hidden' });

  // The parameters' offload needs ZeRO 3.
  await page.selectOption('#offload_parameters', 'cpu');
  const parameterError = page.locator('#offload_parameters-error');
  await parameterError.waitFor({ state: 'visible' });
  assert.match(await parameterError.textContent(), /“ZeRO stage” = 3/);
  await page.close();

  // No system preset gives its NVMe bandwidth: the error says to use CPU memory.
  const nvme = await context.newPage();
  await nvme.goto(`${base}${tooBig(32).replace('zero=0', 'zero=3')}&offload_parameters=nvme`);
  const error = nvme.locator('#offload_parameters-error');
  await error.waitFor({ state: 'visible', timeout: 10000 });
  assert.match(await error.textContent(), /NVMe.*CPU memory instead/);
  await nvme.close();

  // A system without a host description (HGX H200 here) cannot offload at all.
  const noHost = await context.newPage();
  await noHost.goto(`${base}${tooBig(8).replace('system=dgx-h100', 'system=hgx-h200').replace('zero=0', 'zero=1')}&offload_optimizer=cpu`);
  const hostError = noHost.locator('#offload_optimizer-error');
  await hostError.waitFor({ state: 'visible', timeout: 10000 });
  assert.match(await hostError.textContent(), /host link.*such as DGX H100/);
  await noHost.close();
});
