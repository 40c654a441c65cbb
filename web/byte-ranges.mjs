// Byte ranges for the dev server (serve.mjs), after RFC 9110 §14. sirv's own range code gets
// them wrong (`bytes=-100` answered with the first 101 bytes, `bytes=0-0` with the whole file,
// `bytes=5-1` with a closed connection), so a request with a Range header is answered here:
//   one satisfiable range      -> 206 with Content-Range: bytes FIRST-LAST/SIZE
//   malformed or unsatisfiable -> 416 with Content-Range: bytes */SIZE
//   another unit, several ranges, or an If-Range that no longer matches -> the whole file
//   (200, from sirv: a server may always ignore Range)
// The files are indexed once at start-up, as sirv does, so no request path reaches the disk.
import fs from 'node:fs';
import path from 'node:path';
import { lookup as mimeType } from 'mrmime';

// -> { start, end } (inclusive), 'unsatisfiable', or null (ignore the header: serve it whole).
export function parseRange(header, size) {
  const m = /^\s*bytes\s*=(.*)$/i.exec(header);
  if (!m) return null; // another unit
  const specs = m[1].split(',').map((s) => s.trim()).filter(Boolean);
  if (specs.length > 1) return null;
  const spec = /^(\d*)\s*-\s*(\d*)$/.exec(specs[0] ?? '');
  if (!spec || (spec[1] === '' && spec[2] === '')) return 'unsatisfiable';
  if (spec[1] === '') { // a suffix: the last N bytes
    const n = Number(spec[2]);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(spec[1]);
  const last = spec[2] === '' ? size - 1 : Number(spec[2]);
  if (last < start || start >= size) return 'unsatisfiable';
  return { start, end: Math.min(last, size - 1) };
}

// The files under root by URL path, as sirv indexes them (dot-files left out).
function indexFiles(root) {
  const files = new Map();
  const walk = (dir, prefix) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(abs, `${prefix}${entry.name}/`);
      else if (entry.isFile()) files.set(`${prefix}${entry.name}`, abs);
    }
  };
  walk(root, '/');
  return files;
}

// The same candidates sirv tries: the path, then …/index, each bare, .html, .htm.
function candidates(pathname) {
  const uri = pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  return ['', '.html', '.htm'].flatMap((x) => (uri ? [uri + x] : []).concat(`${uri}/index${x}`));
}

// -> handler(req, res) -> true when it answered the request (it carries a Range header that
// names a file of the site and is not ignored), false to leave it to sirv, with the Range
// header taken out so that sirv's own range code never runs.
export function rangeHandler(root) {
  const files = indexFiles(root);
  return (req, res) => {
    const header = req.headers.range;
    if (header === undefined) return false;
    if (answer(files, req, res, header)) return true;
    delete req.headers.range;
    return false;
  };
}

// -> true when it answered: a 206 or a 416.
function answer(files, req, res, header) {
  let pathname = new URL(req.url, 'http://x').pathname;
  try { pathname = decodeURI(pathname); } catch { return false; }
  const abs = candidates(pathname).map((c) => files.get(c)).find(Boolean);
  if (!abs) return false;
  const stats = fs.statSync(abs);
  const etag = `W/"${stats.size}-${stats.mtime.getTime()}"`;
  const ifRange = req.headers['if-range'];
  if (ifRange !== undefined && ifRange !== etag && ifRange !== stats.mtime.toUTCString()) return false;
  const range = parseRange(header, stats.size);
  if (range === null) return false;
  if (range === 'unsatisfiable') {
    res.writeHead(416, { 'content-range': `bytes */${stats.size}`, 'content-type': 'text/plain; charset=utf-8' });
    res.end('range not satisfiable');
    return true;
  }
  let type = mimeType(abs) ?? 'application/octet-stream';
  if (type === 'text/html') type += ';charset=utf-8';
  res.writeHead(206, {
    'content-type': type,
    'content-length': range.end - range.start + 1,
    'content-range': `bytes ${range.start}-${range.end}/${stats.size}`,
    'accept-ranges': 'bytes',
    'cache-control': 'no-cache',
    etag,
    'last-modified': stats.mtime.toUTCString(),
  });
  if (req.method === 'HEAD') res.end();
  else fs.createReadStream(abs, range).on('error', () => res.destroy()).pipe(res);
  return true;
}
