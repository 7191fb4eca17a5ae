// What a map's words say about its drawing, read from the drawn pixels (issue 37's step review): the sparse
// panel's legend names the colours its masks are drawn in (yellow: computed, grey: skipped), and the compare
// panel's head numbers, short enough for their cells, stand upright over their columns (not at 45°).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, chapterDrawn } from './harness.mjs';
import { text } from '../../web/src/lesson/panels/sparse.js';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

test('sparse: the legend is shown and its colours are the masks\' (causal map: key 0 of the last query yellow, its last key of query 0 grey)', async () => {
  const page = await openPage(h, '#chapter=efficient&step=4', { asIs: true, waitForResult: false });
  try {
    await chapterDrawn(page);
    await page.locator('[data-pattern="full"] canvas').waitFor();
    const legend = page.locator('[data-panel="sparse"] .sparse-legend');
    assert.equal(await legend.textContent(), text('sparse.legend'));
    assert.ok(await legend.isVisible(), 'the legend is on screen in the step');
    const [computed, skipped] = await page.evaluate(() => {
      const canvas = playgroundRoot().querySelector('[data-pattern="full"] canvas');
      const ctx = canvas.getContext('2d');
      const at = (x, y) => [...ctx.getImageData(Math.round(x * canvas.width), Math.round(y * canvas.height), 1, 1).data];
      return [at(0.02, 0.98), at(0.98, 0.02)]; // the last query's first key; the first query's last key
    });
    const [r, g, b] = computed;
    assert.ok(r > 200 && g > 200 && b < 100, `a computed pair is yellow, drawn ${computed}`);
    const [gr, gg, gb] = skipped;
    assert.ok(Math.max(gr, gg, gb) - Math.min(gr, gg, gb) < 12 && gr > 90, `a skipped pair is grey, drawn ${skipped}`);
  } finally {
    await page.close();
  }
});

test('compare: the similarity map\'s head numbers stand upright, centred over their columns', async () => {
  const page = await openPage(h, '#chapter=heads&step=5', { asIs: true, waitForResult: false });
  try {
    await chapterDrawn(page);
    const canvas = page.locator('[data-panel="compare"] canvas').first();
    await canvas.waitFor();
    await page.waitForFunction(() => playgroundRoot().querySelector('[data-panel="compare"] canvas')?.width > 50);
    const found = await canvas.evaluate((c) => {
      const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
      const alpha = (x, y) => data[(y * c.width + x) * 4 + 3];
      // The cells: the first row of pixels with a long opaque run, and that run's ends.
      let top = -1, x0 = -1, x1 = -1;
      for (let y = 0; y < c.height && top < 0; y++) {
        let run = 0;
        for (let x = 0; x < c.width; x++) {
          run = alpha(x, y) === 255 ? run + 1 : 0;
          if (run > c.width / 4) { top = y; x1 = x; x0 = x - run + 1; }
        }
        if (top >= 0) while (x1 + 1 < c.width && alpha(x1 + 1, y) === 255) x1++;
      }
      const heads = 4, cell = (x1 - x0 + 1) / heads;
      // Each column's label: the mean x of the ink above the cells, in that column's span.
      const offsets = [];
      for (let j = 0; j < heads; j++) {
        let sum = 0, n = 0;
        for (let y = 0; y < top; y++) for (let x = Math.floor(x0 + j * cell); x < x0 + (j + 1) * cell; x++) if (alpha(x, y) > 128) { sum += x; n++; }
        offsets.push(n ? sum / n - (x0 + (j + 0.5) * cell) : NaN);
      }
      return { offsets, dpr: devicePixelRatio };
    });
    for (const [j, off] of found.offsets.entries()) {
      assert.ok(Math.abs(off) <= 1 * found.dpr, `head ${j + 1}'s number: its ink is centred over its column (at 45° it leans right) (${off.toFixed(1)} px off)`);
    }
  } finally {
    await page.close();
  }
});
