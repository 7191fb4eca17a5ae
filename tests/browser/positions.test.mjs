// The sparse masks and the positional methods on the page, in one page load: the form's mask,
// window, stride, positional and rope_base fields (shown when they apply); the large map's weights
// against the engine's forward pass with mask=sliding and positional=alibi, run in Node; the
// positions panel's ALiBi slopes and RoPE table against the engine; the sparse panel's pair counts and
// the cost panel's note on them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage } from './harness.mjs';
import { engine } from './reference.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const HASH = 'd_model=16&n_heads=4&source=random&n_q=10&mask=sliding&window=3&positional=alibi&input_seed=3' +
  '&panels=controls,heatmaps,positional,sparse,cost';

test('sliding/strided masks and RoPE/ALiBi: the form, the maps and the positions and sparse panels', async () => {
  const page = await openPage(h, `#${HASH}`);
  try {
    const attn = await engine();
    const field = (name) => page.evaluate((n) => {
      const box = playgroundRoot().querySelector(`[data-field="${n}"]`);
      return { hidden: box.closest('[hidden]') !== null, value: box.querySelector('input, select')?.value };
    }, name);
    assert.deepEqual(await field('window'), { hidden: false, value: '3' });
    assert.equal((await field('stride')).hidden, true);
    assert.deepEqual(await field('positional'), { hidden: false, value: 'alibi' });
    assert.equal((await field('rope_base')).hidden, true);

    // The large map (head 0, item 0) is the engine's forward pass with these options.
    const drawn = JSON.parse(await page.waitForFunction(() => playgroundRoot().querySelector('[data-panel="heatmaps"] canvas[data-attention]')?.dataset.attention || null)
      .then((handle) => handle.jsonValue()));
    const mha = new attn.MultiHeadAttention({ d_model: 16, n_heads: 4, seed: 1 });
    try {
      const query = attn.randomNormal({ seed: 6, count: 10 * 16 });
      const want = mha.forward({ query, n_q: 10, mask: 'sliding', window: 3, positional: 'alibi', need_weights: true }).weights.subarray(0, 100);
      const plain = mha.forward({ query, n_q: 10, mask: 'sliding', window: 3, need_weights: true }).weights.subarray(0, 100);
      const err = (a) => Math.max(...a.map((x, k) => Math.abs(x - drawn[k])));
      assert.ok(err(Array.from(want)) < 1e-6, `map vs engine: ${err(Array.from(want))}`);
      assert.ok(err(Array.from(plain)) > 1e-3, 'the map would be the same without ALiBi');
      for (let i = 0; i < 10; i++) for (let j = 0; j < 10; j++) if (j > i || j <= i - 3) assert.equal(drawn[i * 10 + j], 0, `cell ${i},${j} should be hidden`);
    } finally {
      mha.delete();
    }

    // The positions panel: the slopes of 4 heads, and RoPE's logits equal along each offset.
    await page.waitForFunction(() => playgroundRoot().querySelectorAll('.alibi-slopes tbody tr').length === 4);
    // Each table's rows: their data attributes and cells' text, read in the page.
    const rowsOf = (selector) => page.evaluate((sel) => [...playgroundRoot().querySelectorAll(sel)]
      .map((r) => ({ data: { ...r.dataset }, cells: [...r.cells].map((c) => c.textContent) })), selector);
    const slopes = (await rowsOf('.alibi-slopes tbody tr')).map((r) => Number(r.data.slope));
    assert.deepEqual(slopes, attn.alibiSlopes({ n_heads: 4 }));
    const rope = (await rowsOf('.rope-offsets tbody tr')).map((r) => r.cells.slice(1).map((c) => Number(c.split(': ')[1])));
    assert.ok(rope.length >= 3);
    for (const row of rope) for (const x of row) assert.ok(Math.abs(x - row[0]) < 2e-4, `RoPE row ${row}`);

    // The sparse panel: the pairs the engine counts for each pattern at n = 10 (window 3, stride 4 by default).
    await page.waitForFunction(() => playgroundRoot().querySelectorAll('.sparse-cost tbody tr').length === 3);
    const pairs = (await rowsOf('.sparse-cost tbody tr')).map((r) => Number(r.data.pairs));
    const count = (extra) => attn.analyze({ d_model: 16, n_heads: 4, n: 10, ...extra }).sparse.visible_pairs;
    assert.deepEqual(pairs, [count({ mask: 'causal' }), count({ mask: 'sliding', window: 3 }), count({ mask: 'strided', stride: 4 })]);
    assert.deepEqual(pairs, [55, 27, 42]);
    // The cost panel's note on the pairs the sliding mask leaves visible.
    await page.waitForFunction(() => playgroundRoot().querySelector('#sparse-flops'));
    assert.equal(await page.evaluate(() => playgroundRoot().querySelector('#sparse-flops').dataset.pairs), '27'); // counted by hand: n(n+1)/2; 3n − 3; Σ min(i+1, 4) + ⌊i/4⌋

    // Choosing strided shows the stride field; RoPE shows its base.
    await page.evaluate(() => {
      const set = (name, value) => {
        const el = playgroundRoot().querySelector(`[name="${name}"]`);
        el.value = value;
        el.dispatchEvent(new Event('change', { bubbles: true }));
      };
      set('mask', 'strided');
      set('positional', 'rope');
    });
    await page.waitForFunction(() => !playgroundRoot().querySelector('[data-field="stride"]').hidden && !playgroundRoot().querySelector('[data-field="rope_base"]').hidden);
    assert.equal((await field('window')).hidden, true);
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});

test('the encoding step keeps the range of PE to itself until the exercise on it is answered', async () => {
  const page = await openPage(h, '#chapter=positions&step=2', { asIs: true, waitForResult: false });
  const panelText = () => page.evaluate(() => playgroundRoot().querySelector('section[data-panel="positional"]').innerText);
  await page.waitForFunction(() => playgroundRoot()?.querySelectorAll('#pe-facts li').length === 3, null, { timeout: 30000 });
  await page.waitForFunction(() => playgroundRoot().querySelector('article[data-exercise="positions.range"] button'));
  const before = await panelText();
  // positions.range asks where the values lie: neither the colour scale's ends nor the largest |PE| before Check.
  assert.doesNotMatch(before, /−1 to 1|-1 to 1|largest \|PE\| over these positions is/, before);
  assert.match(before, /shown after you answer the exercise on the range/);
  await page.evaluate(() => [...playgroundRoot().querySelectorAll('article[data-exercise="positions.range"] button')].find((b) => /Show answer/.test(b.textContent)).click());
  await page.waitForFunction(() => /largest \|PE\| over these positions is 1\.0000/.test(playgroundRoot().querySelector('#pe-facts').textContent));
  assert.match(await panelText(), /colour from −1 to 1/);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});
