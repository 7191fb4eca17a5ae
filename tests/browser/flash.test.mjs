// The efficient-attention panels in the built page (panels=flash,linear), one page load: the FlashAttention
// panel's tile (m, ℓ, the step to the next block), its IO totals, and the linear panel's rows and crossover
// are the engine's, recomputed here in Node by the JS API on the same arguments the panels asked with.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/src/engine/attention.js';
import { startHarness, openPage } from './harness.mjs';

let h, attn;
before(async () => { h = await startHarness(); attn = await (await loadAttention()).labs(); }); // the labs' functions synchronous
after(async () => { await h?.close(); });

test('the flash and linear panels show the engine\'s numbers', async () => {
  // No heatmaps panel, so not the harness's wait for a drawn result: the two panels' own tables.
  const page = await openPage(h, '#panels=flash,linear&mask=causal', { waitForResult: false });
  try {
    await page.waitForFunction(() => playgroundRoot().querySelector('#flash-tile') && playgroundRoot().querySelector('#linear-cost'));
    const read = () => page.evaluate(() => {
      const root = playgroundRoot();
      const tile = root.querySelector('#flash-tile'), io = root.querySelector('#flash-io');
      const rows = root.querySelector('#linear-rows'), cost = root.querySelector('#linear-cost');
      return { tile: { ...tile.dataset }, io: { ...io.dataset }, strip: root.querySelectorAll('#flash-strip .flash-block').length,
        rows: { ...rows.dataset }, firstRow: rows.querySelector('tbody tr td:last-child').textContent, cost: { ...cost.dataset } };
    });
    const shown = await read();
    const args = JSON.parse(shown.tile.args);
    assert.equal(args.causal, true, 'the panel starts on the view\'s causal mask');
    const { n_q, n_k, d_k, d_v, seed } = args;
    const query = attn.randomNormal({ seed, count: n_q * d_k }), key = attn.randomNormal({ seed: seed + 1, count: n_k * d_k });
    const value = attn.randomNormal({ seed: seed + 2, count: n_k * d_v });
    const r = attn.flashAttention({ query, key, value, n_q, n_k, d_k, d_v, mask: 'causal', block_q: args.block_q, block_k: args.block_k,
      sram: args.sram, trace: { query_index: args.query_index } });
    assert.equal(shown.strip, r.tiles.length, 'one block in the strip per tile');
    const t = Number(shown.tile.tile);
    assert.equal(shown.tile.m, String(r.tiles[t].m));
    assert.equal(shown.tile.l, String(r.tiles[t].l));
    assert.equal(shown.io.standard, String(r.io.standard.total));
    assert.equal(shown.io.tiled, String(r.io.tiled.total));

    // One step on shows the next block's state.
    assert.ok(t + 1 < r.tiles.length, `the panel starts before the last block (tile ${t} of ${r.tiles.length})`);
    await page.evaluate(() => playgroundRoot().querySelector('#flash-next').click());
    const step = await read();
    assert.equal(Number(step.tile.tile), t + 1);
    assert.equal(step.tile.m, String(r.tiles[t + 1].m));
    assert.equal(step.tile.l, String(r.tiles[t + 1].l));

    const la = JSON.parse(shown.rows.args);
    const lq = attn.randomNormal({ seed: la.seed, count: la.n * la.d_k }), lk = attn.randomNormal({ seed: la.seed + 1, count: la.n * la.d_k });
    const lv = attn.randomNormal({ seed: la.seed + 2, count: la.n * la.d_v });
    const lin = attn.linearAttention({ query: lq, key: lk, value: lv, n_q: la.n, n_k: la.n, d_k: la.d_k, d_v: la.d_v, causal: la.causal }).output;
    const firstRow = shown.firstRow.replace(/[[\]…]/g, '').split(',').map((x) => x.trim()).filter(Boolean).map(Number);
    firstRow.forEach((x, d) => assert.ok(Math.abs(x - lin[d]) <= 5e-5, `linear row 0[${d}]: shown ${x}, engine ${lin[d]}`));
    const c = attn.linearAttentionCost({ n: la.n, d_k: la.d_k, d_v: la.d_v, causal: la.causal });
    assert.equal(shown.cost.crossover, String(c.crossover_n));
    assert.equal(shown.cost.softmax, String(c.softmax.total));
    assert.equal(shown.cost.linear, String(c.linear.total));
    // The linear panel's causal box follows the view's mask when the mask changes (a hostile probe: it kept
    // the first mask, so the link to the view opened another panel than the one shown); in between it is the learner's.
    const linearCausal = () => page.evaluate(() => JSON.parse(playgroundRoot().querySelector('#linear-rows').dataset.args).causal);
    await page.evaluate(() => { location.hash = '#panels=flash,linear&mask=none'; });
    await page.waitForFunction(() => JSON.parse(playgroundRoot().querySelector('#linear-rows')?.dataset.args ?? '{}').causal === false);
    await page.evaluate(() => playgroundRoot().querySelector('#linear-causal').click());
    await page.waitForFunction(() => JSON.parse(playgroundRoot().querySelector('#linear-rows')?.dataset.args ?? '{}').causal === true);
    assert.equal(await linearCausal(), true, 'the learner\'s own try, the mask unchanged');
    const errors = await page.evaluate(() => [...playgroundRoot().querySelectorAll('.panel-error')].filter((e) => !e.hidden).map((e) => e.textContent));
    assert.deepEqual(errors, []);
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});
