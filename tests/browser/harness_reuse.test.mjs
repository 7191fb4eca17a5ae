// The harness's page reuse (openUrl's `reuse`, the default; its tests ask for it themselves): a page a test closed is loaded again for the next test, so
// these tests plant what a test can leave behind in a tab (storage of two origins, cookies, caches, a hash,
// a scroll, window.name, a running worker, listeners) and check the next test's page sees none of it; and
// that a page a test changed beyond what the harness undoes (permissions, a popup) is not reused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, serveSite, openUrl } from './harness.mjs';

let h;
let a;
let b;
// A tall page (so it scrolls) that says whether it was asked to log an error; the top page holds b's in a frame.
const plant = '<!doctype html><title>plant</title><body style="height:5000px">'
  + '<script>if (location.search === "?err") console.error("planted error");</script>';
before(async () => {
  h = await startHarness();
  b = await serveSite({ 'plant.html': plant });
  a = await serveSite({ 'plant.html': plant.replace('<body', `<iframe src="${b.url}plant.html"></iframe><body`) });
});
after(async () => { await a?.close(); await b?.close(); await h?.close(); });

/** Writes every kind of storage of the frame's origin: local, session, IndexedDB, a cookie, a cache. */
const fill = async (frame) => frame.evaluate(async () => {
  localStorage.setItem('planted', '1');
  sessionStorage.setItem('planted', '1');
  document.cookie = `planted-${location.port}=1; max-age=3600`;
  await (await caches.open('planted')).put('/planted', new Response('planted'));
  await new Promise((resolve, reject) => {
    const open = indexedDB.open('planted', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('store').put(1, 'key');
    open.onsuccess = () => { open.result.close(); resolve(); };
    open.onerror = () => reject(open.error);
  });
});

/** What the frame's origin holds in each kind of storage (all empty in a clean tab). */
const held = async (frame) => frame.evaluate(async () => ({
  local: localStorage.length, session: sessionStorage.length, cookie: document.cookie,
  caches: await caches.keys(), indexedDB: (await indexedDB.databases()).map((d) => d.name),
}));
const empty = { local: 0, session: 0, cookie: '', caches: [], indexedDB: [] };

const frameOf = (page) => page.frames().find((f) => f.url().startsWith(b.url));

test('a reused page shows the next test nothing the last one left in its tab', async () => {
  const page = await openUrl(h, `${a.url}plant.html`, { waitForResult: false, reuse: true });
  await frameOf(page).waitForLoadState();
  await fill(page.mainFrame());
  await fill(frameOf(page));
  assert.deepEqual((await held(page.mainFrame())).session, 1, 'the planting worked');
  await page.evaluate(() => {
    location.hash = 'planted';
    scrollTo(0, 2000);
    window.name = 'planted';
    const source = 'setInterval(() => postMessage(1), 50)';
    window.worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
  });
  await page.waitForEvent('worker');
  page.on('dialog', () => {});
  await page.closeAll();

  const again = await openUrl(h, `${a.url}plant.html?err`, { waitForResult: false, reuse: true });
  assert.equal(again, page, 'the closed page was reused (else this test checks nothing)');
  await frameOf(again).waitForLoadState();
  assert.deepEqual(await held(again.mainFrame()), empty, 'the top origin\'s storage');
  assert.deepEqual(await held(frameOf(again)), empty, 'the framed origin\'s storage');
  assert.deepEqual(await again.evaluate(() => [location.hash, scrollY, window.name]), ['', 0, '']);
  assert.deepEqual(again.workers(), [], 'the last document\'s worker is gone');
  assert.equal(again.listenerCount('dialog'), 0, 'the last test\'s dialog listener is gone');
  // The harness's own listeners stay: the new document's error is in its problems, its requests listed.
  assert.deepEqual(again.problems, ['console error: planted error']);
  assert.ok(again.requests.includes(`${a.url}plant.html?err`) && again.requests.includes(`${b.url}plant.html`), again.requests.join('\n'));
  await again.closeAll();
});

test('a page whose context a test changed for good, or that opened another, is closed, not reused; the harness\'s init script is removed', async () => {
  const granted = await openUrl(h, `${a.url}plant.html`, { waitForResult: false, reuse: true });
  await granted.context().grantPermissions(['clipboard-read']);
  await granted.closeAll();
  assert.ok(granted.isClosed(), 'a context with permissions granted is closed');

  const opener = await openUrl(h, `${a.url}plant.html`, { waitForResult: false, reuse: true });
  const [popup] = await Promise.all([opener.waitForEvent('popup'), opener.evaluate((u) => { window.open(u); }, `${b.url}plant.html`)]);
  await opener.closeAll();
  assert.ok(opener.isClosed() && popup.isClosed(), 'a context with a popup open is closed');

  const withInit = await openUrl(h, `${a.url}plant.html`, { waitForResult: false, reuse: true, init: () => { window.planted = 1; } });
  assert.equal(await withInit.evaluate(() => window.planted), 1, 'the init script ran');
  await withInit.closeAll();
  const fresh = await openUrl(h, `${a.url}plant.html`, { waitForResult: false, reuse: true });
  assert.ok(![granted, opener].includes(fresh));
  assert.equal(fresh, withInit, 'the page opened with an init script was reused');
  assert.equal(await fresh.evaluate(() => window.planted), undefined, 'without its init script');
  await fresh.closeAll();
  const own = await openUrl(h, `${a.url}plant.html`, { waitForResult: false, reuse: false });
  assert.notEqual(own, fresh, 'reuse: false gets a new context');
  await own.closeAll();
  assert.ok(own.isClosed(), 'and closes it');
  const last = await openUrl(h, `${a.url}plant.html`, { waitForResult: false, reuse: true });
  assert.equal(last, fresh, 'a clean page is reused');
  await last.closeAll();
  await last.closeAll(); // twice (a finally and an after): set aside once, for one open only
  const one = await openUrl(h, `${a.url}plant.html`, { waitForResult: false, reuse: true });
  const two = await openUrl(h, `${a.url}plant.html`, { waitForResult: false, reuse: true });
  assert.ok(one === last && two !== last, 'a page closed twice was given to two opens');
  await one.closeAll();
  await two.closeAll();
});

test('a load that a reload cuts short is not a problem; a failed load is', async () => {
  const page = await openUrl(h, `${a.url}plant.html`, { waitForResult: false });
  // The slow image is still loading when the reload replaces its document.
  await page.route('**/slow.svg', async (route) => { await new Promise((r) => setTimeout(r, 3000)); await route.fulfill({ body: '<svg/>', contentType: 'image/svg+xml' }).catch(() => {}); });
  await page.route('**/broken.svg', (route) => route.abort('failed'));
  const asked = page.waitForRequest('**/slow.svg'); // before the image asks: its request may come before evaluate() returns
  await page.evaluate(() => { const img = new Image(); img.src = 'slow.svg'; document.body.append(img); });
  await asked;
  await page.reload();
  assert.deepEqual(page.problems, []);
  await page.evaluate(async () => {
    const img = new Image(); img.src = 'broken.svg'; document.body.append(img);
    await new Promise((resolve) => { img.onerror = resolve; });
  });
  assert.equal(page.problems.filter((p) => /broken\.svg \(net::ERR_FAILED\)/.test(p)).length, 1, page.problems.join('\n'));
  await page.closeAll();
});
