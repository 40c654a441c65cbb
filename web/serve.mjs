// The static server for the built site (dev.sh serve, and the browser tests).
//   node web/serve.mjs DIR [PORT]   — serves DIR on http://127.0.0.1:PORT/ and prints the URL
//
// Files are served by sirv (npm), which indexes DIR once at start-up and answers from that
// index, so no request path ever reaches the file system; a request with a Range header is
// answered by byte-ranges.mjs (206, or 416 for a range it cannot serve). Around it: GET and HEAD only, a
// malformed path is a 400, a failing handler answers 500 and the server keeps running, and
// every response carries the page's own Content-Security-Policy (read from DIR/index.html,
// so it has one definition) with nosniff and no-referrer, and Access-Control-Allow-Origin: *
// as GitHub Pages sends it: a page framed with <iframe sandbox="allow-scripts"> has an opaque
// origin, so its module scripts and its .wasm are cross-origin loads that need that header.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sirv from 'sirv';
import { rangeHandler } from './byte-ranges.mjs';

// The CSP of the page's <meta http-equiv="Content-Security-Policy">, or a strict default.
function pageCsp(dir) {
  try {
    const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
    const meta = html.match(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i);
    if (meta) return meta[1];
  } catch {
    // no index.html: fall through to the default
  }
  return "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";
}

// A path that cannot name a file: undecodable escapes, NUL or other control characters,
// backslashes, or a ".." segment.
export function isBadPath(rawUrl) {
  let pathname;
  try {
    pathname = decodeURIComponent(new URL(rawUrl, 'http://x').pathname);
  } catch {
    return true;
  }
  // eslint-disable-next-line no-control-regex -- a path with control characters is refused
  return /[\u0000-\u001f\u007f\\]/.test(pathname) || pathname.split('/').includes('..');
}

export function startServer(dir, port = 0, host = '127.0.0.1') {
  const root = path.resolve(dir);
  const headers = {
    'content-security-policy': pageCsp(root),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'access-control-allow-origin': '*',
  };
  const files = sirv(root, {
    dev: false,
    dotfiles: false,
    etag: true,
    // FILE.br / FILE.gz (web/compress-site.mjs) for a browser that accepts them.
    brotli: true,
    gzip: true,
    setHeaders: (res) => res.setHeader('cache-control', 'no-cache'),
  });
  const ranges = rangeHandler(root);
  const plain = (res, status, text) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
  };

  const server = http.createServer((req, res) => {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      plain(res, 405, 'method not allowed');
      return;
    }
    if (isBadPath(req.url)) {
      plain(res, 400, 'bad path');
      return;
    }
    try {
      if (!ranges(req, res)) files(req, res, () => plain(res, 404, 'not found'));
    } catch (error) {
      console.error(`serve: ${req.url}: ${error?.message ?? error}`);
      if (!res.headersSent) plain(res, 500, 'internal error');
      else res.destroy();
    }
  });
  // A malformed request never reaches the handler: answer it and drop the connection.
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir = 'build/site', port = '8000'] = process.argv.slice(2);
  const server = await startServer(dir, Number(port));
  const { port: actual } = server.address();
  console.log(`Envelope is running at http://127.0.0.1:${actual}/  (Ctrl+C to stop)`);
}
