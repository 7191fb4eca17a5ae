// The lazy panels' own bundle (dist/panels.js): the registry and lazy.js agree on which panels it holds;
// the page fetches it only once a lazy panel is shown, after the first result, and once however many
// panels need it; when it cannot be fetched, those panels say why and the first view still works.
// Also: the worker's error classes are recognised across the two bundles' copies of errors.js.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PANELS } from '../../web/src/panels/registry.js';
import { LAZY_PANELS } from '../../web/src/panels/lazy.js';
import { startHarness, openPage, newContext, resultReady } from './harness.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

test('every lazy panel of the registry has its create in lazy.js, and only those', () => {
  const lazy = PANELS.filter((p) => p.lazy).map((p) => p.name).sort();
  assert.deepEqual(Object.keys(LAZY_PANELS).sort(), lazy);
  for (const p of PANELS) {
    if (p.lazy) assert.equal(p.create, undefined, `${p.name}: a lazy panel's create belongs in lazy.js, not in the first view's bundle`);
    else assert.equal(typeof p.create, 'function', `${p.name}: a first-view panel needs its create in the registry`);
  }
});

test('Cancelled and WorkerLost made by one copy of errors.js are recognised by another copy', async () => {
  const a = await import('../../web/src/worker/errors.js');
  const b = await import('../../web/src/worker/errors.js?second-copy');
  assert.notEqual(a.Cancelled, b.Cancelled, 'two module instances, as in two bundles');
  assert.ok(new a.Cancelled() instanceof b.Cancelled);
  assert.ok(new b.WorkerLost('gone') instanceof a.WorkerLost);
  assert.ok(!(new a.Cancelled() instanceof b.WorkerLost), 'a cancel is not a lost worker');
  assert.ok(!(new Error('cancelled') instanceof a.Cancelled), 'a plain Error is neither');
  assert.ok(!({ name: 'Cancelled' } instanceof a.Cancelled), 'an object that is not an Error is neither');
  assert.ok(new a.Cancelled() instanceof Error);
});

const panelsRequests = (page) => page.requests.filter((u) => new URL(u).pathname.endsWith('/panels.js'));

test('the first view alone fetches no panels.js; showing a lazy panel fetches it once, and the panel draws', async () => {
  const page = await openPage(h, '#panels=controls,heatmaps');
  try {
    assert.deepEqual(panelsRequests(page), [], 'panels.js was fetched for a view without lazy panels');
    await page.evaluate(() => { location.hash = 'panels=controls,heatmaps,query,shapes'; });
    await resultReady(page);
    await page.waitForFunction(() => playgroundRoot().querySelector('[data-panel="shapes"] .panel-body')?.textContent.includes('Q'));
    assert.equal(panelsRequests(page).length, 1, panelsRequests(page).join(', '));
    const errors = await page.evaluate(() => [...playgroundRoot().querySelectorAll('.panel-error')].filter((e) => !e.hidden).map((e) => e.textContent));
    assert.deepEqual(errors, []);
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});

test('the default view fetches panels.js once, after its first result is drawn', async () => {
  const page = await openPage(h, '');
  try {
    assert.equal(panelsRequests(page).length, 1, panelsRequests(page).join(', '));
    const { fetchedAt, firstResultAt } = await page.evaluate(() => ({
      fetchedAt: performance.getEntriesByType('resource').find((e) => e.name.endsWith('/panels.js'))?.startTime,
      firstResultAt: performance.getEntriesByName('attention-first-result')[0]?.startTime,
    }));
    assert.ok(fetchedAt >= firstResultAt, `panels.js was requested at ${fetchedAt} ms, before the first result (${firstResultAt} ms)`);
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});

test('when panels.js cannot be fetched, the lazy panels say so and the first view still runs', async () => {
  const context = await newContext(h, { viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  try {
    await page.route('**/panels.js', (route) => route.fulfill({ status: 404, body: 'not here' }));
    await page.goto(`${h.url}#panels=controls,heatmaps,shapes`);
    await resultReady(page);
    const shapes = await page.evaluate(() => {
      const error = playgroundRoot().querySelector('[data-panel="shapes"] .panel-error');
      return { hidden: error?.hidden, text: error?.textContent ?? '' };
    });
    assert.equal(shapes.hidden, false, 'the shapes panel shows no error');
    assert.match(shapes.text, /could not be drawn: its code \(panels\.js\) could not be loaded from http:\/\/127\.0\.0\.1:\d+\/.*Reload the page to try again\.$/);
    const status = await page.evaluate(() => playgroundRoot().getElementById('status').textContent);
    assert.match(status, /^Ran in/);
  } finally {
    await context.close();
  }
});
