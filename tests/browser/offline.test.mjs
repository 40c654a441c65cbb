// Offline use (web/sw.js, web/js/offline.js, web/build-precache.mjs) in headless Chromium:
// after one visit the service worker controls the page and holds the whole build in one
// cache, so that with the network off a reload still computes, the embed view and the
// methodology and validation pages open; a new build on the server installs a new worker,
// whose cache replaces the old one.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, open, assertClean, headline } from './helpers.mjs';
import { startServer } from '../../web/serve.mjs';
import { precacheList, writeManifest } from '../../web/build-precache.mjs';
import { compressSite } from '../../web/compress-site.mjs';
import { site } from '../support/paths.mjs';

const LINK = '#model=llama-3-8b&chip=h100-sxm&chips=2&tp=2&pp=1&batch=4&input=1000&output=100&precision=fp8&flash=on';

let session;
before(async () => { session = await launch({ serviceWorkers: 'allow' }); });
after(async () => { await session?.close(); });

// Resolves once a service worker controls the page.
function controlled(page) {
  return page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
    }
    return navigator.serviceWorker.controller.scriptURL;
  });
}

const cacheNames = (page) => page.evaluate(() => caches.keys());

async function until(check, ms) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => { setTimeout(resolve, 100); });
  }
}

test('after one visit, a reload without network computes the same result', async () => {
  const { context, base } = session;
  const { build, files } = precacheList(site);
  // The cache of an older build, made before any worker exists: activation deletes it.
  const setup = await context.newPage();
  await setup.goto(`${base}img/icon.svg`);
  await setup.evaluate(async () => (await caches.open('envelope-0ld0ld0ld0ld')).put('stale', new Response('old')));
  await setup.close();

  const page = await open(context, `${base}${LINK}`);
  const online = await headline(page);
  assert.equal(await controlled(page), `${base}sw.js`);
  assert.deepEqual(await cacheNames(page), [`envelope-${build}`]);
  // Every file of the build is in it: the shell, the hashed engine, the vendor libraries.
  const cached = await page.evaluate(async (name) => (await (await caches.open(name)).keys()).map((r) => r.url), `envelope-${build}`);
  assert.deepEqual(cached.sort(), files.map((f) => `${base}${f}`).sort());
  assert.ok(files.some((f) => /^engine\/[0-9a-f]{12}\/envelope\.wasm$/.test(f)));
  for (const f of ['index.html', 'js/watchdog.js', 'vendor/echarts.common.min.js', 'methodology.md', 'validation.html']) {
    assert.ok(files.includes(f), f);
  }
  // The pages' bundles are cached, not the source modules they were built from.
  for (const page of ['index', 'validation', 'methodology']) {
    assert.ok(files.some((f) => new RegExp(`^app/${page}-[A-Z0-9]+\\.js$`).test(f)), page);
  }
  assert.ok(files.includes('app/sweep-worker.js'));
  assert.ok(!files.includes('js/main.js') && !files.some((f) => /\.(gz|br)$/.test(f)));

  await context.setOffline(true);
  try {
    const response = await page.reload();
    assert.equal(response.fromServiceWorker(), true);
    await page.waitForSelector('#result-body:not([hidden])', { timeout: 10000 });
    assert.deepEqual(await headline(page), online);
    await page.waitForSelector('#memory-chart canvas', { timeout: 10000 }); // the charting library too
    assert.equal(await page.evaluate(() => navigator.onLine), false);
    await assertClean(page);

    // The embed view (a query the cache does not have) and the other pages, offline too.
    const embed = await open(context, `${base}?embed=1${LINK}`);
    assert.deepEqual(await headline(embed), online);
    await embed.close();
    const method = await context.newPage();
    await method.goto(`${base}methodology.html`);
    await method.waitForSelector('#doc h2', { timeout: 10000 });
    await method.close();
    const validation = await context.newPage();
    await validation.goto(`${base}validation.html`);
    await validation.waitForSelector('#validation-cases tbody tr', { timeout: 20000 });
    await validation.close();
  } finally {
    await context.setOffline(false);
  }
  await page.close();
});

test('a new build on the server replaces the cached one, and the old cache is deleted', async () => {
  // The site in a folder of its own, served on a port that a second server takes over
  // after a "deploy": one changed file and a new manifest.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envelope-offline-'));
  fs.cpSync(site, dir, { recursive: true });
  let server = await startServer(dir, 0);
  const { port } = server.address();
  const base = `http://127.0.0.1:${port}/`;
  const context = await session.browser.newContext({ serviceWorkers: 'allow' });
  try {
    const page = await open(context, `${base}${LINK}`);
    await controlled(page);
    const first = precacheList(dir).build;
    assert.deepEqual(await cacheNames(page), [`envelope-${first}`]);

    await new Promise((resolve) => { server.close(resolve); server.closeAllConnections(); });
    fs.appendFileSync(path.join(dir, 'js/watchdog.js'), '\n// the next build\n');
    const next = writeManifest(dir).build;
    compressSite(dir); // as dev.sh does: the server's gzip and brotli twins follow the file
    assert.notEqual(next, first);
    server = await startServer(dir, port);

    // A navigation checks for a new worker; it installs, takes over and drops the old cache.
    await page.reload();
    await until(async () => String(await cacheNames(page)) === `envelope-${next}`, 15000);
    await context.setOffline(true);
    await page.reload();
    await page.waitForSelector('#result-body:not([hidden])', { timeout: 10000 });
    assert.match(await page.evaluate(() => fetch('js/watchdog.js').then((r) => r.text())), /the next build/);
    await context.setOffline(false);
    await page.close();
  } finally {
    await context.close();
    await new Promise((resolve) => { server.close(resolve); server.closeAllConnections(); });
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('where there can be no service worker the page runs without one, and says nothing', async () => {
  // The page's own default context blocks workers (helpers.mjs): registration is refused.
  const blocked = await launch();
  try {
    const page = await open(blocked.context, `${blocked.base}${LINK}`);
    await page.waitForLoadState('load');
    assert.equal(await page.evaluate(() => navigator.serviceWorker.controller), null);
    await assertClean(page);
  } finally {
    await blocked.close();
  }
});
