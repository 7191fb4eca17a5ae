// The labs' wasm module (attention_labs_simd / _scalar, engine/labs.js) in the built page: the default
// page's first view (chapter=attention) never asks for it, neither its wasm nor its loader, from the page
// or its workers, also once the lazy panels are built; a lab chapter loads it in the worker, and its
// panels show the labs' numbers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage } from './harness.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

/** The requests of the labs module, its wasm or its loader (any name with "labs" in its path). */
const labsRequests = (page) => page.requests.filter((u) => /labs/i.test(new URL(u).pathname));
const coreRequests = (page) => page.requests.filter((u) => /\/attention_(simd|scalar)\.wasm$/.test(new URL(u).pathname));

test('the default page\'s first view fetches no part of the labs module, also once its panels settle', async () => {
  const page = await openPage(h, '', { asIs: true }); // the page as a learner opens it: chapter=attention
  try {
    assert.ok(coreRequests(page).length >= 1, `the core module was not fetched: ${page.requests.join(', ')}`);
    // The lazy panels (the chapter's exercises at its first step, the query panel at its second), the
    // preset menu and the SIMD peak run after the first result: give them time, then look again.
    await page.waitForFunction(() => playgroundRoot().querySelector('[data-panel="exercises"] .panel-body')?.textContent.trim().length > 0,
      null, { timeout: 30000 });
    await page.evaluate(() => playgroundRoot().getElementById('step-next').click());
    await page.waitForFunction(() => playgroundRoot().querySelector('[data-panel="query"] .panel-body')?.textContent.trim().length > 0,
      null, { timeout: 30000 });
    // The preset menu is not in this chapter's form: it is not filled (its worked examples are the labs').
    await page.waitForTimeout(1500);
    assert.equal(await page.evaluate(() => playgroundRoot().querySelectorAll('#f-preset option').length), 1, 'the hidden preset menu was filled');
    assert.deepEqual(labsRequests(page), [], 'the first view fetched the labs module');
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});

test('a chapter whose form has the preset menu fills it with the worked examples, recomputed in the labs module', async () => {
  const page = await openPage(h, '#chapter=cost', { asIs: true, waitForResult: false });
  try {
    await page.waitForFunction(() => playgroundRoot().querySelector('#f-preset option[value="example:E1"]'), null, { timeout: 60000 });
    const menu = await page.evaluate(() => [...playgroundRoot().querySelectorAll('#f-preset optgroup')].map((g) => [g.label, g.children.length]));
    assert.deepEqual(menu.map(([, n]) => n), [5, 7], `the menu's groups: ${JSON.stringify(menu)}`);
    assert.ok(labsRequests(page).some((u) => /attention_labs_(simd|scalar)\.wasm$/.test(new URL(u).pathname)), 'the examples came without the labs module');
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});

test('worked examples that cannot be computed (the labs module refused) are said so, in the panel and the menu, and come on Try again', async () => {
  const page = await openPage(h, '', { asIs: true });
  try {
    // Refused from now on: the examples panel and the preset menu (no lab panel beside them) then ask for it.
    await page.route(/attention_labs_(simd|scalar)\.(wasm|mjs)/, (route) => route.fulfill({ status: 503, body: 'down' }));
    await page.evaluate(() => { location.hash = '#panels=controls,examples'; });
    const alert = '[data-panel="examples"] p.placeholder[role="alert"]';
    await page.waitForFunction((s) => playgroundRoot().querySelector(s), alert, { timeout: 30000 });
    assert.match(await page.evaluate((s) => playgroundRoot().querySelector(s).textContent, alert), /^The worked examples could not be computed: .+Try again$/);
    await page.waitForFunction(() => playgroundRoot().querySelector('#f-preset option[disabled]'));
    assert.match(await page.evaluate(() => playgroundRoot().querySelector('#f-preset option[disabled]').textContent), /could not be computed/);
    assert.equal(await page.evaluate(() => playgroundRoot().querySelectorAll('#f-preset option[value^="model:"]').length), 7, 'the models stay in the menu');
    // A redraw does not ask again (it would fetch the labs on every edit): only Try again does.
    const asked = labsRequests(page).length;
    await page.evaluate(() => { location.hash = `${location.hash}&d_model=32`; });
    await page.waitForTimeout(800);
    assert.equal(labsRequests(page).length, asked, 'an edit asked for the labs again');
    await page.unroute(/attention_labs_(simd|scalar)\.(wasm|mjs)/);
    await page.evaluate(() => [...playgroundRoot().querySelectorAll('[data-panel="examples"] button')].find((b) => b.textContent === 'Try again').click());
    await page.waitForFunction(() => playgroundRoot().querySelector('[data-panel="examples"] [data-example="P4"]'), null, { timeout: 30000 });
    // The menu asks again when the learner reaches for it.
    await page.evaluate(() => playgroundRoot().getElementById('f-preset').dispatchEvent(new FocusEvent('focus')));
    await page.waitForFunction(() => playgroundRoot().querySelector('#f-preset option[value="example:E1"]'));
    assert.equal(await page.evaluate(() => playgroundRoot().querySelectorAll('#f-preset option[disabled]').length), 0);
    // The refused requests are the only problems the page logged.
    assert.deepEqual(page.problems.filter((p) => !/503|Failed to load|labs/i.test(String(p))), []);
  } finally {
    await page.closeAll();
  }
});

test('the efficient chapter loads the labs module (wasm and loader) in the worker, and its panels show the labs\' numbers', async () => {
  const page = await openPage(h, '#chapter=efficient', { asIs: true, waitForResult: false });
  try {
    await page.waitForFunction(() => playgroundRoot().querySelector('#flash-tile')?.dataset.args, null, { timeout: 60000 });
    const paths = labsRequests(page).map((u) => new URL(u).pathname.split('/').pop());
    assert.ok(paths.includes('attention_labs_simd.wasm') || paths.includes('attention_labs_scalar.wasm'), `no labs wasm fetched: ${paths}`);
    assert.ok(paths.some((p) => /^attention_labs_(simd|scalar)\.mjs$/.test(p)), `no labs loader fetched: ${paths}`);
    // The labs' JavaScript comes from beside their wasm (dist/wasm/labs_session.js), not a fallback.
    assert.ok(labsRequests(page).some((u) => new URL(u).pathname.endsWith('/wasm/labs_session.js')), `the labs' code was not fetched from wasm/: ${paths}`);
    const tile = await page.evaluate(() => ({ ...playgroundRoot().querySelector('#flash-tile').dataset }));
    assert.ok(Number.isFinite(Number(tile.m)) || tile.m === '-Infinity', `the flash panel's tile shows no running max: ${JSON.stringify(tile)}`);
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});

test('the training chapter trains in the labs module and loads its layer into the playground', async () => {
  const page = await openPage(h, '#chapter=training', { asIs: true, waitForResult: false });
  try {
    await page.waitForFunction(() => Number(playgroundRoot().getElementById('train-status')?.dataset.steps) === 0, null, { timeout: 60000 });
    await page.click('#train-play');
    await page.waitForFunction(() => Number(playgroundRoot().getElementById('train-status')?.dataset.steps) >= 20, null, { timeout: 60000 });
    await page.click('#train-play');
    assert.ok(labsRequests(page).some((u) => new URL(u).pathname.endsWith('.wasm')), 'the labs wasm was not fetched');
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});
