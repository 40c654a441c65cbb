// Mamba and hybrid models, parallel blocks, routing imbalance and prefix caching in the built
// page (build/site), headless Chromium: the Mamba fields in place of the attention fields
// (Mamba-130M), Jamba's groups in words, the prefix cache lowering the time to first token,
// errors at the fields the engine names, and links that carry the new keys.
// Run after ./dev.sh build:  node --test tests/browser/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open as openIn, assertClean, inputs, headline, metric } from './helpers.mjs';

let context;
let base;
const open = (url) => openIn(context, url);
useBrowser((session) => ({ context, base } = session));

const hash = (page) => page.evaluate(() => location.hash);
// Seconds, from a headline time ("1.98 ms").
const seconds = async (page, id) => {
  const [value, unit] = (await metric(page, id)).trim().split(/\s+/);
  return Number(value.replace(/,/g, '')) * { s: 1, ms: 1e-3, 'µs': 1e-6 }[unit];
};
const ATTENTION = ['heads', 'kv_heads', 'head_dim', 'sliding_window', 'parallel_block'];

test('Mamba-130M: the Mamba fields in place of attention, no MLP, TPOT shown; TP must divide d_inner', async () => {
  const page = await open(base);
  await page.click('#arch summary');
  assert.equal(await page.isVisible('#arch-mamba'), false, 'no Mamba fields for Llama-2-70B');
  await page.selectOption('#model', 'mamba-130m');
  await page.waitForFunction(() => /^Mamba-130M on/.test(document.querySelector('#scenario-title').textContent));
  assert.equal(await page.isVisible('#arch-mamba'), true);
  // The published config: expand 2 × 768, state_size 16, conv_kernel 4, time_step_rank 48.
  const mamba = ['d_inner', 'd_state', 'd_conv', 'dt_rank'];
  assert.deepEqual(await Promise.all(mamba.map((f) => page.inputValue(`#arch-${f}`))), ['1536', '16', '4', '48']);
  for (const f of [...ATTENTION, 'mamba_heads', 'n_groups']) assert.equal(await page.isVisible(`#arch-${f}`), false, f);
  assert.equal(await page.inputValue('#arch-ffn'), '0');
  assert.equal(await page.getAttribute('#arch-ffn', 'min'), '0');
  assert.match(await metric(page, 'tpot'), /^\s*[\d.,]+ (µs|ms)\s*$/);
  assert.match(await page.textContent('[data-metric="params"]'), /129M/);
  assert.equal(await page.isVisible('#general-error'), false);
  await assertClean(page);

  // An MLP added and a wider scan: both in the link, the title says modified.
  await page.fill('#arch-ffn', '3072');
  await page.fill('#arch-d_inner', '3072');
  await page.waitForFunction(() => /&ffn=3072&d_inner=3072&/.test(location.hash) && /modified/.test(document.querySelector('#scenario-title').textContent));
  assert.equal(await page.isVisible('#general-error'), false);
  // TP 7 does not split the 3,072 channels: the engine's error at TP.
  await page.fill('#tp', '7');
  await page.locator('#tp-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#tp-error'), /TP = 7 must divide “Inner width” = 3072/);
  await page.fill('#tp', '8');
  await page.locator('#tp-error').waitFor({ state: 'hidden' });
  // A state of 0 is out of range: the error at the field.
  await page.fill('#arch-d_state', '0');
  await page.locator('#arch-d_state-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#arch-d_state-error'), /must be an integer in \[1,/);
  await page.click('#arch-reset');
  await page.locator('#arch-d_state-error').waitFor({ state: 'hidden' });
  assert.doesNotMatch(await hash(page), /d_inner|d_state|ffn=/);
  await assertClean(page);
  await page.close();
});

test('Jamba-v0.1: the groups summary shows its Mamba and attention layers, and EP', async () => {
  const page = await open(`${base}#model=jamba-v0.1&system=hgx-h200&chips=8&tp=8&pp=1&batch=4&input=2048&output=256&precision=bf16&flash=on`);
  await page.click('#arch summary');
  assert.equal(await page.isVisible('#arch-groups'), true);
  assert.equal(await page.isVisible('#arch-mamba'), false, 'its layers are summarised, not edited');
  assert.match(await page.textContent('#arch-groups-note'), /32 layers in 32 groups of 3 kinds/);
  assert.deepEqual(await page.$$eval('#arch-groups-table th', (ths) => ths.map((th) => th.textContent)), ['Layers', 'Mixer', 'FFN']);
  const rows = await page.$$eval('#arch-groups-table tbody tr', (trs) => trs.map((tr) => tr.textContent));
  assert.equal(rows.length, 3);
  assert.match(rows[0], /^12 \(12 groups\)Mamba d_inner 8,192, state 16dense, 14,336 wide$/);
  assert.match(rows[1], /^16 \(16 groups\)Mamba d_inner 8,192, state 1616 experts, 2 per token, 14,336 wide$/);
  assert.match(rows[2], /^4 \(4 groups\)32 heads, 8 KV heads, full attention/);
  assert.equal(await page.isVisible('#ep'), true);
  assert.match(await page.textContent('[data-metric="params"]'), /51\.6B.*active/);
  assert.doesNotMatch(await page.textContent('#scenario-title'), /modified/);
  await assertClean(page);
  await page.close();
});

test('a prefix cache hit lowers the time to first token, not the time per token; out of range, its error', async () => {
  const page = await open(base);
  assert.equal(await page.inputValue('#prefix_cache_hit'), '0');
  const ttft = await seconds(page, 'ttft');
  const tpot = (await headline(page)).tpot;
  await page.fill('#prefix_cache_hit', '0.5');
  await page.waitForFunction(() => /&prefix_cache_hit=0\.5(&|$)/.test(location.hash)
    && /50\.0% of it cached/.test(document.querySelector('[data-metric="ttft"]').textContent));
  const cached = await seconds(page, 'ttft');
  assert.ok(cached < ttft, `TTFT with half of each prompt cached ${cached} s, without ${ttft} s`);
  assert.equal((await headline(page)).tpot, tpot);
  assert.match(await page.textContent('#scenario-desc'), /prefix cache hit 50\.0%/);
  await assertClean(page);

  await page.fill('#prefix_cache_hit', '1');
  await page.locator('#prefix_cache_hit-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#prefix_cache_hit-error'), /must be a number in \[0, 0\.999999\]/);
  await page.fill('#prefix_cache_hit', '0');
  await page.locator('#prefix_cache_hit-error').waitFor({ state: 'hidden' });
  await page.waitForFunction(() => !/prefix_cache_hit/.test(location.hash));
  assert.equal(await page.inputValue('#scenario-preset'), 'llama2-70b-dgx-h100-tp8', 'back to the preset scenario');
  await page.close();
});

test('parallel attention + MLP (Falcon-180B) and the routing imbalance (Mixtral): in the link only when changed', async () => {
  const page = await open(`${base}#model=falcon-180b&system=dgx-h100&chips=8&tp=8&pp=1&batch=1&input=2048&output=256&precision=bf16&flash=on`);
  await page.click('#arch summary');
  assert.equal(await page.isChecked('#arch-parallel_block'), true);
  assert.equal(await page.isVisible('#arch-imbalance'), false, 'no experts, no imbalance');
  await page.uncheck('#arch-parallel_block');
  await page.waitForFunction(() => /&parallel_block=off&/.test(location.hash) && /modified/.test(document.querySelector('#scenario-title').textContent));
  await page.check('#arch-parallel_block');
  await page.waitForFunction(() => !/parallel_block/.test(location.hash));

  await page.selectOption('#model', 'mixtral-8x7b');
  await page.fill('#tp', '2');
  await page.fill('#ep', '4');
  await page.waitForFunction(() => /&tp=2&pp=1&ep=4&/.test(location.hash));
  assert.equal(await page.isVisible('#arch-imbalance'), true);
  assert.equal(await page.inputValue('#arch-imbalance'), '1');
  assert.equal(await page.isChecked('#arch-parallel_block'), false);
  const ttft = await seconds(page, 'ttft');
  await page.fill('#arch-imbalance', '2');
  await page.waitForFunction(() => /&imbalance=2&/.test(location.hash));
  assert.ok(await seconds(page, 'ttft') > ttft, 'the busiest EP chip waits the group');
  await page.fill('#arch-imbalance', '0.5');
  await page.locator('#arch-imbalance-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#arch-imbalance-error'), /must be a number in \[1, 1000\]/);
  await page.fill('#arch-imbalance', '1');
  await page.waitForFunction(() => !/imbalance/.test(location.hash));
  await assertClean(page);
  await page.close();
});

test('links with the new keys restore the same inputs and numbers', async () => {
  const links = [
    '#model=mamba-130m&ffn=1536&d_state=32&system=dgx-h100&chips=8&tp=4&pp=1&batch=16&input=4096&output=256&precision=bf16&flash=on&prefix_cache_hit=0.3',
    '#model=mixtral-8x7b&imbalance=1.5&system=dgx-h100&chips=8&tp=2&pp=1&ep=4&batch=8&input=2048&output=256&precision=bf16&flash=on&prefix_cache_hit=0.25',
    '#model=llama-2-70b&parallel_block=on&system=dgx-h100&chips=8&tp=8&pp=1&batch=1&input=2048&output=256&precision=bf16&flash=on',
  ];
  for (const link of links) {
    const page = await open(base + link);
    assert.equal(await hash(page), `#v=1&${link.slice(1)}`);
    assert.equal(await page.isVisible('#general-error'), false, link);
    const form = await inputs(page);
    const shown = await headline(page);
    const copy = await open(base + (await hash(page)));
    assert.deepEqual(await inputs(copy), form, link);
    assert.deepEqual(await headline(copy), shown, link);
    await assertClean(copy);
    await copy.close();
    await page.close();
  }
});
