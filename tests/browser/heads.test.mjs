// Issue 12 on the page: the forward pass runs grouped-query attention (n_kv_heads), the "MHA, GQA, MQA"
// panel shows analyze's figures, heads= builds constructed heads whose drawn maps have the pattern, and the
// "Compare heads" panel shows compareHeads's numbers, including the output change of a head switched off.
// Expected values come from the JS API in Node on the same inputs (the page's pure modules build them).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, screenshot, resultReady, POLL_MS } from './harness.mjs';
import { engine } from './reference.mjs';
import { fromHash } from '../../web/src/model/schema.js';
import { validate } from '../../web/src/model/validate.js';
import { buildInputs } from '../../web/src/model/inputs.js';
import { forwardArguments, patternArguments } from '../../web/src/model/job.js';
import { variants } from '../../web/src/features/gqa/panel.js';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

/** The layer, inputs and forward arguments of the view at `hash`, built by the API in Node. */
async function layerFor(hash, extra = {}) {
  const attn = await engine();
  const check = validate(fromHash(hash), { resolveView: attn.resolveView, analyze: attn.analyze, budget: attn.defaultMemoryBudget, isa: attn.isa });
  assert.ok(check.ok, JSON.stringify(check.errors));
  const c = { ...check.config, ...extra };
  const mha = new attn.MultiHeadAttention({ d_model: c.d_model, n_heads: c.n_heads, bias: c.bias, seed: c.seed, ...(c.n_kv_heads ? { n_kv_heads: c.n_kv_heads } : {}) });
  const build = patternArguments(c);
  if (build) mha.setHeadPatterns(build);
  const args = forwardArguments(c, buildInputs(c, attn));
  return { attn, c, mha, args, check };
}

const close = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: page ${a}, API ${b}`);

test('n_kv_heads runs in the forward pass: the maps are the grouped layer\'s, not the full one\'s, and the groups are labelled', async () => {
  const hash = '#n_kv_heads=2';
  const grouped = await layerFor(hash);
  const full = await layerFor('');
  const g = grouped.mha.forward(grouped.args), f = full.mha.forward(full.args);
  // Only the panels read (the maps with their groups, the cost panel's GQA note): no chapter, random heads, as the API's.
  const page = await openPage(h, `${hash}&panels=heatmaps,cost`);
  const rows = await page.evaluate(() => [...playgroundRoot().querySelectorAll('.heat-small')].map((fig) => JSON.parse(fig.dataset.row0)));
  const { n_q, n_k } = grouped.c;
  let differs = 0;
  rows.forEach((row, head) => row.forEach((v, j) => {
    close(v, g.weights[head * n_q * n_k + j], 1e-6, `head ${head} key ${j}`);
    differs = Math.max(differs, Math.abs(v - f.weights[head * n_q * n_k + j]));
  }));
  assert.ok(differs > 1e-3, `the grouped maps differ from multi-head's (largest difference ${differs})`);
  const groups = await page.evaluate(() => playgroundRoot().getElementById('kv-groups').textContent);
  assert.match(groups, /K\/V head 1: heads 1–2 · K\/V head 2: heads 3–4/);
  const kv = await page.evaluate(() => [...playgroundRoot().querySelectorAll('.heat-small')].map((fig) => fig.dataset.kvHead));
  assert.deepEqual(kv, ['0', '0', '1', '1']);
  const note = await page.evaluate(() => playgroundRoot().getElementById('params-gqa')?.textContent ?? '');
  assert.doesNotMatch(note, /full heads/);
  assert.deepEqual(page.problems, []);
  await screenshot(page, 'heads-gqa');
  grouped.mha.delete(); full.mha.delete();
  await page.closeAll();
});

test('two query heads sharing one K/V head with the same constructed pattern have the same maps, as the API gives', async () => {
  const hash = '#n_kv_heads=2&heads=previous,previous,first_token,first_token';
  const { mha, args, c } = await layerFor(hash);
  const api = mha.forward(args);
  const page = await openPage(h, `${hash}&panels=heatmaps`); // only the maps are read
  const rows = await page.evaluate(() => [...playgroundRoot().querySelectorAll('.heat-small')].map((fig) => JSON.parse(fig.dataset.row0)));
  rows.forEach((row, head) => row.forEach((v, j) => close(v, api.weights[head * c.n_q * c.n_k + j], 1e-6, `head ${head} key ${j}`)));
  assert.deepEqual(page.problems, []);
  mha.delete();
  await page.closeAll();
});

test('the LLaMA-70B preset runs here: d_model 1024, 64 query heads sharing 8 key/value heads', async () => {
  const page = await openPage(h, '#panels=controls,heatmaps,models,compare');
  await page.selectOption('select[name="preset"]', 'model:LLaMA-70B');
  await page.waitForFunction(() => location.hash.includes('n_kv_heads=8'));
  await resultReady(page, 60000);
  assert.equal(await page.evaluate(() => playgroundRoot().querySelectorAll('.heat-small').length), 64);
  const groups = await page.evaluate(() => playgroundRoot().getElementById('kv-groups').textContent);
  assert.match(groups, /8 key\/value heads, each shared by 8 query heads/);
  assert.match(await page.evaluate(() => location.hash), /d_model=1024.*n_heads=64/);
  // 65 forward passes of this size wait for a click, then the comparison comes.
  await page.waitForSelector('#compare-run');
  await page.click('#compare-run');
  await page.waitForFunction(() => playgroundRoot().querySelectorAll('#compare-metrics tr[data-head]').length === 64, null, { timeout: 60000, polling: POLL_MS });
  assert.deepEqual(page.problems, []);
  await screenshot(page, 'heads-llama70b');
  await page.closeAll();
});

test('the MHA, GQA, MQA panel shows attn.analyze\'s figures at the current sizes and for the model table', async () => {
  const page = await openPage(h, '#n_kv_heads=2&panels=heatmaps,gqa');
  await page.waitForFunction(() => playgroundRoot().querySelectorAll('#gqa-here tr[data-kind]').length === 3 && playgroundRoot().querySelectorAll('#gqa-models tr[data-model]').length > 0);
  const here = await page.evaluate(() => [...playgroundRoot().querySelectorAll('#gqa-here tr[data-kind]')].map((tr) => ({ ...tr.dataset })));
  const attn = await engine();
  const c = validate(fromHash('#n_kv_heads=2'), { resolveView: attn.resolveView, analyze: attn.analyze }).config;
  assert.deepEqual(here.map((r) => r.kind), variants(c.n_heads, c.n_kv_heads).map((v) => v.kind));
  for (const row of here) {
    const a = attn.analyze({ d_model: c.d_model, n_heads: c.n_heads, bias: c.bias, batch: c.batch, n_q: c.n_q, n_k: c.n_k, attention: 'self', need_weights: true, scale: true, n_kv_heads: Number(row.nKvHeads) });
    assert.equal(Number(row.params), a.params.total, `${row.kind} parameters`);
    assert.equal(Number(row.flops), a.flops.exact_flops, `${row.kind} FLOPs`);
    assert.equal(Number(row.memory), a.memory.total, `${row.kind} memory`);
    assert.equal(Number(row.kvPerToken), a.kv_cache.bytes_per_token, `${row.kind} cache per token`);
    assert.equal(Number(row.kvBytes), a.kv_cache.bytes, `${row.kind} cache`);
    assert.equal(Number(row.saved), a.kv_cache.saved_bytes, `${row.kind} saved`);
  }
  assert.deepEqual(here.map((r) => r.nKvHeads), ['4', '2', '1']);
  const llama = await page.evaluate(() => ({ ...playgroundRoot().querySelector('#gqa-models tr[data-model="LLaMA-70B"]').dataset }));
  const m = attn.modelPresets().find((p) => p.name === 'LLaMA-70B');
  assert.equal(Number(llama.kvPerToken), m.kv_cache_per_token.bytes_per_token, 'per token, all 80 layers');
  assert.equal(Number(llama.kvPerToken), 655360);
  assert.equal(Number(llama.mhaBytes), 8 * Number(llama.kvBytes), '8× more with 64 key/value heads');
  assert.deepEqual(page.problems, []);
  await screenshot(page, 'heads-gqa-panel', { fullPage: true });
  await page.closeAll();
});

test('heads=previous: the drawn map of head 1 puts ≥ 0.8 of every row i ≥ 1 on key i − 1, and the page says why', async () => {
  const page = await openPage(h, '#heads=previous&panels=controls,heatmaps,patterns');
  const { rows, weights } = await page.evaluate(() => {
    const canvas = playgroundRoot().querySelector('.heat-main-canvas');
    return { weights: JSON.parse(canvas.dataset.attention), rows: 0 };
  });
  const n = Math.round(Math.sqrt(weights.length));
  assert.equal(n * n, weights.length);
  let least = 1;
  for (let i = 1; i < n; i++) least = Math.min(least, weights[i * n + i - 1]);
  console.log(`previous head: least weight on key i − 1 over rows 1..${n - 1}: ${least.toFixed(4)}`, rows);
  assert.ok(least >= 0.8, `least weight on key i − 1 is ${least}`);
  await page.waitForSelector('.head-why[data-pattern="previous"]');
  const why = await page.evaluate(() => playgroundRoot().querySelector('.head-why[data-pattern="previous"]').textContent);
  assert.match(why, /largest at j = i − 1/);
  const note = await page.evaluate(() => playgroundRoot().getElementById('untrained-note').textContent);
  assert.match(note, /Constructed: head 1 \(previous\)/);
  assert.match(note, /other heads are random/);
  assert.equal(await page.evaluate(() => playgroundRoot().querySelector('#f-head-0').value), 'previous');
  // A menu edits heads=.
  await page.evaluate(() => {
    const s = playgroundRoot().querySelector('#f-head-2');
    s.value = 'first_token';
    s.dispatchEvent(new Event('change'));
  });
  await page.waitForFunction(() => location.hash.includes('heads=previous,,first_token'));
  assert.deepEqual(page.problems, []);
  await screenshot(page, 'heads-previous', { fullPage: true });
  await page.closeAll();
});

test('a bad heads= entry is named beside the head menus', async () => {
  const page = await openPage(h, '#heads=previous,sideways&panels=heatmaps,patterns', { waitForResult: false }); // the head menus' panel
  await page.waitForFunction(() => (playgroundRoot()?.getElementById('m-heads')?.textContent ?? '').length > 0);
  assert.match(await page.evaluate(() => playgroundRoot().getElementById('m-heads').textContent), /“sideways” \(head 2\) is not a head pattern/);
  await page.closeAll();
});

test('the Compare heads panel shows compareHeads\'s numbers; switching a head off changes the output', async () => {
  const hash = '#heads=previous,same_word,first_token,uniform';
  const { mha, args, c } = await layerFor(hash);
  const { query, batch, n_q, n_k, mask, scale } = args;
  const expected = mha.compareHeads({ query, batch, n_q, n_k, mask, scale });
  // An independent check of the ablation: y with head k off, against y, in float64.
  const y = mha.forward(args).output;
  let norm = 0;
  for (const v of y) norm += v * v;
  norm = Math.sqrt(norm);
  for (let k = 0; k < c.n_heads; k++) {
    const head_mask = Array.from({ length: c.n_heads }, (_, j) => (j === k ? 0 : 1));
    const off = mha.forward({ ...args, head_mask }).output;
    let d = 0;
    for (let i = 0; i < y.length; i++) d += (y[i] - off[i]) ** 2;
    const change = Math.sqrt(d) / norm;
    assert.ok(change > 0, `switching head ${k} off changes the output`);
    close(expected.ablation.change[k], change, 1e-5, `ablation of head ${k}`);
  }
  const page = await openPage(h, `${hash}&panels=heatmaps,compare`);
  await page.waitForFunction(() => playgroundRoot().querySelectorAll('#compare-metrics tr[data-head]').length === 4);
  const rows = await page.evaluate(() => [...playgroundRoot().querySelectorAll('#compare-metrics tr[data-head]')].map((tr) => ({ ...tr.dataset })));
  rows.forEach((r, k) => {
    close(Number(r.entropy), expected.heads[k].entropy, 1e-5, `entropy of head ${k}`);
    close(Number(r.distance), expected.heads[k].distance, 1e-5, `distance of head ${k}`);
    close(Number(r.maxWeight), expected.heads[k].max_weight, 1e-5, `largest weight of head ${k}`);
  });
  const similarity = await page.evaluate(() => JSON.parse(playgroundRoot().querySelector('.compare-similarity').dataset.similarity));
  similarity.forEach((v, k) => close(v, expected.similarity[k], 1e-5, `similarity ${k}`));
  const order = await page.evaluate(() => [...playgroundRoot().querySelectorAll('#ablation-order li')].map((li) => Number(li.dataset.head)));
  assert.deepEqual(order, Array.from(expected.ablation.order));
  console.log('compare:', expected.heads.map((m, k) => `head ${k + 1}: entropy ${m.entropy.toFixed(3)}, distance ${m.distance.toFixed(3)}, max ${m.max_weight.toFixed(3)}, off → ${expected.ablation.change[k].toFixed(4)}`).join('; '));
  assert.deepEqual(page.problems, []);
  await screenshot(page, 'heads-compare', { fullPage: true });
  mha.delete();
  await page.closeAll();
});
