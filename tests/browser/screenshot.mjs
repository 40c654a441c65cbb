// Saves web/img/screenshot.png (the README's picture): the default scenario at 1400×900.
// Run by hand after ./dev.sh build:  node tests/browser/screenshot.mjs
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../web/serve.mjs';

const site = fileURLToPath(new URL('../../build/site/', import.meta.url));
const out = fileURLToPath(new URL('../../web/img/screenshot.png', import.meta.url));

const server = await startServer(site, 0);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForSelector('#result-body:not([hidden])', { timeout: 15000 });
  await page.waitForTimeout(500); // let the chart animations finish
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  server.close();
}
