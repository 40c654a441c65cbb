// Shared by the page tests: the built site served on a free port, one Chromium, pages that
// record every script error, console error and CSP violation, and small readers.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../web/serve.mjs';
import { site as builtSite } from '../support/paths.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
// build/site, or ENVELOPE_BUILD's site (tests/support/paths.mjs).
const site = `${builtSite}/`;
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

// -> { base, context, close }
// One browser for a test file: launched before its tests, closed after them; onReady gets
// the session ({context, base, close}).
export function useBrowser(onReady) {
  let session;
  before(async () => {
    session = await launch();
    onReady(session);
  });
  after(async () => {
    await session?.close();
  });
}

// serviceWorkers: 'block' (the default) keeps the offline worker (web/sw.js) out of the
// tests that do not test it, so that a page's requests reach the server (and page.route)
// as they would on a first visit; 'allow' lets it install (tests/browser/offline.test.mjs).
export async function launch({ serviceWorkers = 'block' } = {}) {
  assert.ok(existsSync(`${site}index.html`), `no built site in ${site}: run ./dev.sh build in ${root}`);
  const server = await startServer(site, 0);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers });
  return {
    base,
    browser,
    context,
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

// A fresh page that records every script error, console error and CSP violation.
export async function open(context, url) {
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') page.problems.push(`console.error: ${m.text()}`);
  });
  // Init scripts run through the DevTools protocol, outside the page's CSP.
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto(url);
  await page.waitForSelector('#result-body:not([hidden])', { timeout: 10000 });
  await chartsSettled(page);
  return page;
}

// The chart library loads after the first numbers (web/js/chart-loader.js): ready, or failed.
export async function chartsSettled(page) {
  await page.waitForFunction(() => document.documentElement.dataset.charts, null, { timeout: 15000 });
}

export async function assertClean(page) {
  const text = await page.evaluate(() =>
    document.body.innerText + ' ' + [...document.querySelectorAll('input, select')].map((e) => e.value).join(' '));
  // ("Infinity Fabric" is AMD's interconnect and ZeRO-Infinity DeepSpeed's offload, not
  // numbers gone wrong.)
  assert.doesNotMatch(text, /\bNaN\b|\bundefined\b|(?<!ZeRO-)\bInfinity\b(?! Fabric)|\[object /);
  assert.deepEqual(await page.evaluate(() => window.__csp), [], 'CSP violations');
  assert.deepEqual(page.problems, [], 'script or console errors');
}

export const metric = (page, id) => page.textContent(`[data-metric="${id}"] .metric-value`);

export async function headline(page) {
  const ids = ['ttft', 'tpot', 'e2e', 'throughput', 'prefill', 'memory', 'params', 'chips'];
  return Object.fromEntries(await Promise.all(ids.map(async (id) => [id, (await metric(page, id)).trim()])));
}

export async function inputs(page) {
  return page.evaluate(() => Object.fromEntries(
    [...document.querySelectorAll('#inputs input, #inputs select')].map((e) => [e.id, e.type === 'checkbox' ? e.checked : e.value])));
}

// Changes an input the way a person does and waits for the recomputed number.
export async function setField(page, selector, value, changed = '[data-metric="ttft"] .metric-value') {
  const before = await page.textContent(changed);
  await page.fill(selector, String(value));
  await page.waitForFunction(([sel, old]) => document.querySelector(sel)?.textContent !== old, [changed, before]);
}
