// The static server (web/serve.mjs): hostile requests get an answer and never stop it;
// every response carries the page's security headers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import fs from 'node:fs';
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
  for (const file of ['js/main.js', `engine/${engine}/envelope.mjs`, `engine/${engine}/envelope.wasm`, 'envelope-calc.js', 'sw.js']) {
    const res = await fetch(`http://127.0.0.1:${port}/${file}`, { headers: { origin: 'null' } });
    assert.equal(res.status, 200, file);
    assert.equal(res.headers.get('access-control-allow-origin'), '*', file);
  }
});

test('isBadPath accepts ordinary paths', () => {
  for (const ok of ['/', '/index.html', '/js/main.js?x=1', '/a%20b.txt']) assert.equal(isBadPath(ok), false, ok);
  for (const bad of ['/%00', '/%', '/a/..%2fb', '/a%5cb']) assert.equal(isBadPath(bad), true, bad);
});
