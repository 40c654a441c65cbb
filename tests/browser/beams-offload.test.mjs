// Beam search and KV-cache offload in the built page (build/site), headless Chromium: beams
// change the time per token and travel in the link; half the KV cache offloaded on a DGX H100
// shows its host bytes under the memory verdict; on a system whose preset describes no host
// the engine's error sits at the KV offload input. Run after ./dev.sh build:  node --test tests/browser/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open as openIn, assertClean, inputs, headline, metric, setField } from './helpers.mjs';

let context;
let base;
const open = (url) => openIn(context, url);
useBrowser((session) => ({ context, base } = session));

const hash = (page) => page.evaluate(() => location.hash);
const TPOT = '[data-metric="tpot"] .metric-value';
const hostLine = '[data-metric="memory"] .metric-host';

test('beams: 1 by default and out of the link; 4 beams change the time per token, and the link restores them', async () => {
  const page = await open(base);
  assert.equal(await page.inputValue('#beams'), '1');
  assert.equal(await page.inputValue('#kv_offload'), '0');
  assert.match(await page.textContent('#beams-hint'), /Beam search/);
  assert.match(await page.textContent('#kv_offload-hint'), /host link/);
  assert.doesNotMatch(await hash(page), /beams|kv_offload/);
  const tpot = (await metric(page, 'tpot')).trim();

  await setField(page, '#beams', 4, TPOT);
  await page.waitForFunction(() => /&beams=4(&|$)/.test(location.hash));
  assert.notEqual((await metric(page, 'tpot')).trim(), tpot);
  assert.match(await page.textContent('[data-metric="tpot"] .metric-sub'), /4 beams per request/);
  assert.match(await page.textContent('#scenario-desc'), /beam search, 4 beams/);
  assert.equal(await page.inputValue('#scenario-preset'), '');
  assert.equal(await page.isVisible('#general-error'), false);
  await assertClean(page);

  const form = await inputs(page);
  const shown = await headline(page);
  const copy = await open(base + (await hash(page)));
  assert.deepEqual(await inputs(copy), form);
  assert.deepEqual(await headline(copy), shown);
  await assertClean(copy);
  await copy.close();

  // Beyond the engine's 64: its error at the field; back to 1 leaves the link as it was.
  await page.fill('#beams', '65');
  await page.locator('#beams-error').waitFor({ state: 'visible' });
  assert.equal(await page.getAttribute('#beams', 'aria-invalid'), 'true');
  await page.fill('#beams', '1');
  await page.locator('#beams-error').waitFor({ state: 'hidden' });
  await page.waitForFunction(() => !/beams/.test(location.hash));
  assert.equal(await page.inputValue('#scenario-preset'), 'llama2-70b-dgx-h100-tp8');
  assert.equal((await metric(page, 'tpot')).trim(), tpot);
  await page.close();
});

test('KV offload 0.5 on a DGX H100: the host KV bytes under the memory verdict; without a host, the error at the field', async () => {
  const page = await open(base);
  assert.equal(await page.$(hostLine), null);

  await page.fill('#kv_offload', '0.5');
  await page.waitForSelector(hostLine);
  assert.match(await hash(page), /&kv_offload=0\.5(&|$)/);
  // Llama-2-70B at TP 8 keeps 1 of its 8 KV heads per chip: K and V, 128 wide, in bf16, over
  // 80 layers and 2,048 + 256 tokens = 94,371,840 bytes per chip; half of it on the host.
  assert.equal(await page.getAttribute(hostLine, 'data-host-kv-bytes'), '47185920');
  assert.match(await page.textContent(hostLine), /^KV cache on the host: 0\.0472\sGB of 250\sGB per chip \(50\.0% of it\)$/);
  assert.match(await page.textContent('#scenario-desc'), /50\.0% of the KV cache on the host/);
  assert.equal(await page.isVisible('#general-error'), false);
  await assertClean(page);

  // The link restores it.
  const copy = await open(base + (await hash(page)));
  assert.equal(await copy.inputValue('#kv_offload'), '0.5');
  assert.equal(await copy.getAttribute(hostLine, 'data-host-kv-bytes'), '47185920');
  await copy.close();

  // An HGX H200's preset describes no host: the engine's error at the KV offload input.
  await page.selectOption('#hardware', 'system:hgx-h200');
  const error = page.locator('#kv_offload-error');
  await error.waitFor({ state: 'visible' });
  assert.match(await error.textContent(), /host link.*such as DGX H100/);
  assert.equal(await page.getAttribute('#kv_offload', 'aria-invalid'), 'true');
  assert.match(await page.textContent('#general-error'), /see “KV cache on host”/);
  // Nothing offloaded: it computes again, without the host line.
  await page.fill('#kv_offload', '0');
  await error.waitFor({ state: 'hidden' });
  await page.waitForFunction(() => !/kv_offload/.test(location.hash) && !document.querySelector('#result-body').classList.contains('stale'));
  assert.equal(await page.$(hostLine), null);
  await assertClean(page);
  await page.close();
});

test('chunked prefill: a chunk lengthens the time to first token and travels in the link', async () => {
  const page = await open(base);
  assert.equal(await page.inputValue('#prefill_chunk'), '0');
  assert.match(await page.textContent('#prefill_chunk-hint'), /Chunked prefill/);
  const ttft = (await metric(page, 'ttft')).trim();
  await setField(page, '#prefill_chunk', 256, '[data-metric="ttft"] .metric-value');
  await page.waitForFunction(() => /&prefill_chunk=256(&|$)/.test(location.hash));
  assert.notEqual((await metric(page, 'ttft')).trim(), ttft);
  await assertClean(page);
  await page.close();
});
