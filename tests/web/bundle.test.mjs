// The pages' bundles (web/build-bundle.mjs): each page loads one minified module and one style
// sheet built from the modules and sheets its HTML names, in their order, with the classic
// scripts kept where they were; the built site's pages name only files that exist.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pageAssets, rewritePage, PAGES } from '../../web/build-bundle.mjs';
import { site } from '../support/paths.mjs';

const SAMPLE = `<head>
  <link rel="stylesheet" href="css/a.css">
  <link rel="stylesheet" href="css/b.css">
  <script src="js/boot.js"></script>
  <script type="module" src="js/one.js"></script>
  <script src="vendor/lib.js" defer></script>
  <script type="module" src="js/two.js"></script>
</head>`;

test('a page\'s modules and style sheets are read in document order', () => {
  assert.deepEqual(pageAssets(SAMPLE), { modules: ['js/one.js', 'js/two.js'], styles: ['css/a.css', 'css/b.css'] });
});

test('the bundle takes the first sheet\'s place and the last module\'s, after the deferred library', () => {
  const out = rewritePage(SAMPLE, { script: 'app/p-X.js', style: 'app/p-Y.css', preloads: ['app/c-Z.js'], engine: './engine/h/' });
  assert.equal(out, `<head>
  <link rel="stylesheet" href="app/p-Y.css">
  <link rel="modulepreload" href="app/c-Z.js">
  <link rel="modulepreload" href="./engine/h/envelope.mjs">
  <link rel="preload" href="./engine/h/envelope.wasm" as="fetch" type="application/wasm" crossorigin>
  <script src="js/boot.js"></script>
  <script src="vendor/lib.js" defer></script>
  <script type="module" src="app/p-X.js"></script>
</head>`);
});

// Every file a built page names in a src or href of its own (not a link to another page).
function referenced(html) {
  return [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"#?]+)"/g)].map((m) => m[1])
    .filter((ref) => !/^[a-z]+:/.test(ref) && !ref.endsWith('.html'));
}

test('each built page loads one bundle and one style sheet, and every file it names exists', () => {
  for (const page of PAGES) {
    const html = fs.readFileSync(path.join(site, page), 'utf8');
    const { modules, styles } = pageAssets(html);
    const name = path.basename(page, '.html');
    assert.equal(modules.length, 1, page);
    assert.match(modules[0], new RegExp(`^app/${name}-[A-Z0-9]{8}\\.js$`), page);
    assert.equal(styles.length, 1, page);
    assert.match(styles[0], new RegExp(`^app/${name}-[A-Z0-9]{8}\\.css$`), page);
    for (const ref of referenced(html)) assert.ok(fs.existsSync(path.join(site, ref)), `${page}: ${ref}`);
    // No source module or sheet: the unbundled files stay in the site for tests only.
    assert.deepEqual(referenced(html).filter((ref) => /^(js|css)\//.test(ref) && !/^js\/(watchdog|theme-boot)\.js$/.test(ref)), [], page);
  }
});

test('the main page asks for at most ten files before its first number, the engine among them', () => {
  const html = fs.readFileSync(path.join(site, 'index.html'), 'utf8');
  const refs = referenced(html).filter((ref) => !ref.startsWith('img/'));
  // The page itself, its sheet, two classic scripts, its bundle and the chunk it imports,
  // and the engine's two files, preloaded.
  assert.ok(1 + refs.length <= 10, refs.join(' '));
  assert.ok(refs.some((ref) => ref.endsWith('envelope.wasm')) && refs.some((ref) => ref.endsWith('envelope.mjs')));
});
