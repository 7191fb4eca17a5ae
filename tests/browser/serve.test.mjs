// scripts/serve.mjs: MIME types the browser insists on, index.html for folders, nothing outside the folder.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { serve, mimeType } from '../../scripts/serve.mjs';
import { contentVersion } from '../../scripts/content_version.mjs';
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
      res.on('end', () => ok({ status: res.statusCode, type: res.headers['content-type'], cache: res.headers['cache-control'], body: Buffer.concat(chunks) }));
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
  // page.js is asked for by the head's script, after the wasm (index.html says why): `.src = 'page.js'`.
  const links = [...html.matchAll(/(?:href|src)="([^"#:]+)"/g), ...html.matchAll(/\.src = '([^'#:]+)'/g)].map((m) => m[1]);
  assert.ok(links.includes('page.js') && links.includes('favicon.svg'), links.join(' '));
  for (const link of links) assert.equal((await get(`/${link}`)).status, 200, link);
  assert.ok(!/https?:\/\//.test(html.replace(/<!--[\s\S]*?-->/g, '')), 'index.html names no other server');
});

// Hostile or broken requests and folders, on a fixture folder of its own: the server answers
// each with the right status, serves nothing outside the folder's real path, and never dies.
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SERVE_URL = new URL('../../scripts/serve.mjs', import.meta.url);

/** Any request on `port`: resolves to { status, headers, body } (or rejects when nothing answers). */
function ask(port, path, method = 'GET', headers = {}) {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', fail);
    req.end();
  });
}

/** The fixture: a folder with a page, a link to a file outside it, a link inside it, a file only root can read. */
async function makeFixture() {
  const base = await mkdtemp(join(tmpdir(), 'serve-test-'));
  const site = join(base, 'site');
  await mkdir(join(site, 'sub'), { recursive: true });
  await writeFile(join(site, 'index.html'), '<title>fixture</title>');
  await writeFile(join(site, 'sub', 'page.js'), 'export const x = 1;');
  await writeFile(join(base, 'outside.txt'), 'SECRET-OUTSIDE');
  await symlink('/etc/passwd', join(site, 'passwd'));
  await symlink(join(base, 'outside.txt'), join(site, 'outside.txt'));
  await symlink(base, join(site, 'up'));                       // a folder link leading out
  await symlink(join(site, 'sub', 'page.js'), join(site, 'inside.js')); // a link that stays inside
  await symlink(site, join(base, 'site-link'));               // the root itself given through a link
  await writeFile(join(site, 'locked.txt'), 'LOCKED');
  await chmod(join(site, 'locked.txt'), 0o000);
  await chmod(base, 0o755);
  return { base, site };
}

/**
 * Runs the server in a child process serving `dir`, as user nobody when this test runs as root
 * (root reads any file, so only another user meets an unreadable one). Resolves to
 * { port, child, stderr(), exited }.
 */
function startChild(dir, extraArgs = []) {
  const asNobody = process.getuid?.() === 0;
  const child = spawn(process.execPath, [SERVE_URL.pathname, dir, '--port', '0', ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'], ...(asNobody ? { uid: 65534, gid: 65534 } : {}),
  });
  let out = '', err = '';
  child.stderr.on('data', (d) => { err += d; });
  const exited = new Promise((ok) => child.once('exit', (code, signal) => ok({ code, signal })));
  return new Promise((ok, fail) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) ok({ port: Number(m[1]), child, stderr: () => err, exited });
    });
    exited.then(({ code, signal }) => fail(new Error(`the server exited (${code ?? signal}) before serving: ${err}`)));
  });
}

let fixture;
before(async () => { fixture = await makeFixture(); });
after(async () => { if (fixture) await rm(fixture.base, { recursive: true, force: true }); });

test('a symlink inside the folder never serves a file outside it; links that stay inside work', async () => {
  const s = await serve({ dir: fixture.site, port: 0 });
  try {
    for (const path of ['/passwd', '/outside.txt', '/up/outside.txt', '/up/']) {
      const r = await ask(s.port, path);
      assert.ok(r.status === 403 || r.status === 404, `${path}: answered ${r.status}`);
      assert.ok(!/root:|SECRET-OUTSIDE|fixture/.test(r.body), `${path}: served ${JSON.stringify(r.body.slice(0, 60))}`);
    }
    const inside = await ask(s.port, '/inside.js');
    assert.equal(inside.status, 200);
    assert.equal(inside.body, 'export const x = 1;');
    assert.match(inside.headers['content-type'], /^text\/javascript/);
    // Only where a path really leads counts: out through a link and back in is inside.
    assert.equal((await ask(s.port, '/up/site/index.html')).status, 200);
  } finally {
    await s.close();
  }
  // The folder itself may be reached through a link: its real path is the root.
  const viaLink = await serve({ dir: join(fixture.base, 'site-link'), port: 0 });
  try {
    assert.equal((await ask(viaLink.port, '/sub/page.js')).status, 200);
    assert.equal((await ask(viaLink.port, '/passwd')).status === 200, false);
  } finally {
    await viaLink.close();
  }
});

test('an unreadable file gets an error answer and the server keeps serving', async () => {
  const s = await startChild(fixture.site);
  try {
    for (let i = 0; i < 3; i++) {
      const locked = await ask(s.port, '/locked.txt');
      assert.ok(locked.status === 403 || locked.status === 500, `answered ${locked.status}`);
      assert.ok(!locked.body.includes('LOCKED'));
      assert.equal((await ask(s.port, '/index.html')).status, 200, `the server died or stopped answering: ${s.stderr()}`);
    }
    assert.equal(s.child.exitCode, null, `the server exited: ${s.stderr()}`);
  } finally {
    s.child.kill();
    await s.exited;
  }
});

test('a path that does not decode answers 400, not 500', async () => {
  const s = await serve({ dir: fixture.site, port: 0 });
  try {
    for (const path of ['/%', '/%E0%A4%A', '/sub/%zz.js', '/%00']) {
      const r = await ask(s.port, path);
      assert.equal(r.status, 400, `${path}: answered ${r.status}`);
    }
  } finally {
    await s.close();
  }
});

test('only GET and HEAD: other methods answer 405 with Allow; HEAD has headers and no body', async () => {
  const s = await serve({ dir: fixture.site, port: 0 });
  try {
    for (const method of ['POST', 'PUT', 'DELETE', 'TRACE', 'PATCH', 'OPTIONS']) {
      const r = await ask(s.port, '/index.html', method);
      assert.equal(r.status, 405, `${method}: answered ${r.status}`);
      assert.equal(r.headers.allow, 'GET, HEAD', method);
      assert.ok(!r.body.includes('fixture'), `${method} sent the file`);
    }
    const head = await ask(s.port, '/index.html', 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body, '');
    assert.equal(head.headers['content-length'], String('<title>fixture</title>'.length));
    assert.match(head.headers['content-type'], /^text\/html/);
  } finally {
    await s.close();
  }
});

test('every answer allows any origin (a course page elsewhere loads the module and the wasm)', async () => {
  const s = await serve({ dir: fixture.site, port: 0 });
  try {
    const ok = await ask(s.port, '/sub/page.js');
    const answers = [ok, await ask(s.port, '/missing.js'), await ask(s.port, '/%'), await ask(s.port, '/x', 'POST'),
      await ask(s.port, '/passwd'), await ask(s.port, '/sub/page.js', 'GET', { 'If-None-Match': ok.headers.etag })];
    assert.deepEqual(answers.map((r) => r.status), [200, 404, 400, 405, answers[4].status, 304]);
    for (const r of answers) assert.equal(r.headers['access-control-allow-origin'], '*', `status ${r.status}`);
  } finally {
    await s.close();
  }
});

test('the command line still serves a folder on the port asked for', async () => {
  const s = await startChild(fixture.site);
  try {
    const r = await ask(s.port, '/');
    assert.equal(r.status, 200);
    assert.match(r.body, /fixture/);
  } finally {
    s.child.kill();
    await s.exited;
  }
});

test('a file asked for with its own content version may be kept; any other ask is revalidated', async () => {
  const bytes = readFileSync(`${root}/dist/wasm/attention_simd.wasm`);
  const version = contentVersion(bytes);
  // dist/index.html and the bundles ask for the wasm with this version (make_dist.mjs writes it there)
  assert.match(readFileSync(`${root}/dist/index.html`, 'utf8'), new RegExp(`"attention_simd":"${version}"`));
  assert.match(readFileSync(`${root}/dist/attention-playground.js`, 'utf8'), new RegExp(`attention_simd:"${version}"`));
  const kept = await get(`/wasm/attention_simd.wasm?v=${version}`);
  assert.equal(kept.status, 200);
  assert.equal(kept.cache, 'public, max-age=31536000, immutable');
  assert.ok(kept.body.equals(bytes), `the whole file (${kept.body.length} of ${bytes.length} bytes)`);
  const again = await get(`/wasm/attention_simd.wasm?v=${version}`); // the version is remembered, the body still whole
  assert.ok(again.body.equals(bytes) && again.cache === kept.cache);
  const pageVersion = contentVersion(readFileSync(`${root}/dist/page.js`)); // only the wasm is asked for with a version
  for (const path of ['/wasm/attention_simd.wasm', '/wasm/attention_simd.wasm?v=0000000000', `/wasm/attention_scalar.wasm?v=${version}`, `/page.js?v=${version}`, `/page.js?v=${pageVersion}`]) {
    const answer = await get(path);
    assert.equal(answer.status, 200, path);
    assert.equal(answer.cache, 'no-cache', `${path}: a version that is not the file's own must not be kept`);
  }
});
