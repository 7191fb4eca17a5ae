// The engine-derived values the scaling and positions chapters added (issue 37): the √d_k lab's row
// (features/sqrtdk/handler.js) against a float64 softmax of the same seeded q·k, scaled and not; the
// positions panel's maps at a typed rope_base (features/positional/handler.js): RoPE's map changes with the
// base, its logits stay equal along each offset, and the other methods ignore it.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/src/engine/attention.js';
import { handlers as sqrtdk } from '../../web/src/features/sqrtdk/handler.js';
import { handlers as positional } from '../../web/src/features/positional/handler.js';

let attn;
before(async () => { attn = await loadAttention(); });

/** softmax(scores / divisor) in float64. */
function softmax(scores, divisor) {
  const z = scores.map((s) => s / divisor), max = Math.max(...z);
  const e = z.map((x) => Math.exp(x - max)), sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}

for (const d_k of [1, 16, 64, 257]) {
  test(`the √d_k lab's row at d_k = ${d_k}: the seeded q·k and both softmax rows against float64`, () => {
    const keys = 8, seed = 11;
    const r = sqrtdk.sqrtDkRow({ d_k, keys, seed }, { attn });
    const q = attn.randomNormal({ seed, count: d_k }), k = attn.randomNormal({ seed: seed + 1, count: keys * d_k });
    const scores = Array.from({ length: keys }, (_, j) => { let s = 0; for (let t = 0; t < d_k; t++) s += q[t] * k[j * d_k + t]; return s; });
    for (let j = 0; j < keys; j++) assert.ok(Math.abs(r.unscaled.scores[j] - scores[j]) < 1e-4 * Math.max(1, Math.abs(scores[j])), `score ${j}: ${r.unscaled.scores[j]} vs ${scores[j]}`);
    for (const [row, divisor] of [[r.scaled, Math.sqrt(d_k)], [r.unscaled, 1]]) {
      const want = softmax(scores, divisor);
      const err = Math.max(...want.map((w, j) => Math.abs(w - row.weights[j])));
      assert.ok(err < 1e-5, `d_k ${d_k}, divisor ${divisor}: max error ${err}`);
    }
    if (d_k === 1) assert.deepEqual(r.scaled.weights, r.unscaled.weights, 'd_k = 1: dividing by 1 changes nothing');
    else assert.ok(Math.max(...r.unscaled.weights) > Math.max(...r.scaled.weights), 'the unscaled row is sharper');
  });
}

test('the positions panel at a typed rope_base: RoPE\'s map follows it, equal logits along each offset, ALiBi and none unchanged', () => {
  const side = { attn };
  const plain = positional.positionMethods({ n_heads: 4, d_k: 16, seed: 1 }, side);
  const based = positional.positionMethods({ n_heads: 4, d_k: 16, seed: 1, rope_base: 50 }, side);
  const diff = (a, b) => Math.max(...Array.from(a, (x, i) => Math.abs(x - b[i])));
  assert.ok(diff(plain.maps.rope, based.maps.rope) > 1e-3, 'the RoPE map changes with the base');
  assert.equal(diff(plain.maps.alibi, based.maps.alibi), 0);
  assert.equal(diff(plain.maps.none, based.maps.none), 0);
  for (const row of based.rope) for (const x of row.logits) assert.ok(Math.abs(x - row.logits[0]) < 2e-4, `offset ${row.offset}: ${Array.from(row.logits)}`);
  assert.ok(diff(plain.rope[1].logits, based.rope[1].logits) > 1e-4, 'the logits per offset change with the base');
  // The maps rows sum to 1 (causal, every row sees at least itself).
  for (const name of ['none', 'rope', 'alibi']) {
    for (let i = 0; i < based.n; i++) {
      const s = based.maps[name].slice(i * based.n, (i + 1) * based.n).reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(s - 1) < 1e-5, `${name} row ${i} sums to ${s}`);
    }
  }
});

test('FlashAttention\'s first view (the chapter\'s n = 10, d_k = 16, the core\'s blocks for M): tiling moves less; with B_r = 1 it moves more', async () => {
  const labs = await attn.labs();
  const n = 10, d = 16;
  const [query, key, value] = [1, 2, 3].map((seed) => labs.randomNormal({ seed, count: n * d }));
  const io = (block_q) => labs.flashAttention({ query, key, value, n_q: n, n_k: n, d_k: d, d_v: d, block_k: 3, ...(block_q ? { block_q } : {}), trace: { query_index: n - 1 } }).io;
  const first = io(undefined), small = io(1);
  assert.equal(first.query_blocks, 1, 'the paper\'s B_r for M = 1,024 covers the 10 queries');
  // Independent count: standard reads Q, K, V, S, P and writes S, P, O; tiled reads Q once, K and V once per query block, writes O.
  const standard = 2 * n * d + 4 * n * n + n * d + n * d;
  assert.equal(first.standard.total, standard);
  assert.equal(first.tiled.total, n * d + first.query_blocks * n * 2 * d + n * d);
  assert.ok(first.tiled.total < first.standard.total, `tiled ${first.tiled.total} < standard ${first.standard.total}`);
  assert.equal(small.query_blocks, n);
  assert.ok(small.tiled.total > small.standard.total, `B_r = 1: tiled ${small.tiled.total} > standard ${small.standard.total}`);
});
