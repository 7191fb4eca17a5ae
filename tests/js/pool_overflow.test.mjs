// The pool's sum of partial outputs keeps the engine's promise: a finite output or the
// single-threaded forward's "the output overflowed float32 …" error (issue 23, item 2). The weights
// are built so that each worker's partial output is finite (2·10³⁸) but their sum is not (4·10³⁸).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClose, singleForward, withPool } from './pool_helpers.mjs';

// d_model 2, two heads of d_k = d_v = 1, no biases: Wᴽ = Wᴷ = 0 (uniform attention over the keys
// allowed), Wⱽ copies feature 0 into both heads' values, and each head's row of Wᴼ sends its
// output to feature 0 times `big`. With a causal mask, query i of an item averages feature 0 of
// keys 0…i; only rows whose average is 1 reach 2·big, past float32's largest value (3.4·10³⁸).
const CONFIG = { d_model: 2, n_heads: 2, bias: false, seed: 1 };

function weights(big) {
  return {
    wq: new Float32Array(4), wk: new Float32Array(4),
    wv: Float32Array.from([1, 1, 0, 0]), // row-major d_model × (n_heads·d_v)
    wo: Float32Array.from([big, 0, big, 0]), // (n_heads·d_v) × d_model: head h's row is [big, 0]
  };
}

// Batch 2, n_q 4: item 0 is all zeros; in item 1 only key 3 has feature 0 = 4, so query 3 of item 1
// averages 1 and overflows, every other row is 0 or 0 + finite.
function input(need_weights) {
  const query = new Float32Array(2 * 4 * 2);
  query[(1 * 4 + 3) * 2] = 4;
  return { query, batch: 2, n_q: 4, mask: 'causal', need_weights };
}

for (const sign of [1, -1]) {
  test(`partial outputs that are finite alone but sum to ${sign > 0 ? '+' : '−'}∞ are refused with the single-threaded message`, () =>
    withPool({ workers: 2, splitFlops: 0 }, CONFIG, async (layer) => {
      const W = weights(sign * 2e38);
      await layer.setWeights(W);
      // A pass the same shape whose sum stays finite runs split: the test below is about the split sum.
      const fine = { ...input(true), query: new Float32Array(16) };
      assertClose('finite pass', (await layer.forward(fine)).output, singleForward(CONFIG, W, fine).output);
      assert.equal(layer.lastWorkers, 2);
      for (const need_weights of [false, true]) {
        let expected;
        assert.throws(() => singleForward(CONFIG, W, input(need_weights)), (e) => { expected = e.message; return true; });
        assert.match(expected, /^the output overflowed float32 at batch item 1, query 3: /);
        await assert.rejects(layer.forward(input(need_weights)), { message: expected });
        // The caller's arrays are left as they were: a call that throws writes nothing into them.
        const into = { output: new Float32Array(16).fill(7) };
        if (need_weights) into.weights = new Float32Array(2 * 2 * 16).fill(7);
        await assert.rejects(layer.forward({ ...input(need_weights), into }), { message: expected });
        assert.ok(into.output.every((x) => x === 7), 'into.output untouched');
        if (need_weights) assert.ok(into.weights.every((x) => x === 7), 'into.weights untouched');
      }
      // Each worker's own part is finite: the single-threaded forward of one head (the other switched
      // off by head_mask) gives 2·10³⁸ at that row.
      const one = singleForward(CONFIG, W, { ...input(false), head_mask: [1, 0] });
      assert.equal(one.output[(1 * 4 + 3) * 2], Math.fround(sign * 2e38));
      // The layer still works.
      assertClose('after the refusals', (await layer.forward(fine)).output, singleForward(CONFIG, W, fine).output);
    }));
}
