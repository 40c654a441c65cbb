// The static server (web/serve.mjs): hostile requests get an answer and never stop it;
// every response carries the page's security headers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import { site } from '../support/paths.mjs';
import { startServer, isBadPath } from '../../web/serve.mjs';

let server;
let port;
before(async () => {
  server = await startServer(site, 0);
  port = server.address().port;
});
after(() => new Promise((resolve) => { server.close(resolve); server.closeAllConnections(); }));

// A raw request, so that paths no HTTP client would send arrive as written.
function raw(requestLine) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`${requestLine}\r\nHost: x\r\nConnection: close\r\n\r\n`);
    });
    let data = '';
    socket.on('data', (d) => { data += d; });
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
}
const status = (response) => Number(response.split(' ')[1]);

test('GET /%00 is a 400 and the server keeps serving (it used to exit)', async () => {
  assert.equal(status(await raw('GET /%00 HTTP/1.1')), 400);
  assert.equal(status(await raw('GET /index.html HTTP/1.1')), 200);
});

test('hostile paths are answered 400, 404 or 405, never with a file outside the site', async () => {
  const cases = [
    ['GET /%E0%A4%A HTTP/1.1', 400], ['GET /..%2f..%2fetc%2fpasswd HTTP/1.1', 400],
    ['GET /%5c..%5cserve.mjs HTTP/1.1', 400], ['GET /a%0Ab HTTP/1.1', 400],
    ['GET /no-such-file.js HTTP/1.1', 404], ['DELETE /index.html HTTP/1.1', 405],
    ['GET /' + 'a'.repeat(5000) + ' HTTP/1.1', 404],
  ];
  for (const [line, expected] of cases) assert.equal(status(await raw(line)), expected, line.slice(0, 40));
  assert.match(await raw('garbage'), /^HTTP\/1\.1 400/);
  assert.equal(status(await raw('GET / HTTP/1.1')), 200);
});

test('responses carry the page CSP, nosniff and no-referrer; wasm has its MIME type', async () => {
  const res = await fetch(`http://127.0.0.1:${port}/`);
  assert.equal(res.status, 200);
  const csp = res.headers.get('content-security-policy');
  const html = await res.text();
  assert.ok(html.includes(`content="${csp}"`), 'header CSP equals the meta CSP');
  for (const directive of ["object-src 'none'", "base-uri 'none'", "form-action 'none'"]) {
    assert.ok(csp.includes(directive), directive);
  }
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
  const engine = fs.readdirSync(`${site}/engine`)[0];
  const wasm = await fetch(`http://127.0.0.1:${port}/engine/${engine}/envelope.wasm`);
  assert.equal(wasm.headers.get('content-type'), 'application/wasm');
  assert.equal((await fetch(`http://127.0.0.1:${port}/nope`)).headers.get('x-content-type-options'), 'nosniff');
});

test('files carry Access-Control-Allow-Origin: *, so that a sandboxed iframe (an opaque origin) loads them', async () => {
  const engine = fs.readdirSync(`${site}/engine`)[0];
  const bundle = fs.readFileSync(`${site}/index.html`, 'utf8').match(/<script type="module" src="([^"]+)"/)[1];
  for (const file of [bundle, `engine/${engine}/envelope.mjs`, `engine/${engine}/envelope.wasm`, 'envelope-calc.js', 'sw.js']) {
    const res = await fetch(`http://127.0.0.1:${port}/${file}`, { headers: { origin: 'null' } });
    assert.equal(res.status, 200, file);
    assert.equal(res.headers.get('access-control-allow-origin'), '*', file);
  }
});

test('a browser that accepts brotli or gzip gets the compressed twin, the same bytes once decoded', async () => {
  const engine = fs.readdirSync(`${site}/engine`)[0];
  for (const file of ['index.html', `engine/${engine}/envelope.wasm`, 'presets/measured/cases.json']) {
    const plain = fs.readFileSync(`${site}/${file}`);
    for (const [accept, encoding] of [['br, gzip', 'br'], ['gzip', 'gzip'], ['identity', null]]) {
      const res = await new Promise((resolve, reject) => {
        http.get(`http://127.0.0.1:${port}/${file}`, { headers: { 'accept-encoding': accept } }, resolve).on('error', reject);
      });
      const chunks = [];
      for await (const chunk of res) chunks.push(chunk);
      const body = Buffer.concat(chunks);
      assert.equal(res.statusCode, 200, file);
      assert.equal(res.headers['content-encoding'] ?? null, encoding, `${file} ${accept}`);
      const decoded = encoding === 'br' ? zlib.brotliDecompressSync(body) : encoding === 'gzip' ? zlib.gunzipSync(body) : body;
      assert.ok(decoded.equals(plain), `${file} ${accept}`);
      // A compressed answer is at most a third of the file for these (text, JSON, wasm).
      if (encoding) assert.ok(body.length < plain.length / 3, `${file} ${encoding}: ${body.length} of ${plain.length}`);
      if (encoding) assert.match(res.headers.vary ?? '', /accept-encoding/i);
    }
  }
});

test('isBadPath accepts ordinary paths', () => {
  for (const ok of ['/', '/index.html', '/js/main.js?x=1', '/a%20b.txt']) assert.equal(isBadPath(ok), false, ok);
  for (const bad of ['/%00', '/%', '/a/..%2fb', '/a%5cb']) assert.equal(isBadPath(bad), true, bad);
});

// Byte ranges (issue 17, defect 10): sirv answered `bytes=-100` with the first 101 bytes,
// `bytes=0-0` with the whole file and `bytes=5-1` by closing the connection.
test('byte ranges: suffix, single byte, open-ended and inner ranges are 206 with the right bytes', async () => {
  const body = fs.readFileSync(`${site}/index.html`);
  const size = body.length;
  const get = (range) => fetch(`http://127.0.0.1:${port}/index.html`, { headers: { range } });
  const cases = [
    // [Range, first byte, last byte] — the inclusive byte positions RFC 9110 §14.1.2 names
    ['bytes=-100', size - 100, size - 1],
    ['bytes=0-0', 0, 0],
    ['bytes=5-9', 5, 9],
    ['bytes=10-', 10, size - 1],
    [`bytes=${size - 1}-${size + 1000}`, size - 1, size - 1], // a last byte past the end is clamped
    [`bytes=-${size + 5}`, 0, size - 1], // a suffix longer than the file is the whole file
  ];
  for (const [range, first, last] of cases) {
    const res = await get(range);
    assert.equal(res.status, 206, range);
    assert.equal(res.headers.get('content-range'), `bytes ${first}-${last}/${size}`, range);
    assert.equal(Number(res.headers.get('content-length')), last - first + 1, range);
    assert.match(res.headers.get('content-type'), /^text\/html/, range);
    assert.ok(Buffer.from(await res.arrayBuffer()).equals(body.subarray(first, last + 1)), range);
  }
  const one = await get('bytes=0-0');
  assert.equal(one.headers.get('content-length'), '1');
  const wasmName = `engine/${fs.readdirSync(`${site}/engine`)[0]}/envelope.wasm`;
  const wasm = await fetch(`http://127.0.0.1:${port}/${wasmName}`, { headers: { range: 'bytes=0-3' } });
  assert.equal(wasm.status, 206);
  assert.equal(wasm.headers.get('content-type'), 'application/wasm');
  assert.deepEqual([...new Uint8Array(await wasm.arrayBuffer())], [0x00, 0x61, 0x73, 0x6d]); // "\0asm"
});

test('byte ranges: unsatisfiable or malformed ranges are 416 with Content-Range: bytes */size', async () => {
  const size = fs.statSync(`${site}/index.html`).size;
  for (const range of ['bytes=5-1', `bytes=${size}-`, `bytes=${size + 10}-${size + 20}`, 'bytes=-0', 'bytes=-', 'bytes=abc', 'bytes=1-2-3', 'bytes=']) {
    const response = await raw(`GET /index.html HTTP/1.1\r\nRange: ${range}`);
    assert.equal(status(response), 416, range);
    assert.match(response, new RegExp(`\\r\\ncontent-range: bytes \\*/${size}\\r\\n`, 'i'), range);
  }
  // The server still answers after them.
  assert.equal(status(await raw('GET /index.html HTTP/1.1')), 200);
});

test('byte ranges: another unit, several ranges or a stale If-Range get the whole file (200)', async () => {
  const size = fs.statSync(`${site}/index.html`).size;
  for (const headers of [{ range: 'items=0-1' }, { range: 'bytes=0-1, 5-6' }, { range: 'bytes=0-1', 'if-range': '"stale"' }]) {
    const res = await fetch(`http://127.0.0.1:${port}/index.html`, { headers });
    assert.equal(res.status, 200, JSON.stringify(headers));
    assert.equal((await res.arrayBuffer()).byteLength, size, JSON.stringify(headers));
  }
  const missing = await fetch(`http://127.0.0.1:${port}/nope.js`, { headers: { range: 'bytes=0-0' } });
  assert.equal(missing.status, 404);
  const head = await fetch(`http://127.0.0.1:${port}/index.html`, { method: 'HEAD', headers: { range: 'bytes=-10' } });
  assert.equal(head.status, 206);
  assert.equal(head.headers.get('content-range'), `bytes ${size - 10}-${size - 1}/${size}`);
});
