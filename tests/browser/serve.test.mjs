// scripts/serve.mjs: MIME types the browser insists on, index.html for folders, nothing outside the folder.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { serve, mimeType } from '../../scripts/serve.mjs';
import { root } from './harness.mjs';

let server;
before(async () => { server = await serve({ dir: `${root}/dist`, port: 0 }); });
after(async () => { await server?.close(); });

/** A raw GET (fetch would normalise "/../" away before it reached the server). */
function get(path) {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: 'GET' }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode, type: res.headers['content-type'], body: Buffer.concat(chunks) }));
    });
    req.on('error', fail);
    req.end();
  });
}

test('binds to 127.0.0.1 on the port asked for (0 = any free one) and prints a usable URL', () => {
  assert.equal(server.server.address().address, '127.0.0.1');
  assert.ok(server.port > 0);
  assert.equal(server.url, `http://127.0.0.1:${server.port}/`);
});

test('sends application/wasm and text/javascript, which browsers require', async () => {
  assert.equal((await get('/wasm/attention_simd.wasm')).type, 'application/wasm');
  assert.match((await get('/wasm/attention_simd.mjs')).type, /^text\/javascript/);
  assert.match((await get('/page.js')).type, /^text\/javascript/);
  assert.match((await get('/vendor/katex/katex.min.css')).type, /^text\/css/);
  assert.equal(mimeType('x.woff2'), 'font/woff2');
  const wasm = await get('/wasm/attention_scalar.wasm');
  assert.deepEqual([...wasm.body.subarray(0, 4)], [0x00, 0x61, 0x73, 0x6d]);
});

test('serves index.html for a folder, 404 for a missing file, never a file outside dist/', async () => {
  const index = await get('/');
  assert.equal(index.status, 200);
  assert.match(index.type, /^text\/html/);
  assert.match(index.body.toString(), /Attention Playground/);
  assert.equal((await get('/no-such-file.js')).status, 404);
  const escape = await get('/../package.json');
  assert.notEqual(escape.status, 200);
  assert.equal((await get('/%2e%2e/package.json')).status === 200, false);
});

test('dist/ is self-contained: every vendored file the page links is present', async () => {
  const html = (await get('/')).body.toString();
  const links = [...html.matchAll(/(?:href|src)="([^"#:]+)"/g)].map((m) => m[1]);
  assert.ok(links.includes('page.js') && links.includes('favicon.svg'), links.join(' '));
  for (const link of links) assert.equal((await get(`/${link}`)).status, 200, link);
  assert.ok(!/https?:\/\//.test(html.replace(/<!--[\s\S]*?-->/g, '')), 'index.html names no other server');
});
