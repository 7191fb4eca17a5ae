// The quick tier's browser check (bash scripts/test.sh --quick): the built page loads in Chromium, its
// worker computes the default view and a cross-attention view set by the URL, and what it shows equals
// the JS API's numbers in Node; nothing is asked of another host, nothing is logged as an error.
// The full run leaves this file out: page.test.mjs makes each of these checks, and more.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage } from './harness.mjs';
import { expectedFor } from './reference.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

/** The output's first row and sum and the heatmaps' count, as the page shows them, against the API's. */
async function assertMatchesApi(page, hash) {
  const want = await expectedFor(hash);
  const got = await page.evaluate(() => {
    const out = playgroundRoot().getElementById('output-summary').dataset;
    return { row0: JSON.parse(out.row0), sum: Number(out.sum), item: Number(out.item),
      heads: playgroundRoot().querySelectorAll('.heat-small').length };
  });
  const { n_q, d_model, n_heads } = want.config;
  const start = got.item * n_q * d_model;
  const row0 = Array.from(want.output.subarray(start, start + Math.min(8, d_model)));
  assert.equal(got.row0.length, row0.length, `output row 0 of ${hash || 'the default view'}`);
  got.row0.forEach((v, i) => assert.ok(Math.abs(v - row0[i]) <= 1e-6 * Math.max(1, Math.abs(row0[i])),
    `output[${i}] of ${hash || 'the default view'}: page ${v}, API ${row0[i]}`));
  assert.ok(Math.abs(got.sum - want.sum) <= 1e-6 * Math.max(1, Math.abs(want.sum)), `output sum: page ${got.sum}, API ${want.sum}`);
  assert.equal(got.heads, n_heads, 'one heatmap per head');
}

test('smoke: the page computes the default view and a cross-attention view as the API does, offline and without errors', async () => {
  const page = await openPage(h, '');
  assert.match(await page.textContent('#engine-badge'), /WebAssembly SIMD/);
  await assertMatchesApi(page, '');
  const hash = '#d_model=48&n_heads=3&attention=cross&n_q=5&n_k=7&mask=causal';
  const cross = await openPage(h, hash);
  await assertMatchesApi(cross, hash);
  for (const p of [page, cross]) {
    const foreign = p.requests.filter((u) => !u.startsWith(h.url) && !u.startsWith('data:') && !u.startsWith('blob:'));
    assert.deepEqual(foreign, []);
    assert.deepEqual(p.problems, []);
    await p.closeAll();
  }
});
