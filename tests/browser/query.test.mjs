// "Follow one query" (issue 11, the page): a click or Enter on a cell of the large map fills the panel
// with the numbers of the API's own trace, computed here in Node from the same hash (a layer built
// independently of the page's worker); the weights shown sum to 1 (or the dropout-scaled total), the
// output row is the output table's row, masked and dropped keys say so, and the selection is in the hash.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, screenshot, POLL_MS } from './harness.mjs';
import { traceFor, weightAt } from './reference.mjs';
import { fromHash, toHash } from '../../web/src/model/schema.js';
import { validate } from '../../web/src/model/validate.js';
import { LayerCache, prepareRun, forwardArguments } from '../../web/src/model/job.js';
import { engine } from './reference.mjs';

/** The API's trace for a hash whose heads are built (setHeadPatterns, as the page's model prepares the layer). */
async function builtTrace(hash, at) {
  const attn = await engine();
  const check = validate(fromHash(hash), { resolveView: attn.resolveView, analyze: attn.analyze, budget: attn.defaultMemoryBudget });
  const { layer, inputs } = prepareRun(attn, check.config, new LayerCache(), null);
  return layer.trace({ ...forwardArguments(check.config, inputs), item: at.item, head: at.head, query_index: at.query });
}

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
}, at, { timeout: 20000, polling: POLL_MS });

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
  // The scores view: the head's logits and weights with and without 1/√d_k, row i = the traces'. It sits
  // in its own fold, asked for when that fold opens.
  await page.click('[data-panel="query"] details[data-stage="head"] > summary');
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
  await screenshot(page, 'follow-query', { of: page.locator('[data-panel="query"]') });
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
  await page.waitForFunction(() => /q_head=9 is not in 0…3/.test(playgroundRoot().querySelector('[data-panel="query"] .panel-body').textContent), null, { timeout: 10000, polling: POLL_MS });
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

/** The stages' folds: [name, open] in order, and how tall the panel is. */
// The stages open now, after the 'toggle' events the browser queues for a task after a fold opens (the one
// that folds the others) have run: a short wait for that state, then the state as it is.
const openNow = async (page, want) => {
  await page.waitForFunction((w) => JSON.stringify([...playgroundRoot().querySelectorAll('[data-panel="query"] details.query-stage')]
    .filter((d) => d.open).map((d) => d.dataset.stage)) === w, JSON.stringify(want), { timeout: 15000 }).catch(() => {});
  return (await folds(page)).open.filter(([, o]) => o).map(([n]) => n);
};
const folds = (page) => page.evaluate(() => {
  const panel = playgroundRoot().querySelector('[data-panel="query"]');
  return { open: [...panel.querySelectorAll('details.query-stage')].map((d) => [d.dataset.stage, d.open]), height: panel.getBoundingClientRect().height };
});

test('follow one query by stages: one open at a time (click, Enter, Next), each with the trace\'s numbers; the zeros and the first row explained', async () => {
  for (const width of [1280, 375]) {
    const hash = '#heads=previous,same_word,first_token,&q_item=0&q_head=0&q_query=0&q_key=1&panels=controls,heatmaps,query';
    const page = await openPage(h, hash, { width });
    const at = { item: 0, head: 0, query: 0, key: 1 };
    await waitForPanel(page, at);
    const t = await builtTrace(hash, at);
    const names = ['dot', 'scale', 'mask', 'max', 'exp', 'sum', 'weights', 'output', 'head'];
    let f = await folds(page);
    assert.deepEqual(f.open, names.map((n) => [n, n === 'dot']), 'the first stage alone is open');
    await screenshot(page, `follow-query-stage-dot-${width}`, { of: page.locator('[data-panel="query"]') });
    // Each stage's numbers are the trace's (the rows of n_k numbers carry the values they show).
    const row = (step) => page.evaluate((s) => [...playgroundRoot().querySelectorAll(`[data-panel="query"] table[data-step="${s}"] td`)].map((td) => Number(td.dataset.value)), step);
    exact(await row('scores'), t.scores, 'scores');
    exact(await row('scaled'), t.scaled, 'scaled scores (before the mask)');
    exact(await row('logits-row'), t.logits, 'logits');
    exact(await row('exp'), t.exp, 'exp(logit − max)');
    const said = await page.evaluate(() => ({ max: Number(playgroundRoot().querySelector('[data-panel="query"] [data-max]').dataset.max),
      sum: Number(playgroundRoot().querySelector('[data-panel="query"] p[data-sum]').dataset.sum),
      zeros: playgroundRoot().querySelector('[data-panel="query"] .query-zeros')?.textContent ?? '',
      firstRow: playgroundRoot().querySelector('[data-panel="query"] .query-first-row')?.textContent ?? '' }));
    assert.equal(said.max, t.max);
    assert.equal(said.sum, t.sum);
    // Head 1 is built to look at the previous token: most of q is 0, and the words say why with the counts.
    const zeros = Array.from(t.q).filter((v) => v === 0).length;
    assert.ok(zeros > 0, 'the built head has zeros in q');
    assert.match(said.zeros, new RegExp(`^${zeros} of the ${t.q.length} numbers of q are 0\\. Head 1 was built, not trained, to look at the previous token: .* coordinates`));
    // Query 0 has no previous token: the words name the key with the largest weight and that weight.
    const best = Array.from(t.weights).indexOf(Math.max(...t.weights));
    assert.match(said.firstRow, new RegExp(`^Query 0 .*has no previous token.* key ${best} .*gets ${t.weights[best].toFixed(2)}`));
    // Mouse: opening a stage folds the others.
    await page.click('[data-panel="query"] details[data-stage="exp"] > summary');
    assert.deepEqual(await openNow(page, ['exp']), ['exp']);
    // Keyboard: Enter on a summary opens it; "Next" opens the next stage and moves the focus to its title.
    await page.focus('[data-panel="query"] details[data-stage="max"] > summary');
    await page.keyboard.press('Enter');
    assert.deepEqual(await openNow(page, ['max']), ['max']);
    await page.focus('[data-panel="query"] details[data-stage="max"] .stage-next');
    await page.keyboard.press('Enter');
    assert.deepEqual(await openNow(page, ['exp']), ['exp']);
    assert.equal(await page.evaluate(() => playgroundRoot().activeElement?.closest('details')?.dataset.stage), 'exp');
    // The biggest stage open (the softmax table) keeps the panel short: every stage open at once would be taller.
    await page.click('[data-panel="query"] details[data-stage="weights"] > summary');
    const one = (await folds(page)).height;
    const all = await page.evaluate(() => {
      const ds = [...playgroundRoot().querySelectorAll('[data-panel="query"] details.query-stage')];
      ds.forEach((d) => d.setAttribute('open', ''));
      const height = playgroundRoot().querySelector('[data-panel="query"]').getBoundingClientRect().height;
      ds.forEach((d, k) => { if (k) d.removeAttribute('open'); });
      return height;
    });
    assert.ok(one < all / 2, `one stage open: ${one} px, all: ${all} px`);
    await page.click('[data-panel="query"] details[data-stage="weights"] > summary');
    await screenshot(page, `follow-query-stages-${width}`, { of: page.locator('[data-panel="query"]') });
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  }
});
