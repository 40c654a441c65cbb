// Embedding (web/js/embed.js, css/embed.css, js/scenario-param.js, js/envelope-calc.js,
// the server's Access-Control-Allow-Origin) in headless Chromium: the compact ?embed=1 view,
// ?scenario=ID, a plain <iframe sandbox="allow-scripts"> and <envelope-calc> on a host page
// of another origin, the height messages, and the message a sandboxed frame shows when its
// server refuses cross-origin loads.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { launch, open, assertClean, headline } from './helpers.mjs';

const LINK = '#model=llama-3-8b&chip=h100-sxm&chips=2&tp=2&pp=1&batch=4&input=1000&output=100&precision=fp8&flash=on';
const PRESET = 'llama3-8b-h100-batch64-fp8';

let session;
let base;
let host; // another origin: the docs site that embeds Envelope
let hostBase;
const hostPages = new Map();

before(async () => {
  session = await launch();
  ({ base } = session);
  host = http.createServer(async (req, res) => {
    const { pathname } = new URL(req.url, 'http://x');
    // The server as before Access-Control-Allow-Origin: Envelope's site without the header.
    if (pathname.startsWith('/old-server/')) {
      const upstream = await fetch(`${base}${pathname.slice('/old-server/'.length)}`);
      const headers = Object.fromEntries([...upstream.headers].filter(([name]) => !/^(access-control-|content-encoding|content-length|transfer-encoding)/.test(name)));
      return res.writeHead(upstream.status, headers).end(Buffer.from(await upstream.arrayBuffer()));
    }
    if (pathname === '/favicon.ico') return res.writeHead(204).end();
    const page = hostPages.get(pathname);
    if (!page) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...page.headers }).end(page.body);
  });
  await new Promise((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostBase = `http://localhost:${host.address().port}/`;
});
after(async () => {
  await session?.close();
  await new Promise((resolve) => host?.close(resolve));
});

function hostPage(name, body, headers = {}) {
  hostPages.set(`/${name}`, { body: `<!doctype html><html><head><meta charset="utf-8"><title>docs</title></head><body>${body}</body></html>`, headers });
  return `${hostBase}${name}`;
}

// A host page that records every problem, in itself and in its frames.
async function openHost(url) {
  const page = await session.context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') page.problems.push(`console.error: ${m.text()}`); });
  await page.goto(url);
  return page;
}

const frameHeight = (frame) => frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
const visible = (frame, selector) => frame.locator(selector).isVisible();

test('?embed=1: results first without the site chrome; inputs fold out; the link out follows the state', async () => {
  const page = await open(session.context, `${base}?embed=1${LINK}`);
  for (const chrome of ['.site-header', '.site-footer', '#inputs', '.scenario-heading .share-bar', '#ops', '#mapping']) {
    assert.equal(await visible(page, chrome), false, chrome);
  }
  for (const shown of ['[data-metric="ttft"]', '#memory-chart', '#latency-chart']) assert.equal(await visible(page, shown), true, shown);
  const results = await page.locator('#results').boundingBox();
  assert.ok(results.y < 60, `results at the top (y = ${results.y})`);

  const link = page.locator('a.embed-open');
  assert.equal(await link.textContent(), 'Open in Envelope ↗');
  assert.equal(await link.getAttribute('target'), '_blank');
  assert.equal(await link.getAttribute('href'), `${base}#v=1&${LINK.slice(1)}`);

  await page.click('.embed-inputs-toggle');
  assert.equal(await visible(page, '#inputs'), true);
  assert.equal(await page.getAttribute('.embed-inputs-toggle', 'aria-expanded'), 'true');
  await page.fill('#batch', '8');
  await page.waitForFunction(() => location.hash.includes('batch=8'));
  await link.focus();
  assert.equal(await link.getAttribute('href'), `${base}#v=1&${LINK.slice(1).replace('batch=4', 'batch=8')}`);
  // A "?" to the methodology opens a tab; the frame keeps the calculation.
  const [tab] = await Promise.all([session.context.waitForEvent('page'), page.click('[data-metric="ttft"] a.how')]);
  assert.match(tab.url(), /methodology\.html#/);
  await tab.close();
  assert.match(page.url(), /\?embed=1#/);
  await assertClean(page);
  await page.close();
});

test('?scenario=ID opens that preset as a link; an unknown id says so', async () => {
  const page = await open(session.context, `${base}?embed=1&scenario=${PRESET}`);
  assert.equal(await page.inputValue('#scenario-preset'), PRESET);
  const url = new URL(page.url());
  assert.equal(url.search, '?embed=1');
  assert.match(url.hash, /^#v=1&model=llama-3-8b&/);
  await assertClean(page);

  const unknown = await open(session.context, `${base}?scenario=no-such-scenario`);
  assert.match(await unknown.textContent('#notice'), /no scenario preset "no-such-scenario".*default scenario/);
  assert.equal(await unknown.inputValue('#scenario-preset'), 'llama2-70b-dgx-h100-tp8');
  await unknown.close();
  await page.close();
});

test('a plain <iframe sandbox="allow-scripts"> on another origin computes and reports its height', async () => {
  const url = hostPage('iframe.html', `<script src="record.js"></script>
    <iframe id="calc" sandbox="allow-scripts" src="${base}?embed=1${LINK}" width="640" height="300"></iframe>`);
  // The host records the height messages of its frame (a file, so that no inline script is needed).
  hostPages.set('/record.js', { body: `window.heights = [];
    addEventListener('message', (e) => {
      if (e.source === document.querySelector('#calc').contentWindow && e.data?.type === 'envelope:height') window.heights.push(e.data.height);
    });`, headers: { 'content-type': 'text/javascript' } });
  const page = await openHost(url);
  const frame = page.frameLocator('#calc');
  await frame.locator('#result-body:not([hidden])').waitFor({ timeout: 10000 });
  const inner = page.frames().find((f) => f.url().startsWith(base));
  assert.equal(await inner.evaluate(() => window.origin), 'null'); // the sandbox's opaque origin
  assert.match(await inner.textContent('[data-metric="ttft"] .metric-value'), /\d/);
  // The last height posted is the frame's document height, and it is the content's, not the iframe's 300 px.
  const expected = await frameHeight(inner);
  await page.waitForFunction((h) => window.heights.at(-1) === h, expected);
  assert.ok(expected > 400, `content height ${expected}`);
  // Unfolding the inputs makes it taller, and a new message says so.
  await inner.click('.embed-inputs-toggle');
  await page.waitForFunction((h) => window.heights.at(-1) > h, expected);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('in a sandboxed frame whose server refuses cross-origin loads, the message says so', async () => {
  // The frame is on the host's own server here (a path that relays Envelope's files without
  // Access-Control-Allow-Origin), sandboxed, so its origin is still opaque.
  const url = hostPage('refused.html', `<iframe sandbox="allow-scripts" src="${hostBase}old-server/?embed=1" width="800" height="500"></iframe>`);
  const page = await openHost(url);
  const frame = page.frameLocator('iframe');
  await frame.locator('#fatal').waitFor({ state: 'visible', timeout: 10000 });
  const message = await frame.locator('#fatal').textContent();
  assert.match(message, /sandboxed frame/);
  assert.match(message, /Access-Control-Allow-Origin: \*/);
  assert.doesNotMatch(message, /WebAssembly|local file/);
  assert.equal(await frame.locator('#inputs').isVisible(), false); // not an empty form beside it
  await page.close();
});

test('<envelope-calc> on a docs page of another origin: sandboxed frames that size themselves', async () => {
  const url = hostPage('element.html', `
    <script type="module" src="${base}envelope-calc.js"></script>
    <h1>Our docs</h1>
    <envelope-calc id="by-link" scenario="${base}${LINK}"></envelope-calc>
    <envelope-calc id="by-preset" scenario="${PRESET}" src="${base}"></envelope-calc>
    <envelope-calc id="fixed" scenario="${LINK.slice(1)}" height="320"></envelope-calc>`, {
    // A strict host policy: only Envelope's script and frames, no inline styles.
    'content-security-policy': `default-src 'none'; script-src ${base}; frame-src ${base}`,
  });
  const page = await openHost(url);
  const iframe = (id) => page.locator(`#${id} iframe`);
  for (const id of ['by-link', 'by-preset', 'fixed']) {
    assert.equal(await iframe(id).getAttribute('sandbox'), 'allow-scripts allow-popups allow-popups-to-escape-sandbox');
    await page.frameLocator(`#${id} iframe`).locator('#result-body:not([hidden])').waitFor({ timeout: 15000 });
  }
  assert.equal(await iframe('by-link').getAttribute('src'), `${base}?embed=1${LINK}`);
  assert.equal(await iframe('by-preset').getAttribute('src'), `${base}?embed=1&scenario=${PRESET}`);
  assert.equal(await iframe('fixed').getAttribute('src'), `${base}?embed=1${LINK}`);
  assert.equal(await page.frameLocator('#by-preset iframe').locator('#scenario-preset').inputValue(), PRESET);

  // The auto-height frame takes its content's height; the fixed one stays as asked.
  const inner = page.frames().find((f) => f.url().includes('batch=4') && f.url().startsWith(`${base}?embed=1#`));
  const content = await frameHeight(inner);
  await page.waitForFunction((h) => Math.round(document.querySelector('#by-link').shadowRoot.querySelector('iframe').getBoundingClientRect().height) === h, content);
  assert.equal((await iframe('fixed').boundingBox()).height, 320);

  // A height message from anyone but its own frame is ignored.
  await page.evaluate(() => window.postMessage({ type: 'envelope:height', height: 50 }, '*'));
  await page.waitForTimeout(200);
  assert.equal(Math.round((await iframe('by-link').boundingBox()).height), content);

  // "Open in Envelope" opens the full page, outside the sandbox, at the same scenario.
  const [popup] = await Promise.all([session.context.waitForEvent('page'), page.frameLocator('#by-link iframe').locator('a.embed-open').click()]);
  await popup.waitForSelector('#result-body:not([hidden])', { timeout: 10000 });
  assert.notEqual(await popup.evaluate(() => window.origin), 'null');
  assert.equal(await popup.isVisible('.site-header'), true);
  assert.deepEqual(await headline(popup), await headline(inner));
  await popup.close();

  // A changed attribute loads the new scenario.
  await page.evaluate(() => document.querySelector('#fixed').setAttribute('scenario', 'llama2-70b-dgx-h100-tp8'));
  await page.frameLocator('#fixed iframe').locator('#scenario-preset').evaluate((el) => new Promise((resolve) => {
    const check = () => (el.value === 'llama2-70b-dgx-h100-tp8' ? resolve() : setTimeout(check, 50));
    check();
  }));
  assert.deepEqual(page.problems, []);
  await page.close();
});
