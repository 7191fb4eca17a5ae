// The notebook widget: dist/attention-playground.js's default export, { render({ model, el }) }, driven
// by a stand-in for an anywidget model (get, set, on/off('change:key'), save_changes) on a page of
// another origin, as a notebook front end would load it. It renders the model's view, follows changes
// made on the kernel's side, writes the learner's edits back in the model's own types, and cleans up.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { zipSync } from 'fflate';
import { startHarness, serveSite, openUrl, notebookPage } from './harness.mjs';
import { writeNpy } from '../../web/src/export/npy.js';

let h, site;

/** The notebook cell: the widget with a stand-in anywidget model (harness.mjs's notebookPage). */
const notebook = (a) => notebookPage(a, { d_model: 32, n_heads: 2, source: 'random', n_q: 6, bias: true, panels: 'controls,heatmaps', mask: 'causal' });

before(async () => {
  h = await startHarness();
  site = await serveSite({ 'notebook.html': notebook(h.url) });
});
after(async () => { await site?.close(); await h?.close(); });

const ran = (page) => page.locator('#cell .status', { hasText: 'Ran in' }).waitFor({ timeout: 30000 });

test('anywidget render: draws the model’s view, follows change: events, writes edits back, cleans up', async () => {
  const page = await openUrl(h, `${site.url}notebook.html`, { waitForResult: false });
  await ran(page);
  assert.equal(await page.locator('#cell .heat-small').count(), 2, 'n_heads from the model (a number)');
  assert.equal(await page.inputValue('#cell [name="d_model"]'), '32');
  assert.equal(await page.inputValue('#cell select[name="mask"]'), 'causal');

  // The kernel changes n_heads: the view follows.
  await page.evaluate(() => window.model.fromKernel('n_heads', 4));
  await page.waitForFunction(() => document.querySelector('#cell div').shadowRoot.querySelectorAll('.heat-small').length === 4);
  await ran(page);

  // The learner edits: the model gets the values in its own types, and is saved.
  await page.fill('#cell [name="d_model"]', '48');
  await page.waitForFunction(() => window.model.get('d_model') === 48);
  await page.click('#cell [name="bias"]');
  await page.waitForFunction(() => window.model.get('bias') === false);
  const saved = await page.evaluate(() => window.model.saved.map((s) => [s.d_model, s.bias]));
  assert.deepEqual(saved.at(-1), [48, false]);
  // A half-typed number is not written into a number trait.
  await page.fill('#cell [name="d_model"]', '');
  await page.waitForTimeout(100);
  assert.equal(await page.evaluate(() => window.model.get('d_model')), 48);

  // The cleanup function removes the view and every listener it added to the model.
  assert.ok(await page.evaluate(() => window.model.listenerCount()) > 0);
  await page.evaluate(() => window.cleanup());
  assert.equal(await page.evaluate(() => window.model.listenerCount()), 0);
  assert.equal(await page.evaluate(() => document.getElementById('cell').childElementCount), 0);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('loaded as text from a blob: (a notebook given a file path), the widget says what to do, and runs with `assets`', async (t) => {
  const page = await openUrl(h, `${site.url}notebook.html`, { waitForResult: false });
  await ran(page);
  await page.evaluate(async (base) => {
    const source = await (await fetch(`${base}attention-playground.js`)).text();
    const { default: widget } = await import(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
    const model = (data) => ({ data, get: (k) => data[k], set() {}, on() {}, off() {}, save_changes() {} });
    const place = (id) => document.body.appendChild(Object.assign(document.createElement('div'), { id }));
    widget.render({ model: model({ panels: 'heatmaps', n_heads: 2 }), el: place('lost') });
    widget.render({ model: model({ panels: 'heatmaps', n_heads: 2, assets: base }), el: place('found') });
  }, h.url);
  await page.locator('#lost .status', { hasText: 'cannot find its wasm and worker' }).waitFor();
  assert.match(await page.locator('#lost .status').textContent(), /load attention-playground\.js by its URL, or give the folder that holds it as `assets`/);
  await page.locator('#found .status', { hasText: /Ran in|could not start/ }).waitFor({ timeout: 30000 });
  const found = await page.locator('#found .status').textContent();
  assert.match(found, /^Ran in/);
  assert.equal(await page.locator('#found .heat-small').count(), 2);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('a notebook that hands tensors to a widget whose engine cannot start is told so under the view, not left waiting', async () => {
  const page = await openUrl(h, `${site.url}notebook.html`, {
    waitForResult: false,
    init: () => { WebAssembly.instantiateStreaming = WebAssembly.compileStreaming = WebAssembly.instantiate = () => Promise.reject(new Error('blocked by the test')); },
  });
  const attention = { shape: [1, 2, 6, 6], data: new Float32Array(72).fill(1 / 6) };
  const npz = zipSync({ 'attention.npy': writeNpy(attention, 'attention') });
  await page.evaluate((bytes) => window.model.fromKernel('tensors', new Uint8Array(bytes)), [...npz]);
  const refusal = page.locator('#cell .import-error');
  await refusal.waitFor({ timeout: 30000 });
  assert.match(await refusal.textContent(), /could not start: .*blocked by the test/);
  await page.closeAll();
});
