// Issue 37: a control of a chapter does something the learner can see in it. In the Why √dₖ chapter (step 2),
// unticking "divide the scores by √d_k" redraws the softmax row (text and pixels change) and the row
// sharpens, its weights the softmax of the engine's seeded scores recomputed here in float64; in the
// positions chapter (step 3), none / RoPE / ALiBi each redraw the large map (its canvas pixels and its words).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, chapterDrawn } from './harness.mjs';
import { engine } from './reference.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

/** The softmax of `scores` / divisor in float64. */
function softmax(scores, divisor) {
  const z = scores.map((s) => s / divisor), max = Math.max(...z);
  const e = z.map((x) => Math.exp(x - max)), sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}

test('Why √dₖ: the √d_k checkbox redraws the row, which sharpens without the scale (weights against float64)', async () => {
  const page = await openPage(h, '#chapter=scaling&step=2', { asIs: true, waitForResult: false });
  try {
    await chapterDrawn(page);
    const panel = page.locator('section[data-panel="sqrtdk"]');
    const readRow = () => page.waitForFunction(() => {
      const bars = [...playgroundRoot().querySelectorAll('#sqrtdk-row .sq-bar')];
      return bars.length ? { weights: bars.map((b) => Number(b.dataset.weight)), text: playgroundRoot().querySelector('section[data-panel="sqrtdk"]').innerText } : null;
    }).then((x) => x.jsonValue());
    const on = await readRow();
    const shotOn = await panel.screenshot();
    await page.locator('[data-field="scale"] input').click();
    await page.waitForFunction((before) => playgroundRoot().querySelector('section[data-panel="sqrtdk"]').innerText !== before, on.text);
    const off = await readRow();
    const shotOff = await panel.screenshot();
    assert.notEqual(off.text, on.text, 'the text changes with the checkbox');
    assert.ok(!shotOn.equals(shotOff), 'the pixels change with the checkbox');

    // The weights: softmax of the engine's own seeded q·k (input_seed 7, d_k = 64 / 4 = 16), divided by 4 or not.
    const attn = await engine();
    const d_k = 16, keys = on.weights.length;
    const q = attn.randomNormal({ seed: 7, count: d_k }), k = attn.randomNormal({ seed: 8, count: keys * d_k });
    const scores = Array.from({ length: keys }, (_, j) => { let s = 0; for (let t = 0; t < d_k; t++) s += q[t] * k[j * d_k + t]; return s; });
    for (const [got, divisor, name] of [[on.weights, 4, 'scaled'], [off.weights, 1, 'unscaled']]) {
      const want = softmax(scores, divisor);
      const err = Math.max(...want.map((w, j) => Math.abs(w - got[j])));
      assert.ok(err < 1e-5, `${name} row: page ${got.map((w) => w.toFixed(4))} against ${want.map((w) => w.toFixed(4))}`);
    }
    assert.ok(Math.max(...off.weights) > Math.max(...on.weights) + 0.1, `the row sharpens: ${Math.max(...on.weights)} → ${Math.max(...off.weights)}`);
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});

test('positions: none, RoPE and ALiBi each redraw the large map (pixels and words)', async () => {
  const page = await openPage(h, '#chapter=positions&step=3', { asIs: true, waitForResult: false });
  try {
    await chapterDrawn(page);
    const seen = {};
    for (const method of ['none', 'rope', 'alibi']) {
      if (method !== 'none') await page.locator('[data-field="positional"] select').selectOption(method);
      seen[method] = await page.waitForFunction((m) => {
        const fig = playgroundRoot().querySelector('#pe-chosen');
        const canvas = fig?.querySelector('canvas');
        if (fig?.dataset.method !== m || !canvas?.width) return null;
        return { pixels: canvas.toDataURL(), words: fig.innerText };
      }, method).then((x) => x.jsonValue());
    }
    for (const [a, b] of [['none', 'rope'], ['rope', 'alibi'], ['none', 'alibi']]) {
      assert.notEqual(seen[a].pixels, seen[b].pixels, `${a} and ${b} draw the same map`);
      assert.notEqual(seen[a].words, seen[b].words, `${a} and ${b} say the same`);
    }
    assert.match(seen.alibi.words, /ALiBi/);
    assert.match(seen.rope.words, /RoPE/);
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});
