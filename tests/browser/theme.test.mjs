// The dark theme: it follows prefers-color-scheme, a switch in the header picks light, dark
// or the system's and is remembered (localStorage, which a sandboxed iframe refuses: the
// page works without it), and the charts redraw in the theme. Run after ./dev.sh build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './helpers.mjs';

let session;
let browser;

useBrowser((s) => {
  session = s;
  browser = s.browser;
});

async function openIn(context) {
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(e.message));
  await page.goto(session.base);
  await page.waitForSelector('#result-body:not([hidden])', { timeout: 15000 });
  await page.waitForFunction(() => document.documentElement.dataset.charts === 'ready', null, { timeout: 15000 });
  return page;
}

const look = (page) => page.evaluate(() => ({
  theme: document.documentElement.dataset.theme,
  body: getComputedStyle(document.body).backgroundColor,
  legend: window.echarts.getInstanceByDom(document.querySelector('#memory-chart')).getOption().legend[0].textStyle.color,
  checked: document.querySelector('input[name="theme"]:checked')?.value,
}));

test('the page follows the system: dark when the system is dark, the charts too', async () => {
  const context = await browser.newContext({ colorScheme: 'dark', serviceWorkers: 'block' });
  const page = await openIn(context);
  const dark = await look(page);
  assert.equal(dark.theme, 'dark');
  assert.equal(dark.checked, 'system');
  assert.equal(dark.body, 'rgb(15, 21, 32)');
  assert.equal(dark.legend, '#a9b4c2', 'the legend text is the dark theme\'s');
  // The system turns light: the page follows while the choice is "system".
  await page.emulateMedia({ colorScheme: 'light' });
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  const light = await look(page);
  assert.equal(light.legend, '#5b6675');
  assert.equal(light.body, 'rgb(245, 247, 250)');
  assert.deepEqual(page.problems.filter((p) => !/mod\[msg\.method\]/.test(p)), []);
  await context.close();
});

test('the switch picks a theme, the charts redraw in it, and a reload keeps it', async () => {
  const context = await browser.newContext({ colorScheme: 'light', serviceWorkers: 'block' });
  const page = await openIn(context);
  assert.equal((await look(page)).theme, 'light');
  await page.click('label[for="theme-dark"]');
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  await page.waitForFunction(() => window.echarts.getInstanceByDom(document.querySelector('#memory-chart'))
    .getOption().legend[0].textStyle.color === '#a9b4c2');
  assert.equal(await page.evaluate(() => localStorage.getItem('envelope-theme')), 'dark');
  await page.reload();
  await page.waitForSelector('#result-body:not([hidden])');
  // Set before the first paint (theme-boot.js), so no white flash.
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  assert.equal(await page.isChecked('#theme-dark'), true);
  await page.click('label[for="theme-system"]');
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  assert.equal(await page.evaluate(() => localStorage.getItem('envelope-theme')), null);
  await context.close();
});

test('where localStorage throws (a sandboxed iframe) the page starts and the switch still works', async () => {
  const context = await browser.newContext({ colorScheme: 'dark', serviceWorkers: 'block' });
  await context.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('denied', 'SecurityError'); } });
  });
  const page = await openIn(context);
  assert.equal((await look(page)).theme, 'dark');
  await page.click('label[for="theme-light"]');
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  assert.deepEqual(page.problems.filter((p) => !/mod\[msg\.method\]/.test(p)), []);
  await context.close();
});

test('the methodology and validation pages take the same theme: the system\'s, or the one picked', async () => {
  const context = await browser.newContext({ colorScheme: 'dark', serviceWorkers: 'block' });
  for (const name of ['methodology.html', 'validation.html']) {
    const page = await context.newPage();
    await page.goto(`${session.base}${name}`);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark', name);
    const [r, g, b] = (await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).match(/\d+/g).map(Number);
    assert.ok(r + g + b < 200, `${name}: a dark background, got rgb(${r}, ${g}, ${b})`);
    await page.close();
  }
  // Light picked on the main page (remembered) wins over the dark system on the others too.
  const page = await openIn(context);
  await page.click('label[for="theme-light"]');
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  await page.goto(`${session.base}methodology.html`);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
  await context.close();
});
