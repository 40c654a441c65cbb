// How fast the page shows its numbers, and how much a first visit downloads. Not a test:
// a script that prints one table, so that a change can be measured before and after.
//
//   node tests/browser/perf-measure.mjs [RUNS]      (default 5 runs; the median is printed)
//   ENVELOPE_BUILD=/tmp/x/build node tests/browser/perf-measure.mjs
//
// It serves the built site (build/site, or ENVELOPE_BUILD's) with web/serve.mjs and drives
// the system Chromium. What it measures:
//   first number, cold    a new browser context (empty cache): navigation start to the first
//                         headline number (time to first token) in the DOM
//   first number, warm    a reload of that page (the cache revalidates: 304s)
//   first number, 4x CPU  cold, with the CPU slowed 4x (CDP Emulation.setCPUThrottlingRate)
//   input to repaint      the batch field edited (an input event) until the changed headline
//                         number is painted (the frame after the DOM change)
//   page weight           the sum of the gzip sizes of every response of a cold first visit
//                         (gzip -6 of each decoded body here, so builds compare alike), and
//                         their brotli sizes (quality 11: the twins the server sends, web/serve.mjs)
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startServer } from '../../web/serve.mjs';
import { site } from '../support/paths.mjs';

const RUNS = Number(process.argv[2] ?? 5);
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const NUMBER = '[data-metric="ttft"] .metric-value .value';

// Records, in the page, when the first headline number appears (ms since navigation start).
function watchFirstNumber(selector) {
  window.__firstNumber = null;
  const check = () => {
    if (window.__firstNumber === null && document.querySelector(selector)?.textContent) {
      window.__firstNumber = performance.now();
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true, characterData: true });
}

async function firstNumber(page) {
  await page.waitForFunction(() => window.__firstNumber !== null, null, { timeout: 60000 });
  return page.evaluate(() => window.__firstNumber);
}

async function newPage(browser, { throttle = 1 } = {}) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(watchFirstNumber, NUMBER);
  if (throttle > 1) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  }
  return { context, page };
}

// Edits the batch field and times until the changed number has been painted.
function inputToPaint(page, value) {
  return page.evaluate(([selector, v]) => new Promise((resolve) => {
    const target = document.querySelector(selector);
    const before = target.textContent;
    const input = document.querySelector('#batch');
    const start = performance.now();
    const observer = new MutationObserver(() => {
      const now = document.querySelector(selector);
      if (now && now.textContent !== before) {
        observer.disconnect();
        // Painted: the frame after the change has been produced.
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0));
      }
    });
    observer.observe(document.querySelector('#results'), { childList: true, subtree: true, characterData: true });
    input.value = String(v);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }), ['[data-metric="ttft"] .metric-value', value]);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const server = await startServer(site, 0);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const rows = { cold: [], warm: [], throttled: [], input: [] };
  let weight = null;
  try {
    for (let run = 0; run < RUNS; run++) {
      const { context, page } = await newPage(browser);
      const bodies = [];
      if (run === 0) {
        page.on('response', (r) => bodies.push(r.body().then((b) => ({
          url: r.url(), raw: b.length, gz: gzipSync(b, { level: 6 }).length, br: brotliCompressSync(b).length,
        })).catch(() => null)));
      }
      await page.goto(base);
      rows.cold.push(await firstNumber(page));
      if (run === 0) {
        // Everything a first visit asks for, charts included.
        await page.waitForSelector('#latency-chart canvas', { timeout: 20000 });
        await page.waitForLoadState('networkidle');
        const got = (await Promise.all(bodies)).filter(Boolean);
        weight = {
          files: got.length,
          raw: got.reduce((a, b) => a + b.raw, 0),
          gz: got.reduce((a, b) => a + b.gz, 0),
          br: got.reduce((a, b) => a + b.br, 0),
          biggest: got.sort((a, b) => b.gz - a.gz).slice(0, 4).map((f) => `${f.url.replace(base, '')} ${(f.gz / 1024).toFixed(0)} KiB`),
        };
      }
      await page.waitForLoadState('networkidle');
      await page.reload();
      rows.warm.push(await firstNumber(page));
      await page.waitForSelector('#latency-chart canvas', { timeout: 20000 });
      for (const v of [2, 3, 4, 5]) rows.input.push(await inputToPaint(page, v + run * 4));
      await context.close();

      const slow = await newPage(browser, { throttle: 4 });
      await slow.page.goto(base);
      rows.throttled.push(await firstNumber(slow.page));
      await slow.context.close();
    }
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
  const ms = (xs) => `${median(xs).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})`;
  console.log(`site: ${site}, ${RUNS} runs, medians`);
  console.log(`first number, cold load     ${ms(rows.cold)}`);
  console.log(`first number, warm reload   ${ms(rows.warm)}`);
  console.log(`first number, 4x CPU, cold  ${ms(rows.throttled)}`);
  console.log(`input change to repaint     ${ms(rows.input)}`);
  console.log(`page weight, first visit    ${(weight.gz / 1024).toFixed(0)} KiB gzipped (${(weight.raw / 1024).toFixed(0)} KiB raw, ${(weight.br / 1024).toFixed(0)} KiB brotli, ${weight.files} files)`);
  console.log(`  largest: ${weight.biggest.join(', ')}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
