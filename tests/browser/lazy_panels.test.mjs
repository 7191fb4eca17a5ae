// The lazy panels' own bundle (dist/panels.js): the features' table and lazy.js agree on which panels it holds;
// the page fetches it only once a lazy panel is shown, after the first result, and once however many
// panels need it; when it cannot be fetched, those panels say why and the first view still works.
// Also: the compute's error classes (model/errors.js) are recognised across the two bundles' copies of errors.js.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { FEATURES } from '../../web/src/features/index.js';
import { loadPanel } from '../../web/src/features/lazy.js';
import { startHarness, openPage, openUrl, newContext, resultReady } from './harness.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

test('every folder of web/src/features is a row of the table, and every lazy row\'s panel loads through lazy.js', async () => {
  const folders = (await readdir(new URL('../../web/src/features/', import.meta.url), { withFileTypes: true }))
    .filter((e) => e.isDirectory()).map((e) => e.name).sort();
  assert.deepEqual(folders, FEATURES.map((f) => f.name).sort(), 'a feature folder without a row, or a row without a folder');
  for (const f of FEATURES) {
    if (f.lazy) {
      assert.equal(f.panel, undefined, `${f.name}: a lazy panel belongs in panels.js, not in the first view's bundle`);
      assert.equal(typeof (await loadPanel(f.name)).create, 'function', `${f.name}: panel.js exports create`);
    } else {
      assert.equal(typeof f.panel?.create, 'function', `${f.name}: a first-view panel needs its module in the table`);
    }
  }
  await assert.rejects(loadPanel('nothing'), /panels\.js has no panel “nothing”/);
  await assert.rejects(loadPanel('../index'), /“\.\.\/index” is not a feature name/);
});

test('Cancelled and WorkerLost made by one copy of errors.js are recognised by another copy', async () => {
  const a = await import('../../web/src/model/errors.js');
  const b = await import('../../web/src/model/errors.js?second-copy');
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

test('where no worker can start, a panel\'s request is answered on the page\'s thread by its handler from panels.js', async () => {
  const page = await openUrl(h, `${h.url}#panels=controls,heatmaps,compare`, { init: () => { delete window.Worker; } });
  try {
    await page.waitForFunction(() => playgroundRoot().querySelectorAll('#compare-metrics tr[data-head]').length === 4, null, { timeout: 30000 });
    const badge = await page.evaluate(() => playgroundRoot().querySelector('#engine-badge').textContent);
    assert.match(badge, /on this page’s thread/, 'the worker started after all');
    const entropies = await page.evaluate(() => [...playgroundRoot().querySelectorAll('#compare-metrics tr[data-head]')].map((tr) => Number(tr.dataset.entropy)));
    assert.ok(entropies.every((e) => e > 0 && Number.isFinite(e)), String(entropies));
    // panels.js was fetched once: for the panel and, on this thread, for its handler.
    assert.equal(panelsRequests(page).length, 1, panelsRequests(page).join(', '));
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});

test('the built first view holds no lazy panel and no feature handler; the worker holds handlers and no panel', async () => {
  const { readFile } = await import('node:fs/promises');
  const built = (name) => readFile(new URL(`../../dist/${name}`, import.meta.url), 'utf8');
  // esbuild names each file a glob import can load by its path ("./<name>/panel.js", "./<name>/handler.js").
  const has = (text, pattern) => pattern.test(text); // (a boolean: a failing match would print the whole bundle)
  for (const bundle of ['attention-playground.js', 'page.js']) {
    const text = await built(bundle);
    assert.ok(!has(text, /\/handler\.js"/), `${bundle} bundles a feature handler`);
    assert.ok(!has(text, /\/panel\.js"/), `${bundle} bundles the lazy panels`);
  }
  const worker = await built('worker.js');
  assert.ok(has(worker, /"\.\/performance\/handler\.js"/), 'worker.js lacks the performance handler');
  assert.ok(!has(worker, /\/panel\.js"/), 'worker.js bundles panels');
  const panels = await built('panels.js');
  for (const f of FEATURES.filter((row) => row.lazy)) assert.ok(has(panels, new RegExp(`"\\./${f.name}/panel\\.js"`)), `panels.js lacks ${f.name}`);
});
