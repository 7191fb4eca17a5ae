// <attention-playground> on a course page of another origin: the page at one port of 127.0.0.1 loads
// dist/attention-playground.js and dist/embed.js from another port (two origins, CORS as a real host
// would send it), with two differently configured elements, a third that follows the system's theme,
// and an iframe of the full page. Each shows its own view, events carry the right details, attributes
// and `state` drive the view, the iframe fits its content, and removing elements frees what they held.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, serveSite, openUrl, POLL_MS, frameFollowsContent } from './harness.mjs';
import { expectedFor } from './reference.mjs';
import { toHash, ELEMENT_KEYS } from '../../web/src/model/schema.js';

let h, site;

/**
 * The course page, loading everything from the playground's origin `a`; `frame: false` leaves out the iframe
 * (a whole page of its own, with its own worker and run), for the tests that look only at the elements.
 */
const coursePage = (a, { frame = true } = {}) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A course page on another origin</title>
<link rel="icon" href="data:,">
<script>
  // Every event the playgrounds send, in order (they bubble out of the elements and are composed).
  window.events = [];
  for (const type of ['result', 'error', 'change']) {
    document.addEventListener(type, (e) => {
      if (e.target.localName === 'attention-playground') window.events.push({ type, id: e.target.id, detail: JSON.parse(JSON.stringify(e.detail)) });
    });
  }
</script>
<script type="module" src="${a}attention-playground.js"></script>
<script src="${a}embed.js"></script>
<style>body { max-width: 900px; margin: 0 auto; font: 16px serif; } iframe { width: 100%; border: 0; }</style>
</head><body>
<h1>Lesson</h1>
<attention-playground id="maps" panels="heatmaps" d_model="32" n_heads="2" source="random" n_q="6" input_seed="5"></attention-playground>
<attention-playground id="cross" panels="controls,heatmaps,shapes" theme="dark" d_model="48" n_heads="3" attention="cross" source="random" n_q="4" n_k="7"></attention-playground>
<attention-playground id="auto" panels="shapes" theme="auto" d_model="16" n_heads="2" source="random" n_q="3"></attention-playground>
${frame ? `<p>An iframe of the full page, sized by embed.js:</p>
<iframe id="frame" height="400" title="playground" src="${a}index.html#embed=1&panels=heatmaps,shapes&d_model=32&n_heads=4"></iframe>` : ''}
</body></html>`;

/**
 * A course page whose Content-Security-Policy allows scripts and workers only from the playground's
 * origin, and WebAssembly, but no eval: the engine's glue must not build functions from strings.
 */
const strictPage = (a) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A course page with a strict policy</title>
<meta http-equiv="Content-Security-Policy" content="script-src ${a} 'wasm-unsafe-eval'; worker-src ${a} blob:">
<link rel="icon" href="data:,">
<script type="module" src="${a}attention-playground.js"></script>
</head><body>
<attention-playground id="strict" panels="heatmaps,shapes" d_model="32" n_heads="4" source="random" n_q="5" input_seed="2"></attention-playground>
</body></html>`;

before(async () => {
  h = await startHarness();
  site = await serveSite({ 'course.html': coursePage(h.url), 'elements.html': coursePage(h.url, { frame: false }), 'strict.html': strictPage(h.url), 'empty.html': '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>empty</title></head><body></body></html>' });
});
after(async () => { await site?.close(); await h?.close(); });

/** The course page (`elementsOnly`: without its iframe). */
const open = (options = {}, { elementsOnly = false } = {}) => openUrl(h, `${site.url}${elementsOnly ? 'elements' : 'course'}.html`, { waitForResult: false, width: 1000, ...options });

/** Waits for the n-th event of `type` from element `id` (counting from 1) and returns its detail. */
async function eventFrom(page, id, type, n = 1) {
  const handle = await page.waitForFunction(([id, type, n]) => window.events.filter((e) => e.id === id && e.type === type)[n - 1]?.detail,
    [id, type, n], { timeout: 30000, polling: POLL_MS });
  return handle.jsonValue();
}

/** Something inside an element's shadow root (Playwright looks into open shadow roots). */
const inside = (page, id, selector) => page.locator(`#${id} ${selector}`);

test('two elements on a course page of another origin each show their own view, and `result` carries it', async () => {
  const page = await open();
  const maps = await eventFrom(page, 'maps', 'result');
  const cross = await eventFrom(page, 'cross', 'result');
  assert.deepEqual(Object.keys(maps).sort(), ['isa', 'ms', 'shapes', 'state']);
  assert.equal(maps.state.d_model, '32');
  assert.equal(maps.state.n_heads, '2');
  assert.equal(maps.isa, 'wasm-simd128');
  assert.ok(maps.ms > 0);
  const output = maps.shapes.find((s) => s.name.startsWith('output'));
  assert.deepEqual(output.dims, [1, 6, 32]);
  assert.equal(cross.state.attention, 'cross');
  assert.deepEqual(cross.shapes.find((s) => s.name.startsWith('key input')).dims, [1, 7, 48]);
  // What each shows: its own heads, its own panels, and the numbers of the API for its own view.
  assert.equal(await inside(page, 'maps', '.heat-small').count(), 2);
  assert.equal(await inside(page, 'cross', '.heat-small').count(), 3);
  assert.ok(await inside(page, 'maps', '[data-panel="controls"]').isHidden());
  assert.ok(await inside(page, 'maps', '[data-panel="shapes"]').isHidden());
  assert.ok(await inside(page, 'cross', '#shape-table').isVisible());
  for (const [id, detail] of [['maps', maps], ['cross', cross]]) {
    const want = await expectedFor(toHash(detail.state));
    const sum = Number(await inside(page, id, '#output-summary').getAttribute('data-sum'));
    assert.ok(Math.abs(sum - want.sum) <= 1e-6 * Math.max(1, Math.abs(want.sum)), `${id}: page ${sum}, API ${want.sum}`);
  }
  // Its attributes are the hash's keys plus theme and controls.
  const observed = await page.evaluate(() => customElements.get('attention-playground').observedAttributes);
  assert.deepEqual([...observed].sort(), [...ELEMENT_KEYS].sort());
  assert.ok(observed.includes('n_kv_heads') && observed.includes('theme') && observed.includes('controls') && !observed.includes('embed'));
  // The element's `result` property is the same detail.
  assert.deepEqual(await page.$eval('#maps', (el) => JSON.parse(JSON.stringify(el.result))), maps);
  // The three elements share one worker (the iframe, a page of its own, has its own).
  const mine = page.workers().filter((w) => w.url().startsWith(`blob:${site.url.slice(0, -1)}`));
  assert.equal(mine.length, 1, `${mine.length} workers for three elements: ${page.workers().map((w) => w.url()).join(', ')}`);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('an attribute change re-runs; `state` round-trips; run() resolves with the result', async () => {
  const page = await open({}, { elementsOnly: true });
  await eventFrom(page, 'maps', 'result');
  await page.$eval('#maps', (el) => el.setAttribute('n_q', '9'));
  const second = await eventFrom(page, 'maps', 'result', 2);
  assert.equal(second.state.n_q, '9');
  assert.match(await inside(page, 'maps', '#output-summary h3').textContent(), /9 × 32/);

  const roundTrip = await page.$eval('#maps', (el) => {
    const before = el.state;
    el.state = { ...before, n_heads: 4, bias: false };
    const after = el.state;
    el.state = after;
    return { before, after, again: el.state };
  });
  assert.deepEqual(roundTrip.after, { ...roundTrip.before, n_heads: '4', bias: '0' }, 'numbers and booleans come back as the hash writes them');
  assert.deepEqual(roundTrip.again, roundTrip.after);
  const third = await eventFrom(page, 'maps', 'result', 3);
  assert.equal(third.state.n_heads, '4');
  assert.equal(await inside(page, 'maps', '.heat-small').count(), 4);
  // Removing an attribute returns it to its default.
  const ran = await page.$eval('#maps', async (el) => {
    el.removeAttribute('input_seed');
    const r = await el.run();
    return r.state.input_seed;
  });
  assert.equal(ran, '7');
  // An attribute set while the element is out of the document applies when it returns (a hostile probe:
  // the attribute said causal, the view and `state` none).
  const back = await page.$eval('#maps', async (el) => {
    const parent = el.parentNode;
    el.remove();
    el.setAttribute('mask', 'causal');
    el.setAttribute('n_q', '6');
    const away = el.state;
    parent.append(el);
    const r = await el.run();
    return { away: [away.mask, away.n_q], ran: [r.state.mask, r.state.n_q], now: [el.state.mask, el.state.n_q] };
  });
  assert.deepEqual(back, { away: ['causal', '6'], ran: ['causal', '6'], now: ['causal', '6'] });
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('a bad attribute fires `error` naming the field, and the element shows the message', async () => {
  const page = await open({}, { elementsOnly: true });
  await eventFrom(page, 'maps', 'result');
  await eventFrom(page, 'cross', 'result');
  // An element without its inputs panel: the message is listed in its run bar.
  await page.$eval('#maps', (el) => el.setAttribute('d_model', 'abc'));
  const error = await eventFrom(page, 'maps', 'error');
  assert.equal(error.field, 'd_model');
  assert.match(error.message, /d_model must be a whole number/);
  await inside(page, 'maps', '#problems').waitFor();
  assert.match(await inside(page, 'maps', '#problems').textContent(), /d_model: d_model must be a whole number/);
  assert.ok(await inside(page, 'maps', '#run').isDisabled());
  // An element with its inputs: beside the field.
  await page.$eval('#cross', (el) => el.setAttribute('n_heads', '0'));
  const crossError = await eventFrom(page, 'cross', 'error');
  assert.equal(crossError.field, 'n_heads');
  assert.match(await inside(page, 'cross', '#m-n_heads').textContent(), /n_heads must be a positive integer \(got 0\)/);
  // run() rejects with the same message.
  const rejected = await page.$eval('#maps', (el) => el.run().then(() => 'resolved', (e) => `${e.field}: ${e.message}`));
  assert.match(rejected, /^d_model: d_model must be a whole number/);
  // Fixed, it runs again.
  await page.$eval('#maps', (el) => el.setAttribute('d_model', '16'));
  assert.equal((await eventFrom(page, 'maps', 'result', 2)).state.d_model, '16');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('a learner edit fires `change` with the whole view', async () => {
  const page = await open({}, { elementsOnly: true });
  await eventFrom(page, 'cross', 'result');
  await inside(page, 'cross', '[name="n_q"]').fill('5');
  const change = await eventFrom(page, 'cross', 'change');
  assert.deepEqual(Object.keys(change), ['state']);
  assert.equal(change.state.n_q, '5');
  assert.equal(change.state.attention, 'cross');
  assert.equal((await eventFrom(page, 'cross', 'result', 2)).state.n_q, '5');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('the iframe grows to its content with embed.js; nothing is fetched from any other origin; no console errors', async () => {
  const page = await open();
  await page.locator('#frame').scrollIntoViewIfNeeded();
  const frame = page.frameLocator('#frame');
  await frame.locator('#status', { hasText: 'Ran in' }).waitFor({ timeout: 30000 });
  await page.waitForFunction(() => {
    const iframe = document.getElementById('frame');
    const content = iframe.contentDocument; // null: another origin, so compare through the frame below
    return content === null && iframe.getBoundingClientRect().height > 500;
  }, null, { timeout: 15000 });
  const inner = page.frames().find((f) => f.url().includes('index.html'));
  const seen = await frameFollowsContent(page, '#frame', inner, { tolerance: 10 });
  assert.ok(Math.abs(seen.frame - seen.content) <= 10, `the iframe follows its content: ${JSON.stringify(seen)}`);
  assert.ok(await inner.evaluate(() => document.body.scrollHeight > 500), 'the content is taller than the 400 px the frame started with');
  const foreign = page.requests.filter((u) => !u.startsWith(h.url) && !u.startsWith(site.url) && !/^(data|blob):/.test(u));
  assert.deepEqual(foreign, []);
  assert.ok(page.requests.some((u) => u.startsWith(h.url) && new URL(u).pathname.endsWith('attention_simd.wasm')), 'the wasm comes from the playground’s origin');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('on a dark-mode system: elements are light by default, dark when asked, and follow the system with theme="auto"', async () => {
  const page = await open({ colorScheme: 'dark' });
  await eventFrom(page, 'maps', 'result');
  const look = (id) => page.$eval(`#${id}`, (el) => {
    const ap = el.shadowRoot.querySelector('.ap');
    return { scheme: ap.dataset.scheme, bg: getComputedStyle(ap).backgroundColor };
  });
  assert.deepEqual(await look('maps'), { scheme: 'light', bg: 'rgb(245, 246, 243)' });
  assert.deepEqual(await look('cross'), { scheme: 'dark', bg: 'rgb(15, 18, 23)' });
  assert.deepEqual(await look('auto'), { scheme: 'dark', bg: 'rgb(15, 18, 23)' });
  // The iframe without a theme flag is light too, and theme=dark in its link makes it dark.
  await page.locator('#frame').scrollIntoViewIfNeeded();
  const inner = () => page.frames().find((f) => f.url().includes('index.html'));
  await page.frameLocator('#frame').locator('#status', { hasText: 'Ran in' }).waitFor({ timeout: 30000 });
  assert.equal(await inner().evaluate(() => document.querySelector('#playground').shadowRoot.querySelector('.ap').dataset.scheme), 'light');
  await page.$eval('#frame', (el) => { el.src = el.src.replace('embed=1', 'embed=1&theme=dark'); });
  await page.waitForFunction(() => true);
  await page.frameLocator('#frame').locator('.ap[data-scheme="dark"]').waitFor({ timeout: 30000 });
  // Switching an element's theme attribute switches it at once.
  await page.$eval('#maps', (el) => el.setAttribute('theme', 'dark'));
  assert.equal((await look('maps')).scheme, 'dark');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('where no worker can start, the element computes on the page’s thread', async () => {
  const page = await openUrl(h, `${site.url}course.html`, { waitForResult: false, width: 1000, init: () => { delete window.Worker; } });
  const maps = await eventFrom(page, 'maps', 'result');
  const want = await expectedFor(toHash(maps.state));
  const sum = Number(await inside(page, 'maps', '#output-summary').getAttribute('data-sum'));
  assert.ok(Math.abs(sum - want.sum) <= 1e-6 * Math.max(1, Math.abs(want.sum)), `page ${sum}, API ${want.sum}`);
  assert.match(await inside(page, 'maps', '#engine-badge').textContent(), /on this page’s thread/);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('20 elements added and removed in turn leave one worker, its memory and the page’s flat', async () => {
  const page = await openUrl(h, `${site.url}empty.html`, { waitForResult: false });
  await page.addScriptTag({ type: 'module', content: `import * as playground from '${h.url}attention-playground.js'; window.playground = playground;` });
  await page.waitForFunction(() => window.playground && customElements.get('attention-playground'));
  const add = (id, n_q) => page.evaluate(([id, n_q]) => new Promise((resolve, reject) => {
    const el = document.createElement('attention-playground');
    el.id = id;
    for (const [k, v] of Object.entries({ panels: 'heatmaps,shapes,cost', source: 'random', d_model: '64', n_heads: '4', n_q })) el.setAttribute(k, v);
    el.addEventListener('result', () => resolve(), { once: true });
    el.addEventListener('error', (e) => reject(new Error(e.detail.message)), { once: true });
    document.body.append(el);
  }), [id, n_q]);
  // One element stays the whole time, so the shared worker lives on.
  await add('keeper', '8');
  const cdp = await page.context().newCDPSession(page);
  const measure = async () => {
    const [stats] = await page.evaluate(() => window.playground.computeStats());
    // A removed element's last frame callback may still be pending: let it run, then collect.
    await page.waitForTimeout(300);
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    const { nodes, jsEventListeners } = await cdp.send('Memory.getDOMCounters');
    return { workers: page.workers().length, ...stats, jsHeap: usedSize, nodes, listeners: jsEventListeners };
  };
  const cycle = async (k) => {
    await add(`guest${k}`, String(40 + (k % 3) * 8)); // sizes vary, so each guest has its own result arrays
    await page.evaluate((id) => document.getElementById(id).remove(), `guest${k}`);
  };
  for (let k = 0; k < 3; k++) await cycle(k); // warm: caches filled, code compiled
  const start = await measure();
  for (let k = 3; k < 23; k++) await cycle(k);
  const end = await measure();
  console.log(`after 3 cycles: ${JSON.stringify(start)}\nafter 23 cycles: ${JSON.stringify(end)}`);
  assert.equal(end.workers, 1, 'one worker for every element');
  assert.equal(end.playgrounds, 1, 'one playground connected');
  // Only the remaining element may hold state (in the worker, or here if its first run ran on this thread).
  assert.ok(end.worker.owners <= 1 && end.page.owners <= 1, JSON.stringify(end));
  assert.equal(end.worker.heapAllocated, start.worker.heapAllocated, 'the worker’s engine holds exactly what it held before the 20 cycles');
  assert.equal(end.page.heapAllocated, start.page.heapAllocated, 'so does the page’s engine');
  assert.ok(end.jsHeap - start.jsHeap < 2e6, `JS heap grew by ${end.jsHeap - start.jsHeap} bytes over 20 cycles`);
  assert.ok(end.nodes - start.nodes < 200, `DOM nodes grew by ${end.nodes - start.nodes}`);
  assert.ok(end.listeners - start.listeners < 20, `event listeners grew by ${end.listeners - start.listeners}`);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('under a Content-Security-Policy without unsafe-eval the element computes, in its worker', async () => {
  const page = await openUrl(h, `${site.url}strict.html`, { waitForResult: false, width: 1000 });
  try {
    await page.waitForFunction(() => document.querySelector('#strict')?.shadowRoot?.getElementById('output-summary')?.dataset.sum,
      null, { timeout: 30000, polling: POLL_MS });
    const state = await page.evaluate(() => document.querySelector('#strict').state);
    const shown = Number(await inside(page, 'strict', '#output-summary').getAttribute('data-sum'));
    const want = await expectedFor(toHash(state));
    assert.ok(Math.abs(shown - want.sum) <= 1e-6 * Math.max(1, Math.abs(want.sum)), `page ${shown}, API ${want.sum}`);
    await page.waitForFunction(() => document.querySelector('#strict').shadowRoot.querySelector('.ap')?.dataset.settled === '1');
    assert.doesNotMatch(await inside(page, 'strict', '#engine-badge').textContent(), /on this page’s thread/, 'the worker did not start');
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});
