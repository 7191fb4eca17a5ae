// The "Query heads → key/value heads" panel (features/kvmap, the feature added to show that a feature is
// one folder and one row of the table): its rows are the core's mapping (resolveView's kv_head_of) for
// the current n_heads and n_kv_heads, in MHA, GQA and MQA, and it follows an edit of n_kv_heads.
// The expected mapping is asked of the engine in Node, never computed here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage } from './harness.mjs';
import { engine } from './reference.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

/** The panel's rows: { kvHead, heads } per row, and the mapping it drew. */
const panelRows = (page) => page.evaluate(() => {
  const body = playgroundRoot().querySelector('[data-panel="kvmap"] .panel-body');
  return {
    map: body.dataset.kvHeadOf ? JSON.parse(body.dataset.kvHeadOf) : null,
    rows: [...body.querySelectorAll('tbody tr')].map((tr) => ({ kvHead: Number(tr.dataset.kvHead), heads: tr.dataset.heads.split(',').map(Number), text: tr.textContent })),
  };
});

/** The engine's rows for a layer: each key/value head with the query heads (from 1) that read it. */
async function expected(n_heads, n_kv_heads) {
  const attn = await engine();
  const view = attn.resolveView({ d_model: 64, n_heads, ...(n_kv_heads ? { n_kv_heads } : {}), n_q: 8, n_k: 8, batch: 1 });
  assert.ok(view.ok, JSON.stringify(view));
  const rows = new Map();
  view.dims.kv_head_of.forEach((g, k) => rows.set(g, [...(rows.get(g) ?? []), k + 1]));
  return { map: view.dims.kv_head_of, rows: [...rows].sort(([a], [b]) => a - b).map(([kvHead, heads]) => ({ kvHead, heads })) };
}

test('the kvmap panel draws the core\'s kv_head_of for MHA, GQA and MQA, and follows an edit', async () => {
  const page = await openPage(h, '#d_model=64&n_heads=8&n_kv_heads=2&panels=controls,heatmaps,kvmap');
  try {
    for (const [n_heads, n_kv_heads] of [[8, 2], [8, 8], [8, 1], [8, 4]]) {
      await page.evaluate((v) => { location.hash = `d_model=64&n_heads=${v[0]}&n_kv_heads=${v[1]}&panels=controls,heatmaps,kvmap`; }, [n_heads, n_kv_heads]);
      const want = await expected(n_heads, n_kv_heads);
      await page.waitForFunction((m) => playgroundRoot().querySelector('[data-panel="kvmap"] .panel-body')?.dataset.kvHeadOf === m, JSON.stringify(want.map));
      const got = await panelRows(page);
      assert.deepEqual(got.map, want.map, `n_heads ${n_heads}, n_kv_heads ${n_kv_heads}`);
      assert.deepEqual(got.rows.map(({ kvHead, heads }) => ({ kvHead, heads })), want.rows);
      assert.equal(got.rows.length, n_kv_heads);
    }
    // A grouped layer's rows as a learner reads them: K/V head 2 of 4 serves query heads 3 and 4.
    const { rows } = await panelRows(page);
    assert.match(rows[1].text, /^23–42$/);
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});
