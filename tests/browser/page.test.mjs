// The page in headless Chromium: it loads and runs, sizes set through the controls and the URL take
// effect, the numbers shown equal the JS API's for the same seed, heatmaps draw, the examples show ✓.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, resultReady, screenshot } from './harness.mjs';
import { expectedFor, weightAt } from './reference.mjs';

let h;
// The default view, opened fresh by the first test; the two tests after it start from it (hovering, the
// requests) and go on on that page instead of opening it again.
let defaultPage = null;
const defaultView = async () => (defaultPage ??= await openPage(h, ''));
before(async () => { h = await startHarness(); });
after(async () => { await defaultPage?.closeAll(); await h?.close(); });

const TOLERANCE = 1e-6; // same wasm in Node and Chromium: the values agree to the last bit in practice

function assertClose(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: ${actual.length} values, expected ${expected.length}`);
  actual.forEach((v, i) => assert.ok(Math.abs(v - expected[i]) <= TOLERANCE * Math.max(1, Math.abs(expected[i])),
    `${what}[${i}]: page ${v}, API ${expected[i]}`));
}

/** What the page shows: output's first row and sums, each head's first row of weights, head count. */
async function shown(page) {
  return page.evaluate(() => {
    const out = playgroundRoot().getElementById('output-summary').dataset;
    return {
      row0: JSON.parse(out.row0), sum: Number(out.sum), item: Number(out.item),
      heads: [...playgroundRoot().querySelectorAll('.heat-small')].map((f) => JSON.parse(f.dataset.row0)),
      isa: playgroundRoot().getElementById('run-facts')?.dataset.isa,
    };
  });
}

async function compareWithApi(page, hash, { simd } = {}) {
  const want = await expectedFor(hash, { simd });
  const got = await shown(page);
  const c = want.config;
  const b = got.item;
  const row0 = Array.from(want.output.subarray(b * c.n_q * c.d_model, b * c.n_q * c.d_model + Math.min(8, c.d_model)));
  assertClose(got.row0, row0, 'output row 0');
  assert.ok(Math.abs(got.sum - want.sum) <= 1e-6 * Math.max(1, Math.abs(want.sum)), `output sum: page ${got.sum}, API ${want.sum}`);
  assert.equal(got.heads.length, c.n_heads, 'one heatmap per head');
  got.heads.forEach((weights, head) => {
    const expected = Array.from({ length: Math.min(8, c.n_k) }, (_, j) => weightAt(want, b, head, 0, j));
    assertClose(weights, expected, `head ${head + 1} weights of query 0`);
  });
  return { want, got };
}

test('the default view loads, runs by itself and matches the API', async () => {
  const page = defaultPage = await openPage(h, '');
  const firstMs = Number(await page.evaluate(() => document.body.dataset.firstResultMs));
  const sinceNavigation = await page.evaluate(() => performance.getEntriesByName('attention-first-result')[0]?.startTime);
  console.log(`load to first result (default view): ${sinceNavigation.toFixed(0)} ms after navigation start, ${firstMs.toFixed(0)} ms after main.js started`);
  assert.ok(sinceNavigation > 0);
  await compareWithApi(page, '');
  // The default sentence puts its words on the axes of the enlarged map's readout.
  assert.match(await page.textContent('#engine-badge'), /WebAssembly SIMD/);
  await screenshot(page, 'default-view');
  assert.deepEqual(page.problems, []);
});

test('hovering a cell reads the same weight the API computes', async () => {
  const page = await defaultView();
  const want = await expectedFor('');
  const box = await page.locator('.heat-main canvas').boundingBox();
  // Walk the pointer across the canvas until it lands on a cell, then compare that cell's weight.
  let read = null;
  for (let f = 0.5; f < 0.98 && !read; f += 0.05) {
    await page.mouse.move(box.x + box.width * f, box.y + box.height * f);
    read = await page.evaluate(() => {
      const d = playgroundRoot().getElementById('readout').dataset;
      return d.weight === undefined ? null : { head: +d.head, i: +d.query, j: +d.key, weight: +d.weight };
    });
  }
  assert.ok(read, 'the readout shows a cell');
  const expected = weightAt(want, 0, read.head, read.i, read.j);
  assert.ok(Math.abs(read.weight - expected) < TOLERANCE, `cell (${read.i}, ${read.j}): page ${read.weight}, API ${expected}`);
  assert.deepEqual(page.problems, []);
});

test('nothing is requested from anywhere but the page’s own server', async () => {
  const page = await defaultView();
  await page.waitForSelector('.katex'); // the equations are typeset by the local KaTeX
  await page.click('#sweep');
  await page.waitForSelector('#sweep-chart canvas', { timeout: 60000 });
  const foreign = page.requests.filter((u) => !u.startsWith(h.url) && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(foreign, []);
  assert.ok(page.requests.some((u) => u.endsWith('.woff2')), 'KaTeX fonts come from dist/vendor');
  assert.deepEqual(page.problems, []);
});

test("the lesson's worked examples are computed live and show ✓; a click loads one", async () => {
  // The panels it reads: the examples, and what a loaded one changes (the form, the maps, the shapes, the
  // cost). On the page with every panel, each example loaded ran all 26 panels at its sizes (E1: d_model
  // 768, 12 heads, 128 tokens) for nothing read here.
  await defaultPage?.closeAll();
  defaultPage = null;
  const page = await openPage(h, '#panels=controls,heatmaps,examples,shapes,cost');
  await page.waitForSelector('.example');
  const examples = await page.$$eval('.example', (els) => els.map((e) => ({ id: e.dataset.example, ok: e.dataset.ok, text: e.textContent })));
  assert.deepEqual(examples.map((e) => e.id), ['E1', 'E2', 'E3', 'P1', 'P4']);
  for (const e of examples) assert.equal(e.ok, '1', `${e.id} matches the lesson`);
  const marks = await page.$$eval('.example .mark.ok', (els) => els.length);
  assert.ok(marks >= 30, `${marks} figures marked ✓`);
  // E2's figure and E3's lesson-versus-exact note are on the page.
  assert.ok(examples[1].text.includes('1,048,576'));
  assert.match(examples[2].text, /137\.4B/);
  assert.match(examples[2].text, /four projections/);

  await page.click('[data-example="E1"] button');
  await resultReady(page);
  assert.equal(await page.inputValue('input[name="d_model"]'), '768');
  assert.equal(await page.inputValue('input[name="n_heads"]'), '12');
  assert.equal(await page.inputValue('input[name="n_q"]'), '128');
  assert.equal(await page.locator('.heat-small').count(), 12);
  const shapes = await page.locator('#shape-table').textContent();
  assert.ok(shapes.includes('1 × 12 × 128 × 64') && shapes.includes('1 × 12 × 128 × 128') && shapes.includes('1 × 128 × 768'));
  const hash = await page.evaluate(() => location.hash);
  await compareWithApi(page, hash);

  await page.click('[data-example="E2"] button');
  await page.waitForFunction(() => playgroundRoot().getElementById('params-total')?.dataset.value === '1048576');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

// The tests below open only the panels they read (PANELS): the page with every panel redraws some 25
// panels on each run (each field filled is one), for nothing they check. Without a chapter the heads are
// the random ones, as on the reference page, and the API's (reference.mjs reads the same hash).
const PANELS = (names) => `panels=controls,heatmaps${names ? `,${names}` : ''}`;

test('dimensions set through the controls run, update the URL and match the API', async () => {
  const page = await openPage(h, `#${PANELS('shapes')}`);
  await page.click('label[for="f-source-random"]');
  await page.fill('input[name="d_model"]', '32');
  await page.fill('input[name="n_heads"]', '2');
  await page.fill('input[name="n_q"]', '6');
  await page.fill('input[name="batch"]', '2');
  await page.fill('input[name="input_seed"]', '11');
  await page.fill('input[name="seed"]', '5');
  await resultReady(page);
  const hash = await page.evaluate(() => location.hash);
  for (const part of ['d_model=32', 'n_heads=2', 'n_q=6', 'batch=2', 'source=random', 'input_seed=11', 'seed=5']) {
    assert.ok(hash.includes(part), `hash ${hash} has ${part}`);
  }
  assert.equal(await page.inputValue('input[name="n_k"]'), '6', 'self-attention ties n_k to n_q');
  assert.equal(await page.locator('.heat-small').count(), 2);
  await compareWithApi(page, hash);
  // The second batch item: same layer, other inputs.
  await page.selectOption('select[name="item"]', '1');
  await page.waitForFunction(() => playgroundRoot().getElementById('output-summary').dataset.item === '1');
  await compareWithApi(page, `${hash}&item=1`);
  // The shape trace follows: Q_i is [batch, h, n_q, d_k] = 2 × 2 × 6 × 16.
  const shapes = await page.locator('#shape-table tbody tr').allTextContents();
  assert.ok(shapes.some((row) => /Qi \(split into heads\)/.test(row) && row.includes('2 × 2 × 6 × 16')), shapes.join('\n'));
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('dimensions set through the URL: cross-attention with a causal mask', async () => {
  const hash = `#${PANELS()}&d_model=48&n_heads=3&attention=cross&n_q=5&n_k=9&mask=causal&source=random&input_seed=3`;
  const page = await openPage(h, hash);
  for (const [name, value] of [['d_model', '48'], ['n_heads', '3'], ['n_q', '5'], ['n_k', '9']]) {
    assert.equal(await page.inputValue(`input[name="${name}"]`), value, name);
  }
  assert.equal(await page.inputValue('select[name="mask"]'), 'causal');
  const { want } = await compareWithApi(page, hash);
  // Causal: query i sees keys 0..i only, so key 1 is hidden from query 0 in every head.
  assert.equal(weightAt(want, 0, 0, 0, 1), 0);
  await screenshot(page, 'cross-attention-causal');

  // Sentences: decoder words attend to encoder words, and the readout names both.
  const words = `#${PANELS()}&attention=cross&mask=causal&text=the%20black%20cat%20sleeps&text_kv=le%20chat%20noir%20dort%20ici`;
  // (No chapter, as PANELS' views: the heads are the random ones the API builds here; in a chapter this
  // view would keep the lesson's constructed heads, issue 38.)
  await page.goto(h.url + words);
  await resultReady(page);
  await compareWithApi(page, words);
  await page.focus('.heat-main canvas');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  const readout = await page.textContent('#readout');
  assert.match(readout, /query 1 “black” → key 1 “chat”: weight 0\.\d{4}/);
  await screenshot(page, 'cross-attention-sentences');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('every head draws non-blank pixels, and the heads differ', async () => {
  const page = await openPage(h, `#${PANELS()}&d_model=64&n_heads=8&source=random&n_q=12`);
  const stats = await page.evaluate(() => [...playgroundRoot().querySelectorAll('.heat-small canvas')].map((canvas) => {
    const { data, width, height } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let painted = 0, hash = 2166136261;
    const colours = new Set();
    for (let k = 0; k < data.length; k += 4) {
      if (data[k + 3] > 0) painted++;
      colours.add((data[k] << 16) | (data[k + 1] << 8) | data[k + 2]);
      hash = Math.imul(hash ^ data[k] ^ (data[k + 1] << 8) ^ (data[k + 2] << 16), 16777619) >>> 0;
    }
    return { painted: painted / (width * height), colours: colours.size, hash };
  }));
  assert.equal(stats.length, 8);
  for (const [k, s] of stats.entries()) {
    assert.ok(s.painted > 0.9, `head ${k + 1}: only ${(s.painted * 100).toFixed(0)} % of the canvas painted`);
    assert.ok(s.colours > 10, `head ${k + 1}: ${s.colours} colours, looks blank`);
  }
  assert.equal(new Set(stats.map((s) => s.hash)).size, stats.length, 'every head looks different');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('the cost panel shows the analysis of the API: parameters, FLOPs per stage, memory', async () => {
  const hash = `#${PANELS('cost')}&d_model=512&n_heads=8&source=random&n_q=128&batch=2&bias=0`;
  const page = await openPage(h, hash);
  const { analysis } = await expectedFor(hash);
  const value = (id) => page.$eval(`#${id}`, (el) => Number(el.dataset.value ?? el.dataset.bytes));
  assert.equal(await value('params-total'), analysis.params.total);
  assert.equal(await value('params-total'), 4 * 512 * 512, '4·d_model² without biases');
  assert.equal(await value('flops-total'), analysis.flops.exact_flops);
  assert.equal(await value('memory-total'), analysis.memory.total);
  assert.equal(await value('attention-memory'), 2 * 8 * 128 * 128 * 4);
  assert.match(await page.textContent('#dominant'), /n = 128 < d = 512/);
  const facts = await page.$eval('#run-facts', (el) => ({ ms: Number(el.dataset.ms), gflops: Number(el.dataset.gflops), isa: el.dataset.isa }));
  assert.ok(facts.ms > 0 && facts.gflops > 0);
  assert.equal(facts.isa, 'wasm-simd128');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('a sentence typed in the controls becomes the tokens on the axes', async () => {
  const page = await openPage(h, `#${PANELS()}`);
  await page.fill('textarea[name="text"]', 'attention is all\nyou need');
  await resultReady(page);
  assert.equal(await page.inputValue('input[name="n_q"]'), '3', 'the longest line has 3 tokens');
  assert.equal(await page.inputValue('input[name="batch"]'), '2', 'one batch item per line');
  assert.ok(await page.getAttribute('input[name="n_q"]', 'readonly') !== null, 'n_q is counted, not typed');
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /text=attention%20is%20all%0Ayou%20need/);
  await compareWithApi(page, hash);
  await page.selectOption('select[name="item"]', '1');
  await page.waitForFunction(() => playgroundRoot().getElementById('output-summary').dataset.item === '1');
  await page.focus('.heat-main canvas');
  await page.keyboard.press('End');
  assert.match(await page.textContent('#readout'), /query 0 “you” → key 2 “<pad>”/);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test("the enlarged map's word labels are drawn in the font they were measured in, and a long last one fits", async () => {
  // A long last word: its label, written at 45°, needs more room on the right than a short one.
  const page = await openPage(h, `#${PANELS()}&text=the%20cat%20sat%20on%20the%20mat%20because%20it%20was%20comfortable`);
  const drawn = await page.evaluate(() => {
    const canvas = playgroundRoot().querySelector('.heat-main canvas');
    const ctx = canvas.getContext('2d');
    // Sizing a canvas resets its context to 10px sans-serif: the labels were once written in that,
    // though measured and placed in 12px system-ui; and the room for the last one was a fixed 14 px.
    const font = ctx.font;
    // The right edge of the label band (above the cells): no ink in the last two pixel columns.
    const band = Math.floor(canvas.height * 0.15);
    const edge = ctx.getImageData(canvas.width - 2, 0, 2, band).data;
    let ink = 0;
    for (let k = 3; k < edge.length; k += 4) ink += edge[k] > 0 ? 1 : 0;
    return { font, ink, band };
  });
  assert.equal(drawn.font, '12px system-ui, sans-serif');
  assert.equal(drawn.ink, 0, `label pixels touch the canvas's right edge in the top ${drawn.band} px`);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('a long sequence is drawn downsampled, and says so', async () => {
  const hash = `#${PANELS()}&source=random&n_q=600&d_model=32&n_heads=2&mask=causal`;
  const page = await openPage(h, hash);
  assert.match(await page.textContent('#heat-note'), /downsampled: each cell is the mean of a 3×3 block of the 600×600 matrix/);
  const size = await page.$eval('.heat-main canvas', (c) => ({ w: c.width, h: c.height }));
  assert.ok(size.w > 0 && size.h > 0);
  // Hovering reads a block, not a single cell (the map scrolled into view first: the mouse moves in the viewport).
  await page.locator('.heat-main canvas').scrollIntoViewIfNeeded();
  const box = await page.locator('.heat-main canvas').boundingBox();
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.8);
  assert.match(await page.textContent('#readout'), /queries \d+–\d+ → keys \d+–\d+ \(block mean\)/);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('page.js is render-blocking, and a page.js that does not arrive or does not start leaves a message, not an empty page', async () => {
  const fresh = async (route) => {
    const context = await h.browser.newContext();
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    if (route) await page.route(/\/page\.js(\?|$)/, route);
    await page.goto(h.url);
    return { context, page, errors };
  };
  const painted = (page) => page.waitForFunction(() => performance.getEntriesByType('paint').length > 0, null, { timeout: 15000 })
    .then(() => page.evaluate(() => performance.getEntriesByType('paint')[0].startTime));
  // A normal first visit: nothing is painted before page.js runs (the static title was painted alone before).
  {
    const { context, page } = await fresh(null);
    try {
      const firstPaint = await painted(page);
      const started = await page.evaluate(() => performance.getEntriesByName('attention-page-start')[0]?.startTime);
      assert.ok(started !== undefined && firstPaint >= started, `first paint at ${firstPaint} ms, page.js started at ${started} ms`);
    } finally {
      await context.close();
    }
  }
  // Refused by the network, missing (404), or arrived but failing before main.js starts: each says which.
  const cases = [
    ['refused', (route) => route.abort('failed'), /could not load its code/],
    ['missing', (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' }), /could not load its code/],
    ['cut short', (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: 'const half = (' }), /could not start its code/],
  ];
  for (const [why, route, says] of cases) {
    const { context, page, errors } = await fresh(route);
    try {
      const alert = page.locator('#playground .load-failed[role="alert"]');
      await alert.waitFor({ timeout: 15000 });
      const text = await alert.textContent();
      assert.match(text, says, `${why}: ${text}`);
      assert.match(text, /\(http:\/\/127\.0\.0\.1:\d+\/page\.js\)/, `${why}: the message names the file`);
      // Rendering went on: the message is painted, the only thing in the playground's place.
      assert.equal(await page.locator('#playground > *').count(), 1, why);
      await painted(page);
      assert.deepEqual(errors.filter((e) => !/Unexpected end of input/.test(e)), [], why);
    } finally {
      await context.close();
    }
  }
});
