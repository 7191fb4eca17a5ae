// The KV cache panel (features/kvcache) in one page load: the sentence decoded token by token, the
// cache's entries per key/value head, the new row of weights per query head (each a distribution,
// equal to the causal forward pass's row), and the bytes and FLOPs the engine counts, asked of the
// engine in Node (attn.decodeCost), never computed here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage } from './harness.mjs';
import { engine } from './reference.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

/** What the panel shows at its current step. */
const panelState = (page) => page.evaluate(() => {
  const body = playgroundRoot().querySelector('[data-panel="kvcache"] .panel-body');
  const $ = (id) => body.querySelector(`#${id}`);
  return {
    step: Number(body.dataset.step),
    max: Number($('kvcache-step').max),
    heads: [...body.querySelectorAll('.kvcache-entries')].map((e) => ({ entries: Number(e.dataset.entries), filled: e.querySelectorAll('.kv-entry:not(.future)').length })),
    bytesUsed: Number($('kvcache-bytes').dataset.bytesUsed),
    maxDifference: Number($('kvcache-check').dataset.maxDifference),
    rows: [...$('kvcache-weights').querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('.kv-weight')].map((s) => Number(s.textContent))),
    flops: [...$('kvcache-flops').querySelectorAll('tbody tr')].map((tr) => Number(tr.dataset.flops)),
    models: Object.fromEntries([...$('kvcache-model-table').querySelectorAll('tbody tr')].map((tr) => [tr.dataset.model, Number(tr.dataset.cacheBytes)])),
  };
});

test('the kvcache panel steps through the sentence with the core\'s cache, rows, bytes and FLOPs', async () => {
  const page = await openPage(h, '#d_model=32&n_heads=4&n_kv_heads=2&panels=controls,heatmaps,kvcache');
  try {
    await page.waitForFunction(() => playgroundRoot().querySelector('[data-panel="kvcache"] .panel-body')?.dataset.step === '1', null, { timeout: 60000 });
    const attn = await engine();
    const presets = attn.modelPresets();
    for (const step of [1, 2, 3]) {
      if (step > 1) {
        await page.evaluate(() => playgroundRoot().querySelector('#kvcache-next').click());
        await page.waitForFunction((s) => playgroundRoot().querySelector('[data-panel="kvcache"] .panel-body').dataset.step === String(s), step);
      }
      const s = await panelState(page);
      assert.ok(s.max > 3, `the sentence has ${s.max} tokens`);
      const cost = attn.decodeCost({ d_model: 32, n_heads: 4, n_kv_heads: 2, t: step });
      assert.deepEqual(s.heads, [{ entries: step, filled: step }, { entries: step, filled: step }], 'one entry per token in each of the 2 key/value heads');
      assert.equal(s.bytesUsed, cost.cache_bytes, `cache bytes after ${step} tokens`);
      assert.ok(s.maxDifference < 1e-6, `the decoded row differs from the causal forward pass by ${s.maxDifference}`);
      assert.equal(s.rows.length, 4, 'one row per query head');
      for (const row of s.rows) {
        assert.equal(row.length, step);
        assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 0.01, `a row of weights sums to 1: ${row}`);
      }
      assert.deepEqual(s.flops, [cost.step_flops, cost.recompute_flops]);
      for (const m of presets) {
        const want = attn.decodeCost({ d_model: m.d_model, n_heads: m.n_heads, n_kv_heads: m.n_kv_heads, d_k: m.d_k, d_v: m.d_k, n_layers: m.n_layers, t: step });
        assert.equal(s.models[m.name], want.model_cache_bytes, `${m.name} after ${step} tokens`);
      }
    }
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});
