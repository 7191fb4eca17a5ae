// The page and the element on the worker pool (issue 14): first in Node, the compute side's own code
// (runForward and the worker's handlers over createAttentionPool, worker_threads there) against the
// single-threaded engine; then in Chromium, the page served by scripts/serve.mjs (no COOP/COEP headers,
// so not cross-origin isolated) running with 2 workers, the setting and what the performance panel
// says, a bad value's note, and the element on a page of another origin with 2 workers.
// Runs beside other files (tests/browser/run.mjs): the worker counts follow from FLOP thresholds and a pinned
// core count, and a pass's wait is at most its slowest worker's time by construction: none depends on load.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, serveSite, newContext, openUrl, resultReady, screenshot } from './harness.mjs';
import { engine, expectedFor } from './reference.mjs';
import { fromHash } from '../../web/src/model/schema.js';
import { validate } from '../../web/src/model/validate.js';
import { LayerCache, runForward } from '../../web/src/model/job.js';
import { createHandlers } from '../../web/src/worker/handlers.js';
import { loadHandlers } from '../../web/src/features/handlers_of.js';
import { createAttentionPool, poolInternals, SPLIT_FLOPS, PAGE_SPLIT_FLOPS } from '../../web/src/engine/pool.js';
import { loadAttention } from '../../web/src/engine/attention.js';
import { normwiseError } from '../js/reference.mjs';

const TOLERANCE = 1e-5; // the Wᴼ sum is reordered: agreement normwise, not to the bit
const BIG = '#d_model=256&n_heads=4&source=random&n_q=256'; // ~200 MFLOP a pass: above Node's and the page's split thresholds

/** The config of a hash as the page validates it, on a machine with `cores` logical cores. */
async function configOf(hash, cores = 2) {
  const attn = await engine();
  const check = validate(fromHash(hash), { resolveView: attn.resolveView, analyze: attn.analyze, budget: attn.defaultMemoryBudget, isa: attn.isa, cores });
  assert.ok(check.ok, `${hash}: ${JSON.stringify(check.errors)}`);
  return check.config;
}

function assertClose(what, actual, expected) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  const e = normwiseError(actual, expected);
  assert.ok(e.error <= TOLERANCE, `${what}: normwise error ${e.error.toExponential(2)} > ${TOLERANCE} (worst at ${e.at}: ${e.actual} vs ${e.expected})`);
}

test('Node: runForward on a pool of 2 workers gives the single-threaded result (same keys, within 1e-5 normwise)', async () => {
  const attn = await engine();
  const pool = await createAttentionPool({ workers: 2, simd: attn.isa === 'wasm-simd128' });
  // The pool side runForward is given by the compute worker (handlers.js), spelled out here.
  const layers = [];
  const pooled = {
    splitFlops: pool.splitFlops,
    async layer(mha) {
      const layer = await pool.layer({ d_model: mha.d_model, n_heads: mha.n_heads, n_kv_heads: mha.n_kv_heads, d_k: mha.d_k, d_v: mha.d_v, bias: mha.bias });
      await layer.setWeights(mha.getWeights());
      layers.push(layer);
      return layer;
    },
  };
  const cases = [
    [`${BIG}`, 2],                                                               // one pass, split
    ['#d_model=128&n_heads=4&source=random&n_q=160&batch=3&mask=causal', 2],     // batch slices, each still split
    ['#d_model=128&n_heads=8&attention=cross&source=random&n_q=96&n_k=160&batch=2&mask=padding&padding=160,77', 2],
    ['#d_model=256&n_heads=8&n_kv_heads=2&source=random&n_q=200&bias=0', 2],   // grouped-query attention
    ['#d_model=32&n_heads=2&source=random&n_q=8', 0],                            // below the threshold: this thread
    [`${BIG}&dropout=0.1&dropout_seed=4`, 0],                                    // dropout runs whole
  ];
  try {
    for (const [hash, workers] of cases) {
      const config = await configOf(`${hash}&workers=2`);
      const plainCache = new LayerCache(), poolCache = new LayerCache();
      try {
        const one = await runForward(attn, { ...config, workers: 1 }, { cache: plainCache });
        const two = await runForward(attn, config, { cache: poolCache, pooled });
        assert.deepEqual(Object.keys(two), Object.keys(one), `${hash}: the same result keys`);
        assert.deepEqual(Object.keys(two.timings), Object.keys(one.timings));
        assert.equal(one.workers, 0, 'without a pool: this thread');
        assert.equal(two.workers, workers, `${hash}: workers used`);
        // One engine time per worker that ran the pass (summed over a batch's slices), none for this thread.
        assert.equal(two.engine_ms.length, workers, `${hash}: engine times ${JSON.stringify(two.engine_ms)}`);
        assert.ok(two.engine_ms.every((ms) => Number.isFinite(ms) && ms > 0), `${hash}: engine times ${JSON.stringify(two.engine_ms)}`);
        assert.deepEqual(one.engine_ms, []);
        assert.equal(one.wait_ms, 0);
        assert.ok(two.wait_ms >= 0 && two.wait_ms <= Math.max(0, ...two.engine_ms), `${hash}: wait ${two.wait_ms}`);
        assertClose(`${hash}: output`, two.output, one.output);
        assertClose(`${hash}: weights`, two.weights, one.weights);
        assert.deepEqual(two.masked_rows, one.masked_rows, `${hash}: masked_rows`);
        assert.deepEqual(two.labels_q, one.labels_q);
        if (workers === 0) {
          // Run here by the very same engine code: identical to the bit.
          assert.equal(two.output.findIndex((v, i) => v !== one.output[i]), -1, `${hash}: identical output`);
        }
      } finally {
        plainCache.clear();
        poolCache.clear();
      }
    }
  } finally {
    await pool.close();
  }
});

test('Node: runForward sums each worker\'s engine time over a batch\'s slices, and the waits slice by slice', async () => {
  const attn = await engine();
  const config = await configOf('#d_model=32&n_heads=2&source=random&n_q=8&batch=2&workers=2');
  // A stand-in for a pool layer: the real single-threaded pass, with scripted worker times per
  // slice. Each slice waits for its own slowest worker, so summing the times first would hide the
  // waits: [10, 20] then [20, 10] sum to [30, 30] (no gap) while each slice waited 5 ms.
  const script = [[10, 20], [20, 10]];
  let calls = 0;
  const pooled = {
    splitFlops: 1, // every batch item is a slice of its own
    async layer(mha) {
      return {
        d_model: mha.d_model, n_heads: mha.n_heads, d_k: mha.d_k, d_v: mha.d_v, lastWorkers: 0, lastWorkerMs: [],
        // As a pool layer counts a pass: the core's matmul FLOPs.
        forwardFlops: (batch, n_q, n_k) => 2 * attn.analyze({ d_model: mha.d_model, n_heads: mha.n_heads, batch, n_q, n_k }).flops.exact_macs,
        async forward(input) {
          this.lastWorkers = 2;
          this.lastWorkerMs = script[calls++ % script.length];
          return mha.forward(input);
        },
      };
    },
  };
  const cache = new LayerCache();
  try {
    const r = await runForward(attn, config, { cache, pooled });
    assert.equal(r.workers, 2);
    assert.deepEqual(r.engine_ms, [30, 30], 'each worker\'s time summed over the slices');
    assert.equal(r.wait_ms, 10, 'the slices\' waits summed (5 ms each)');
  } finally {
    cache.clear();
  }
});

test('Node: the compute worker\'s handlers run `workers` = 2 on a pool, the n-sweep too, and the last release stops it', async () => {
  let started = null;
  const handlers = createHandlers(() => loadAttention(), {
    startPool: async (options) => (started = await createAttentionPool(options)),
    featureHandlers: loadHandlers, // the n-sweep is the performance feature's
  });
  await handlers.init({});
  const config = await configOf(`${BIG}&workers=2`);
  assert.equal(config.workers, 2);
  const two = await handlers.run({ owner: 1, config }, () => {});
  const one = await handlers.run({ owner: 2, config: { ...config, workers: 1 } }, () => {});
  const { engine_ms: twoMs, wait_ms: twoWait, ...two_ } = two.workers, { engine_ms: oneMs, wait_ms: oneWait, ...one_ } = one.workers;
  assert.deepEqual(two_, { used: 2, setting: 2, splitFlops: SPLIT_FLOPS });
  assert.equal(twoMs.length, 2, `each worker's engine time: ${JSON.stringify(twoMs)}`);
  assert.ok(twoMs.every((ms) => Number.isFinite(ms) && ms > 0), `each worker's engine time: ${JSON.stringify(twoMs)}`);
  assert.deepEqual(one_, { used: 0, setting: 1, splitFlops: null });
  assert.deepEqual(oneMs, [], 'no worker times without a pool');
  assert.ok(twoWait >= 0 && twoWait <= Math.max(...twoMs), `wait ${twoWait}`);
  assert.equal(oneWait, 0);
  assert.equal(started.workers, 2);
  assert.deepEqual(Object.keys(two).sort(), Object.keys(one).sort(), 'the panels get the same reply');
  assert.deepEqual(Object.keys(two.item).sort(), Object.keys(one.item).sort());
  // What the panels draw: the shown item's weights, the output's first rows and sums.
  assertClose('item weights', two.item.data, one.item.data);
  assertClose('output rows', two.item.output_rows.flat(), one.item.output_rows.flat());
  const want = await expectedFor(BIG);
  let magnitude = 0;
  for (const v of want.output) magnitude += Math.abs(v);
  assert.ok(Math.abs(two.output_sum - want.sum) <= TOLERANCE * magnitude, `sum: ${two.output_sum} vs the API's ${want.sum}`);
  // The same layer again: no new pool layer, and the batch item view of the pooled result.
  const item = await handlers.item({ owner: 1, config, b: 0 }, () => {});
  assert.deepEqual(item.item.output_rows, two.item.output_rows);
  // The n-sweep on the pool: the short lengths run unsplit, the long ones on both workers.
  const layer = { d_model: 256, n_heads: 4, d_k: 64, d_v: 64, bias: true };
  const sweep = await handlers.ask({ owner: 1, feature: 'performance', request: 'sweep', payload: { layer, ns: [16, 128], workers: 2 } }, () => {});
  assert.deepEqual(sweep.points.map((p) => [p.n, p.workers]), [[16, 0], [128, 2]]);
  assert.ok(sweep.points.every((p) => p.ms > 0));
  assert.deepEqual(handlers.stats().pools, 1);
  // Another size: one pool at a time, the old one stopped, the owner's layer made again in the new one.
  const first = started;
  const three = await handlers.run({ owner: 1, config: { ...config, workers: 3 } }, () => {});
  assert.notEqual(started, first);
  assert.equal(started.workers, 3);
  assert.equal(three.workers.used, 3);
  assertClose('item weights on 3 workers', three.item.data, one.item.data);
  await assert.rejects(first.layer({ d_model: 8, n_heads: 1 }), /this attention pool was closed/);
  assert.equal(handlers.stats().pools, 1);
  await handlers.release({ owner: 1 });
  assert.equal(handlers.stats().pools, 1, 'another playground still holds state');
  await handlers.release({ owner: 2 });
  assert.equal(handlers.stats().pools, 0, 'the last release stops the pool');
  await assert.rejects(started.layer({ d_model: 8, n_heads: 1 }), /this attention pool was closed/);
});

test('Node: a pool worker that dies during a run fails it with a message (no hang); a pool that cannot start says why', async () => {
  let started = null;
  const handlers = createHandlers(() => loadAttention(), { startPool: async (o) => (started = await createAttentionPool(o)) });
  await handlers.init({});
  const config = await configOf('#d_model=128&n_heads=4&source=random&n_q=1536&workers=2');
  await handlers.run({ owner: 1, config }, () => {});
  // Worker 1 is killed as soon as the next pass is posted to it (the port posts through postMessage): at
  // once, not from a timer, which on a loaded host could fire after the worker had already answered.
  const worker = started[poolInternals].worker(0);
  const post = worker.postMessage.bind(worker);
  worker.postMessage = (message, transfer) => {
    post(message, transfer);
    if (message.op === 'forward') worker.terminate();
  };
  await assert.rejects(handlers.run({ owner: 1, config: { ...config, input_seed: 2 } }, () => {}), /pool worker 1 of 2 stopped/);
  const again = await handlers.run({ owner: 1, config }, () => {});
  assert.equal(again.workers.used, 2, 'the replaced worker runs the next pass');
  await handlers.release({ owner: 1 });

  const failing = createHandlers(() => loadAttention(), { startPool: () => Promise.reject(new Error('createAttentionPool: a worker could not start: nope')) });
  await failing.init({});
  await assert.rejects(failing.run({ owner: 1, config }, () => {}), /a worker could not start: nope/);
  assert.equal(failing.stats().pools, 0, 'a pool that failed is not kept: the next run tries again');
  await failing.release({ owner: 1 });
});

// ---- in Chromium ----

let h, site;
before(async () => {
  h = await startHarness();
});
after(async () => { await site?.close(); await h?.close(); });

// The page's workers setting depends on navigator.hardwareConcurrency: the tests present every page
// as a 2-core machine's (the CI machine's count), so that their expectations hold on any host.
const CORES = 2;
const pinCores = `Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => ${CORES}, configurable: true });`;

/** The page at `hash`, recording every response's headers; waits for the first result. */
async function openRecording(hash) {
  const context = await newContext(h, { viewport: { width: 1280, height: 1000 } });
  await context.addInitScript(pinCores);
  const page = await context.newPage();
  page.problems = [];
  page.responses = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') page.problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => page.problems.push(`pageerror: ${e.message}`));
  context.on('response', (r) => page.responses.push({ url: r.url(), headers: r.headers() }));
  await page.goto(h.url + hash);
  await resultReady(page, 60000);
  await page.waitForSelector('#playground >> #workers-used');
  return page;
}

const panelText = (page, id) => page.evaluate((id) => playgroundRoot().getElementById(id)?.textContent ?? null, id);
const runsColumn = (page) => page.evaluate(() => [...playgroundRoot().querySelectorAll('#runs-table tbody tr')].map((tr) => tr.lastElementChild.textContent));

/** The page's output sum and first row against the API's single-threaded numbers for `hash`. */
async function assertMatchesApi(page, hash) {
  const want = await expectedFor(hash);
  const got = await page.evaluate(() => {
    const d = playgroundRoot().getElementById('output-summary').dataset;
    return { sum: Number(d.sum), row0: JSON.parse(d.row0) };
  });
  let magnitude = 0, largest = 0;
  for (const v of want.output) { magnitude += Math.abs(v); largest = Math.max(largest, Math.abs(v)); }
  assert.ok(Math.abs(got.sum - want.sum) <= TOLERANCE * magnitude, `sum: page ${got.sum}, API ${want.sum}`);
  got.row0.forEach((v, j) => assert.ok(Math.abs(v - want.output[j]) <= TOLERANCE * largest, `output[0][${j}]: page ${v}, API ${want.output[j]}`));
}

test('the page without COOP/COEP headers runs a large pass on 2 workers, as the single-threaded API computes it; the setting changes it', async () => {
  const hash = `${BIG}&workers=2&panels=heatmaps,performance`;
  const page = await openRecording(hash);
  assert.equal(await page.evaluate(() => crossOriginIsolated), false, 'not cross-origin isolated');
  assert.equal(await page.evaluate(() => typeof SharedArrayBuffer === 'undefined' || !crossOriginIsolated), true);
  assert.ok(page.responses.length > 5);
  for (const { url, headers } of page.responses) {
    assert.equal(headers['cross-origin-opener-policy'], undefined, `${url}: COOP`);
    assert.equal(headers['cross-origin-embedder-policy'], undefined, `${url}: COEP`);
  }
  assert.ok(page.responses.some((r) => r.url.endsWith('/pool_worker.js')), 'the pool\'s workers were fetched');
  assert.equal(page.workers().filter((w) => w.url().endsWith('/pool_worker.js')).length, 2, page.workers().map((w) => w.url()).join(', '));
  assert.equal(await panelText(page, 'workers-used'), 'Last run: 2 workers.');
  // Each worker's engine time in that pass, as the pool measured it, and the wait for the slower.
  const share = await page.evaluate(() => {
    const p = playgroundRoot().getElementById('workers-share');
    return { text: p.textContent, hidden: p.hidden };
  });
  assert.equal(share.hidden, false, 'the workers\' shares are shown');
  assert.match(share.text, /^In the last pass the workers’ engines took \d[\d.,]* (ms|s) and \d[\d.,]* (ms|s)\. The pass waits for the slowest worker: ([\d.,]+ (ms|s)|less than 0\.1 ms) after their average;/, share.text);
  assert.deepEqual(await runsColumn(page), ['2']);
  assert.equal(await page.evaluate(() => playgroundRoot().getElementById('f-workers').value), '2');
  await assertMatchesApi(page, BIG);
  await page.locator('#playground >> [data-panel="performance"]').scrollIntoViewIfNeeded();
  await screenshot(page, 'pool-performance-2-workers', { clip: await page.locator('#playground >> [data-panel="performance"]').boundingBox() });

  // The n-sweep on the same 2 workers: the lengths with enough work are split.
  await page.locator('#playground >> #sweep').click();
  await page.waitForFunction(() => playgroundRoot().getElementById('sweep-chart').dataset.points, null, { timeout: 60000 });
  const status = await page.evaluate(() => playgroundRoot().querySelector('#sweep-chart').previousElementSibling.textContent);
  assert.match(status, /n 512: [^·]+ \(2 workers\)/, status);
  assert.doesNotMatch(status, /n 16: [^·]+ \(2 workers\)/, 'n = 16 is below the split threshold');

  // workers = 1 from the panel's field: a new run, single-threaded, the same numbers.
  await page.locator('#playground >> #f-workers').fill('1');
  await page.locator('#playground >> #f-workers').press('Enter');
  await page.locator('#playground >> #f-workers').blur();
  await page.waitForFunction(() => playgroundRoot().querySelectorAll('#runs-table tbody tr').length === 2, null, { timeout: 30000 });
  await resultReady(page, 30000);
  assert.equal(await page.evaluate(() => location.hash.includes('workers=1')), true, 'the setting is in the link');
  assert.equal(await panelText(page, 'workers-used'), 'Last run: 1 worker (workers = 1: single-threaded).');
  assert.equal(await page.evaluate(() => playgroundRoot().getElementById('workers-share').hidden), true, 'no shares without a pool');
  assert.deepEqual(await runsColumn(page), ['1', '2']);
  await assertMatchesApi(page, BIG);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('a small pass runs on one worker and says why; a bad workers value gets its note and the run goes ahead', async () => {
  const small = await openRecording('#workers=2&d_model=32&n_heads=2&source=random&n_q=8&panels=heatmaps,performance');
  // The first small run may run on the page's thread while the compute worker starts; it says so.
  assert.match(await panelText(small, 'workers-used'), /^Last run: 1 worker \((below the split threshold|it ran on the page’s own thread)/);
  // Once the worker is up, a small pass runs there, on one worker.
  await small.waitForFunction(() => playgroundRoot().getElementById('peak').dataset.gflops, null, { timeout: 30000 });
  await small.evaluate(() => { location.hash = '#workers=2&d_model=32&n_heads=2&source=random&n_q=9&panels=heatmaps,performance'; });
  await small.waitForFunction(() => playgroundRoot().querySelectorAll('#runs-table tbody tr').length === 2, null, { timeout: 30000 });
  await resultReady(small);
  assert.equal(await panelText(small, 'workers-used'), `Last run: 1 worker (below the split threshold of ${PAGE_SPLIT_FLOPS / 1e6} MFLOP: splitting does not pay).`);
  assert.deepEqual(await runsColumn(small), ['1', '1']);
  await small.close();

  const bad = await openRecording('#workers=zero&d_model=32&n_heads=2&source=random&n_q=8&panels=heatmaps,performance');
  assert.equal(await bad.evaluate(() => navigator.hardwareConcurrency), CORES, 'the page sees the pinned core count');
  assert.match(await panelText(bad, 'notes'),
    /workers must be a whole number from 1 to 2 \(this browser reports 2 logical cores\), not “zero”: using 1\./);
  assert.match(await panelText(bad, 'status'), /^Ran in/);
  await bad.close();
  const many = await openRecording(`${BIG}&workers=64&panels=heatmaps,performance`);
  assert.match(await panelText(many, 'notes'), /not “64”: using 2\./);
  assert.equal(await panelText(many, 'workers-used'), 'Last run: 2 workers.');
  await many.close();
});

test('the element on a page of another origin runs with 2 workers (started from blob: URLs); removing it stops them', async () => {
  site = await serveSite({
    'course.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>course</title>
<script type="module">import * as playground from '${h.url}attention-playground.js'; window.playground = playground;</script></head>
<body><attention-playground id="big" panels="performance,heatmaps" workers="2" d_model="256" n_heads="4" source="random" n_q="256"></attention-playground></body></html>`,
  });
  const page = await openUrl(h, `${site.url}course.html`, { waitForResult: false, init: pinCores });
  await page.waitForFunction(() => document.getElementById('big')?.shadowRoot?.getElementById('workers-used')?.textContent.startsWith('Last run'), null, { timeout: 60000 });
  const used = () => page.evaluate(() => document.getElementById('big').shadowRoot.getElementById('workers-used').textContent);
  assert.equal(await used(), 'Last run: 2 workers.');
  // The compute worker and its two pool workers all start from blob: URLs of the course page's origin.
  const blobs = page.workers().filter((w) => w.url().startsWith(`blob:${site.url.slice(0, -1)}`));
  assert.equal(blobs.length, 3, page.workers().map((w) => w.url()).join(', '));
  assert.ok(page.requests.some((u) => u === `${h.url}pool_worker.js`), 'pool_worker.js comes from the playground\'s origin');
  const [before] = await page.evaluate(() => window.playground.computeStats());
  assert.equal(before.worker.pools, 1);
  await page.evaluate(() => document.getElementById('big').remove());
  const [afterRemoval] = await page.evaluate(() => window.playground.computeStats());
  assert.equal(afterRemoval.worker.pools, 0, 'the last playground\'s release stops the pool');
  // After the grace period the compute worker ends, and its nested workers with it (looked at every 200 ms
  // for up to 15 s; a round trip given 100 ms before it, no check, timed out on a loaded machine).
  const deadline = Date.now() + 15000;
  while (page.workers().length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  assert.deepEqual(page.workers().map((w) => w.url()), [], 'no worker left running');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});
