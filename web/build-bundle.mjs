// Bundles a built site's pages (esbuild, npm):   node web/build-bundle.mjs SITE
//
// dev.sh runs it in build_site once web/ is copied into SITE (and js/build-info.js written),
// before the offline manifest. For each page it reads, in order, the module scripts and the
// style sheets its HTML names — the HTML stays the one list of what a page loads — and
// replaces them with one minified, content-hashed module and one style sheet under app/:
//   index.html       <script type="module" src="js/theme.js"> … <script … src="js/offline.js">
//                    and thirteen css/*.css  →  app/index-HASH.js + app/index-HASH.css
// Code a page imports with import() (the Search card) becomes a chunk fetched when it is used
// (a chunk the entry imports statically, should one appear, is preloaded beside it).
// The sweep worker, which js/sweep-client.js and js/search-client.js start from
// new URL('./sweep-worker.js', import.meta.url), is minified to app/sweep-worker.js under that
// name. Classic scripts (the watchdog, the theme boot that must run before the first paint)
// stay as they are; so do js/ and css/ themselves, which the pages no longer load (tests
// import single modules from them) and the offline cache leaves out (web/build-precache.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

export const PAGES = ['index.html', 'validation.html', 'methodology.html'];
export const BUNDLE_DIR = 'app';
const ENTRY_DIR = '.bundle-entries';
const MODULE_TAG = /[ \t]*<script type="module" src="([^"]+)"><\/script>\n?/g;
const STYLE_TAG = /[ \t]*<link rel="stylesheet" href="([^"]+)">\n?/g;
// Browsers from 2022 on: top-level await, class fields, optional chaining run natively.
const TARGET = ['es2022', 'chrome100', 'firefox100', 'safari15.4'];

// What one page loads: its module scripts and style sheets, in document order.
export function pageAssets(html) {
  return {
    modules: [...html.matchAll(MODULE_TAG)].map((m) => m[1]),
    styles: [...html.matchAll(STYLE_TAG)].map((m) => m[1]),
  };
}

// The page with its style sheets replaced by the bundle's where the first of them was (with
// the preloads of its chunks beside it, early in the head), and its module scripts by the
// bundle's where the last of them was (with the engine's two files preloaded when the page
// loads it, `engine` its folder): a module runs after the deferred classic scripts that
// came before it (validation.html's chart library), so the bundle keeps that order.
export function rewritePage(html, { script, style, preloads, engine = null }) {
  const replaceAt = (text, pattern, which, lines) => {
    const count = [...text.matchAll(pattern)].length;
    let seen = 0;
    return text.replace(pattern, (tag) => {
      seen += 1;
      if (seen !== (which === 'first' ? 1 : count)) return '';
      const indent = tag.match(/^[ \t]*/)[0];
      return lines.map((line) => `${indent}${line}\n`).join('');
    });
  };
  const out = replaceAt(html, STYLE_TAG, 'first', [
    `<link rel="stylesheet" href="${style}">`,
    ...preloads.map((href) => `<link rel="modulepreload" href="${href}">`),
    ...(engine ? [
      `<link rel="modulepreload" href="${engine}envelope.mjs">`,
      `<link rel="preload" href="${engine}envelope.wasm" as="fetch" type="application/wasm" crossorigin>`,
    ] : []),
  ]);
  return replaceAt(out, MODULE_TAG, 'last', [`<script type="module" src="${script}"></script>`]);
}

function relative(site, file) {
  return path.relative(site, file).split(path.sep).join('/');
}

async function bundlePages(site) {
  const { ENGINE_DIR: engineDir } = await import(pathToFileURL(path.resolve(site, 'js', 'build-info.js')).href);
  const entries = path.join(site, ENTRY_DIR);
  fs.mkdirSync(entries, { recursive: true });
  const pages = [];
  for (const page of PAGES) {
    const file = path.join(site, page);
    if (!fs.existsSync(file)) continue;
    const html = fs.readFileSync(file, 'utf8');
    const { modules, styles } = pageAssets(html);
    const name = path.basename(page, '.html');
    fs.writeFileSync(path.join(entries, `${name}.js`), modules.map((src) => `import '../${src}';\n`).join(''));
    fs.writeFileSync(path.join(entries, `${name}.css`), styles.map((href) => `@import '../${href}';\n`).join(''));
    pages.push({ page, name, html });
  }
  const outdir = path.join(site, BUNDLE_DIR);
  const common = { bundle: true, minify: !process.env.ENVELOPE_NO_MINIFY, target: TARGET, logLevel: 'warning', legalComments: 'none' };
  let files = 0;
  // One build per page, so that a page's first load is its entry and no chunk shared with
  // another page; a chunk is only what the page itself loads later.
  for (const { page, name, html } of pages) {
    const result = await esbuild.build({
      ...common,
      entryPoints: [path.join(entries, `${name}.js`), path.join(entries, `${name}.css`)],
      outdir,
      format: 'esm',
      splitting: true,
      entryNames: '[name]-[hash]',
      chunkNames: `${name}-chunk-[hash]`,
      metafile: true,
    });
    const outputs = Object.entries(result.metafile.outputs);
    const entryOf = (ext) => outputs.find(([, out]) => out.entryPoint?.endsWith(`${ENTRY_DIR}/${name}.${ext}`));
    const [script, js] = entryOf('js');
    const [style] = entryOf('css');
    const preloads = js.imports.filter((i) => i.kind === 'import-statement').map((i) => relative(site, i.path));
    // A page that loads the engine starts its download and compile beside the bundle's
    // rather than after the bundle has run (js/engine.js fetches the same two URLs).
    const loadsEngine = Object.keys(result.metafile.inputs).some((input) => input.endsWith('js/engine.js'));
    const engine = loadsEngine ? engineDir : null;
    fs.writeFileSync(path.join(site, page),
      rewritePage(html, { script: relative(site, script), style: relative(site, style), preloads, engine }));
    files += outputs.length;
  }
  await esbuild.build({
    ...common,
    entryPoints: [path.join(site, 'js', 'sweep-worker.js')],
    outfile: path.join(outdir, 'sweep-worker.js'),
    format: 'esm',
  });
  fs.rmSync(entries, { recursive: true, force: true });
  return files + 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const site = process.argv[2];
  if (!site || !fs.existsSync(path.join(site, 'index.html'))) {
    console.error('usage: node web/build-bundle.mjs SITE   (SITE: a site with its index.html)');
    process.exit(2);
  }
  const files = await bundlePages(site);
  console.log(`bundle: ${files} files under ${site}/${BUNDLE_DIR}`);
}
