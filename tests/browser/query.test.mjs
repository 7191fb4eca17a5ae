// "Follow one query" (issue 11, the page): a click or Enter on a cell of the large map fills the panel
// with the numbers of the API's own trace, computed here in Node from the same hash (a layer built
// independently of the page's worker); the weights shown sum to 1 (or the dropout-scaled total), the
// output row is the output table's row, masked and dropped keys say so, and the selection is in the hash.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, screenshot } from './harness.mjs';
import { traceFor, weightAt } from './reference.mjs';
import { fromHash, toHash } from '../../web/src/model/schema.js';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

/** What the panel shows: its selection, every vector's numbers, the softmax table, the facts. */
const readPanel = (page) => page.evaluate(() => {
  const panel = playgroundRoot().querySelector('[data-panel="query"] .query-content');
  const vec = (step, k = 0) => JSON.parse(panel.querySelectorAll(`[data-step="${step}"] .vec`)[k].dataset.values);
  const rows = [...panel.querySelectorAll('.query-row tbody tr')].map((tr) => ({
    key: +tr.dataset.key, weight: +tr.dataset.weight, state: tr.dataset.state, text: tr.textContent, highlighted: tr.classList.contains('hl'),
  }));
  return {
    at: { item: +panel.dataset.item, head: +panel.dataset.head, query: +panel.dataset.query, key: +panel.dataset.key },
    x: vec('vectors', 0), q: vec('vectors', 1), k: vec('vectors', 2),
    score: +panel.querySelector('[data-score]').dataset.score, logit: panel.querySelector('[data-logit]').textContent,
    rows, sum: +panel.querySelector('.attention-sum').dataset.sum, sumText: panel.querySelector('.attention-sum').textContent,
    head_output: [...panel.querySelectorAll('[data-step="values"] .vec')].map((v) => JSON.parse(v.dataset.values)).at(-1),
    concat: vec('output', 0), output: vec('output', 1),
    softmaxNote: panel.querySelector('[data-step="softmax"] .note').textContent,
    tableRows: [...playgroundRoot().querySelectorAll('#output-summary tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => +td.textContent)),
  };
});

const waitForPanel = (page, at) => page.waitForFunction((want) => {
  const d = playgroundRoot().querySelector('[data-panel="query"] .query-content')?.dataset;
  return d && +d.query === want.query && +d.key === want.key && +d.head === want.head && playgroundRoot().querySelector('[data-panel="query"] [data-step="output"]');
}, at, { timeout: 20000 });

const exact = (got, want, what) => assert.deepEqual(got, Array.from(want), `${what}: the panel's numbers are the trace's`);

test('clicking a cell fills the panel with the API trace’s numbers, the heatmap’s weight and the output table’s row', async () => {
  const hash = '#mask=causal&panels=controls,heatmaps,query';
  const page = await openPage(h, hash);
  const box = await page.locator('.heat-main canvas').boundingBox();
  // A click well inside the map (the readout says which cell it is).
  await page.mouse.click(box.x + box.width * 0.55, box.y + box.height * 0.6);
  const cell = await page.evaluate(() => ({ ...playgroundRoot().getElementById('readout').dataset }));
  const at = { item: 0, head: +cell.head, query: +cell.query, key: +cell.key };
  assert.ok(at.query > 0 && at.query < 7, `the click landed on an inner row: ${JSON.stringify(cell)}`);
  await waitForPanel(page, at);
  const shown = await readPanel(page);
  const { want, trace: t } = await traceFor(hash, at);
  const { d_k, d_v, n_k } = want.config;

  exact(shown.x, t.x, 'x_i');
  exact(shown.q, t.q, 'q_i');
  exact(shown.k, t.k.subarray(at.key * d_k, (at.key + 1) * d_k), 'k_j');
  assert.equal(shown.q.length, d_k, 'all d_k numbers of q_i are shown');
  assert.equal(shown.score, t.scores[at.key]);
  exact(shown.rows.map((r) => r.weight), t.weights, 'the row’s weights');
  assert.equal(shown.rows.find((r) => r.key === at.key).weight, +cell.weight, 'the heatmap’s weight of the cell');
  assert.equal(+cell.weight, weightAt(want, 0, at.head, at.query, at.key), 'the heatmap shows the forward pass’s weight');
  assert.ok(shown.rows.find((r) => r.key === at.key).highlighted, 'key j is highlighted');
  assert.ok(Math.abs(shown.sum - 1) < 1e-6, `the weights shown sum to 1: ${shown.sum}`);
  assert.equal(shown.sumText, '1.000000');
  // Causal: the keys after the query are masked, shown as −∞ → 0.
  for (const r of shown.rows) {
    assert.equal(r.state === 'masked', r.key > at.query, `key ${r.key}: ${r.state}`);
    if (r.key > at.query) assert.ok(r.text.includes('−∞') && r.weight === 0, r.text);
  }
  exact(shown.head_output, t.head_output, 'head row');
  assert.equal(shown.head_output.length, d_v);
  exact(shown.concat, t.concat, 'Concat row');
  exact(shown.output, t.output, 'output row');
  // The trace's output row is the forward pass's, and the output table's (4 decimals, first 8 columns).
  const d_model = want.config.d_model;
  exact(shown.output, want.output.subarray(at.query * d_model, (at.query + 1) * d_model), 'output row against forward');
  if (at.query < shown.tableRows.length) {
    shown.tableRows[at.query].forEach((v, col) => assert.ok(Math.abs(v - shown.output[col]) <= 5e-5, `output[${col}]: table ${v}, panel ${shown.output[col]}`));
  }
  assert.equal(n_k, shown.rows.length);
  // The selection went to the hash.
  const hashNow = await page.evaluate(() => location.hash);
  for (const [k, v] of Object.entries({ q_item: at.item, q_head: at.head, q_query: at.query, q_key: at.key })) assert.ok(hashNow.includes(`${k}=${v}`), `${k} in ${hashNow}`);
  // The scores view: the head's logits and weights with and without 1/√d_k, row i = the traces'.
  await page.waitForSelector('[data-panel="query"] [data-step="logits"]', { timeout: 20000 });
  const maps = await page.evaluate((i) => [...playgroundRoot().querySelectorAll('[data-panel="query"] .logit-pair')].map((pair) => ({
    scaled: pair.dataset.scaled,
    tables: [...pair.querySelectorAll('.logit-table')].map((table) => ({
      kind: table.dataset.kind, row: [...table.querySelectorAll('tbody tr')[i].querySelectorAll('td')].map((td) => ({ value: td.dataset.value, text: td.textContent })),
    })),
  })), at.query);
  const { trace: unscaled } = await traceFor(hash, at, { scale: false });
  const asNumbers = (row) => row.map((c) => (c.value === '-Infinity' ? -Infinity : +c.value));
  assert.deepEqual(maps.map((m) => m.scaled), ['1', '0']);
  exact(asNumbers(maps[0].tables[0].row), t.logits, 'scaled logits row');
  exact(asNumbers(maps[0].tables[1].row), t.weights, 'scaled weights row');
  exact(asNumbers(maps[1].tables[0].row), unscaled.logits, 'unscaled logits row');
  exact(asNumbers(maps[1].tables[1].row), unscaled.weights, 'unscaled weights row');
  assert.ok(maps[0].tables[0].row.slice(at.query + 1).every((c) => c.text === '−∞'), 'masked logits read −∞');
  await page.locator('[data-panel="query"]').screenshot({ path: `${(await import('./harness.mjs')).screenshotDir}/follow-query.png` });
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('Enter on a cell follows it; with dropout, dropped keys and the 1/(1−p) rescale are shown and the row sums to the scaled total', async () => {
  const hash = '#dropout=0.4&dropout_seed=3&n_heads=2&panels=controls,heatmaps,query';
  const page = await openPage(h, hash);
  await page.locator('.heat-main canvas').focus(); // the cursor starts at (0, 0)
  for (let k = 0; k < 2; k++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  const at = { item: 0, head: 0, query: 2, key: 1 };
  await waitForPanel(page, at);
  const shown = await readPanel(page);
  const { trace: t } = await traceFor(hash, at);
  exact(shown.rows.map((r) => r.weight), t.weights, 'weights after dropout');
  const dropped = shown.rows.filter((r) => r.state === 'dropped').map((r) => r.key);
  assert.deepEqual(dropped, [...t.dropped.keys()].filter((j) => t.dropped[j]), 'the dropped keys are the trace’s');
  assert.ok(dropped.length > 0, 'this seed drops some key (else the test proves nothing)');
  for (const r of shown.rows) if (r.state === 'dropped') assert.ok(r.text.includes('dropped → 0') && r.weight === 0, r.text);
  let total = 0;
  for (const w of t.weights) total += w;
  assert.ok(Math.abs(shown.sum - total) < 1e-9 && Math.abs(total - 1) > 1e-3, `the shown sum ${shown.sum} is the dropout-scaled total ${total}`);
  assert.ok(shown.softmaxNote.includes('1/(1 − p) = 1.6667'), shown.softmaxNote);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('the selection round-trips through the hash: a link opens the panel on that cell', async () => {
  const state = { ...fromHash(''), q_item: '0', q_head: '1', q_query: '4', q_key: '2' };
  assert.deepEqual(fromHash(toHash(state)), state);
  const hash = `${toHash(state)}&panels=controls,heatmaps,query`;
  const page = await openPage(h, hash);
  const at = { item: 0, head: 1, query: 4, key: 2 };
  await waitForPanel(page, at);
  const shown = await readPanel(page);
  const { trace: t } = await traceFor(hash, at);
  exact(shown.q, t.q, 'q_i from the link');
  // A bad index says so instead of drawing another cell.
  await page.evaluate(() => { location.hash = '#q_item=0&q_head=9&q_query=1&q_key=1&panels=controls,heatmaps,query'; });
  await page.waitForFunction(() => /q_head=9 is not in 0…3/.test(playgroundRoot().querySelector('[data-panel="query"] .panel-body').textContent), null, { timeout: 10000 });
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('another batch item with a padding mask, from a link: the trace of that item, its padded keys masked', async () => {
  const hash = '#source=random&batch=2&mask=padding&padding=8,5&q_item=1&q_head=2&q_query=3&q_key=6&panels=controls,heatmaps,query';
  const page = await openPage(h, hash);
  const at = { item: 1, head: 2, query: 3, key: 6 };
  await waitForPanel(page, at);
  const shown = await readPanel(page);
  const { trace: t } = await traceFor(hash, at);
  exact(shown.x, t.x, 'x_i of item 1');
  exact(shown.rows.map((r) => r.weight), t.weights, 'weights of item 1');
  assert.deepEqual(shown.rows.map((r) => r.state), ['', '', '', '', '', 'masked', 'masked', 'masked'], 'keys 5… are padding for item 1');
  assert.equal(shown.logit, '−∞', 'the chosen key 6 is masked: its logit is −∞');
  assert.ok(Math.abs(shown.sum - 1) < 1e-6, `sum ${shown.sum}`);
  exact(shown.output, t.output, 'output row of item 1');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});
