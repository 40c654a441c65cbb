// Gives every text and wasm file of a built site gzip and brotli twins:
//   node web/compress-site.mjs SITE
// dev.sh runs it last in build_site. web/serve.mjs sends FILE.br or FILE.gz, with its
// Content-Encoding, to a browser that accepts it, as the static hosts the site is deployed to
// (GitHub Pages, Netlify, Cloudflare Pages) compress on the fly; the twins are never listed in
// the offline cache (web/build-precache.mjs), which stores what the browser decoded.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const COMPRESSIBLE = /\.(html|js|mjs|css|json|md|svg|wasm|txt)$/;

function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(file) : entry.isFile() ? [file] : [];
  });
}

// gzip -9 and brotli (quality 11) twins of every text or wasm file; -> how many.
export function compressSite(site) {
  let count = 0;
  for (const file of walk(site)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const body = fs.readFileSync(file);
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(body, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }));
    count += 1;
  }
  return count;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const site = process.argv[2];
  if (!site || !fs.existsSync(site)) {
    console.error('usage: node web/compress-site.mjs SITE');
    process.exit(2);
  }
  console.log(`compressed: ${compressSite(site)} files (gzip and brotli)`);
}
