// Masks 'sliding' (window) and 'strided' (stride) through the JS API on both modules:
// scaledDotProductAttention against float64 loops (whole rows, weights, long keys), the layer's
// forward, backward and trace against the same pattern as an explicit matrix, maskGrid, the
// visible pairs analyze counts, the errors, and the worker pool against the single module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modules } from './modules.mjs';
import { normwiseError, randomArray } from './reference.mjs';
import { createAttentionPool } from '../../web/src/engine/pool.js';

/** The rule as the issue states it. */
const sees = ({ window = 0, stride = 0 }, i, j) =>
  j <= i && (window ? j > i - window : i - j < stride || (i - j) % stride === 0);

function sdpaReference(q, k, v, batch, n_q, n_k, d_k, d_v, m) {
  const output = new Float64Array(batch * n_q * d_v), weights = new Float64Array(batch * n_q * n_k);
  for (let b = 0; b < batch; b++) {
    for (let i = 0; i < n_q; i++) {
      const s = new Float64Array(n_k).fill(-Infinity);
      let max = -Infinity;
      for (let j = 0; j < n_k; j++) {
        if (!sees(m, i, j)) continue;
        let dot = 0;
        for (let c = 0; c < d_k; c++) dot += q[(b * n_q + i) * d_k + c] * k[(b * n_k + j) * d_k + c];
        s[j] = dot / Math.sqrt(d_k);
        max = Math.max(max, s[j]);
      }
      if (max === -Infinity) continue; // no visible key: zeros
      let z = 0;
      for (let j = 0; j < n_k; j++) z += Math.exp(s[j] - max);
      for (let j = 0; j < n_k; j++) {
        const p = Math.exp(s[j] - max) / z;
        weights[(b * n_q + i) * n_k + j] = p;
        for (let c = 0; c < d_v; c++) output[(b * n_q + i) * d_v + c] += p * v[(b * n_k + j) * d_v + c];
      }
    }
  }
  return { output, weights };
}

const matrixOf = (m, n_q, n_k) => Uint8Array.from({ length: n_q * n_k }, (_, x) => (sees(m, Math.floor(x / n_k), x % n_k) ? 0 : 1));
const maskOptions = (m) => (m.window ? { mask: 'sliding', window: m.window } : { mask: 'strided', stride: m.stride });
// Edge cases on purpose: window 1 and ≥ n, stride 1 and > n.
const PATTERNS = [{ window: 1 }, { window: 3 }, { window: 400 }, { stride: 1 }, { stride: 3 }, { stride: 500 }];

function assertClose(what, actual, expected, tolerance) {
  const e = normwiseError(actual, expected);
  assert.ok(e.error <= tolerance, `${what}: normwise error ${e.error.toExponential(2)} > ${tolerance} (worst at ${e.at}: ${e.actual} vs ${e.expected})`);
}

for (const [isa, attn] of Object.entries(modules)) {
  test(`${isa}: scaledDotProductAttention with sliding and strided masks matches float64`, () => {
    let seed = 1;
    for (const m of PATTERNS) {
      for (const [batch, n_q, n_k] of [[2, 9, 9], [1, 5, 12], [1, 200, 200]]) {
        const d_k = 6, d_v = 4;
        const q = randomArray(batch * n_q * d_k, seed++, 2), k = randomArray(batch * n_k * d_k, seed++, 2);
        const v = randomArray(batch * n_k * d_v, seed++, 2);
        const want = sdpaReference(q, k, v, batch, n_q, n_k, d_k, d_v, m);
        const what = `${JSON.stringify(m)} batch ${batch} n_q ${n_q} n_k ${n_k}`;
        const args = { q, k, v, batch, n_q, n_k, d_k, d_v, ...maskOptions(m) };
        const r = attn.scaledDotProductAttention({ ...args, need_weights: true });
        assertClose(`${what} output`, r.output, want.output, 1e-6);
        assertClose(`${what} weights`, r.weights, want.weights, 1e-6);
        assertClose(`${what} without weights`, attn.scaledDotProductAttention(args).output, want.output, 1e-6);
      }
    }
  });

  test(`${isa}: the layer's forward, backward and trace with sparse masks equal them with the pattern as a matrix`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 12, n_heads: 3, seed: 4 });
    try {
      for (const m of [{ window: 2 }, { stride: 3 }, { window: 1 }]) {
        const batch = 2, n_q = 7, n_k = 10;
        const query = randomArray(batch * n_q * 12, 8), key = randomArray(batch * n_k * 12, 9);
        const base = { query, key, value: key, batch, n_q, n_k, need_weights: true };
        const a = mha.forward({ ...base, ...maskOptions(m) }), b = mha.forward({ ...base, mask: matrixOf(m, n_q, n_k) });
        assert.deepEqual(a.output, b.output, JSON.stringify(m));
        assert.deepEqual(a.weights, b.weights);
        const grad_output = randomArray(batch * n_q * 12, 10);
        const ga = mha.backward({ ...base, ...maskOptions(m), grad_output }), gb = mha.backward({ ...base, mask: matrixOf(m, n_q, n_k), grad_output });
        for (const name of ['wq', 'wk', 'wv', 'query', 'key']) assert.deepEqual(ga.grads[name], gb.grads[name], name);
        assert.deepEqual(ga.score_grads, gb.score_grads);
        const t = mha.trace({ ...base, ...maskOptions(m), item: 1, head: 2, query_index: 6 });
        assert.deepEqual(Array.from(t.weights), Array.from(a.weights.subarray(((1 * 3 + 2) * n_q + 6) * n_k, ((1 * 3 + 2) * n_q + 7) * n_k)));
        assert.ok(normwiseError(mha.forward({ ...base, mask: 'none' }).output, a.output).error > 1e-4);
      }
    } finally {
      mha.delete();
    }
  });

  test(`${isa}: maskGrid and analyze count exactly the visible pairs`, () => {
    for (const m of PATTERNS) {
      for (const [n, step] of [[11, 1], [11, 3], [64, 5]]) {
        const grid = attn.maskGrid({ ...maskOptions(m), n_q: n, n_k: n, row_step: step, col_step: step });
        const cols = Math.ceil(n / step);
        for (let r = 0; r < cols; r++) {
          for (let c = 0; c < cols; c++) {
            let all = true;
            for (let i = r * step; i < Math.min(n, (r + 1) * step); i++) for (let j = c * step; j < Math.min(n, (c + 1) * step); j++) all &&= !sees(m, i, j);
            assert.equal(grid[r * cols + c], all ? 1 : 0, `${JSON.stringify(m)} n ${n} step ${step} cell ${r},${c}`);
          }
        }
        let pairs = 0;
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) pairs += sees(m, i, j) ? 1 : 0;
        const s = attn.analyze({ d_model: 16, n_heads: 2, n, batch: 3, ...maskOptions(m) }).sparse;
        assert.equal(s.visible_pairs, pairs, JSON.stringify(m));
        assert.equal(s.total_pairs, n * n);
        assert.equal(s.score_flops, 2 * 3 * 2 * pairs * 8);
        assert.equal(s.dense_score_flops, 2 * 3 * 2 * n * n * 8);
      }
    }
    assert.equal(attn.analyze({ d_model: 16, n_heads: 2, n: 10, mask: 'causal' }).sparse.visible_pairs, 55);
    assert.equal(attn.analyze({ d_model: 16, n_heads: 2, n: 10 }).sparse.visible_pairs, 100);
  });

  test(`${isa}: sparse mask errors name the field`, () => {
    const x = randomArray(16, 1);
    const f = (extra) => () => attn.scaledDotProductAttention({ q: x, k: x, v: x, n_q: 4, n_k: 4, d_k: 4, ...extra });
    assert.throws(f({ mask: 'sliding' }), /mask 'sliding' needs window/);
    assert.throws(f({ mask: 'strided' }), /mask 'strided' needs stride/);
    assert.throws(f({ mask: 'sliding', window: 0 }), /window must be at least 1, got 0/);
    assert.throws(f({ mask: 'strided', stride: -2 }), /stride must be at least 1, got -2/);
    assert.throws(f({ mask: 'sliding', window: 2.5 }), /window must be a whole number, got 2.5/);
    assert.throws(f({ mask: 'sliding', window: '2' }), /window must be a number, got "2"/);
    assert.throws(f({ mask: 'causal', window: 2 }), /window is only used with mask 'sliding' \(mask is 'causal'\)/);
    assert.throws(f({ mask: 'sliding', window: 2, stride: 2 }), /stride is only used with mask 'strided' \(mask is 'sliding'\)/);
    assert.throws(f({ stride: 2 }), /stride is only used with mask 'strided'/);
    assert.throws(f({ mask: 'windowed' }), /unknown mask 'windowed'.*'sliding' with window/);
    const view = attn.resolveView({ d_model: 8, n_heads: 2, n_q: 4, mask: 'sliding' });
    assert.equal(view.ok, false);
    assert.match(view.message, /needs window/);
    assert.equal(attn.resolveView({ d_model: 8, n_heads: 2, n_q: 4, mask: 'sliding', window: 2 }).ok, true);
  });
}

test('pool: sliding and strided masks on 3 workers equal the single module', async () => {
  const pool = await createAttentionPool({ workers: 3, simd: true, splitFlops: 0 });
  const single = new modules.simd.MultiHeadAttention({ d_model: 24, n_heads: 6, seed: 3 });
  try {
    const layer = await pool.layer({ d_model: 24, n_heads: 6, seed: 3 });
    for (const m of [{ window: 3 }, { stride: 4 }, { window: 2, padding: [11, 6] }]) {
      const sparse = m.padding ? { mask: { ...m } } : maskOptions(m);
      const input = { query: randomArray(2 * 11 * 24, 5), batch: 2, n_q: 11, ...sparse, need_weights: true };
      const want = single.forward(input), got = await layer.forward(input);
      assert.ok(layer.lastWorkers >= 2);
      assertClose(`${JSON.stringify(m)} output`, got.output, want.output, 1e-5);
      assertClose(`${JSON.stringify(m)} weights`, got.weights, want.weights, 1e-6);
    }
    layer.delete();
  } finally {
    single.delete();
    await pool.close();
  }
});

test('the object form { window } or { stride } (with padding) equals the string form and the padded matrix', () => {
  const attn = modules.scalar;
  const q = randomArray(2 * 8 * 4, 1), v = randomArray(2 * 8 * 4, 2);
  const base = { q, k: q, v, batch: 2, n_q: 8, n_k: 8, d_k: 4, need_weights: true };
  for (const m of [{ window: 3 }, { stride: 3 }]) {
    const a = attn.scaledDotProductAttention({ ...base, ...maskOptions(m) });
    assert.deepEqual(attn.scaledDotProductAttention({ ...base, mask: { ...m } }).output, a.output);
    const padded = attn.scaledDotProductAttention({ ...base, mask: { ...m, padding: [8, 5] } });
    // Item 1 with keys ≥ 5 hidden too, against the float64 loop on a matrix of both rules.
    const want = sdpaReference(q.subarray(8 * 4), q.subarray(8 * 4), v.subarray(8 * 4), 1, 8, 8, 4, 4, m);
    const hidden = (i, j) => !sees(m, i, j) || j >= 5;
    const ref = attn.scaledDotProductAttention({ ...base, batch: 1, q: q.subarray(8 * 4), k: q.subarray(8 * 4), v: v.subarray(8 * 4),
      mask: Uint8Array.from({ length: 64 }, (_, x) => (hidden(Math.floor(x / 8), x % 8) ? 1 : 0)) });
    assert.deepEqual(padded.output.subarray(8 * 4), ref.output);
    assert.deepEqual(padded.output.subarray(0, 8 * 4), a.output.subarray(0, 8 * 4));
    assert.ok(normwiseError(a.output.subarray(8 * 4), want.output).error < 1e-6);
  }
  assert.throws(() => attn.scaledDotProductAttention({ ...base, mask: { window: 2, stride: 2 } }), /not both/);
  assert.throws(() => attn.scaledDotProductAttention({ ...base, mask: { window: 0 } }), /mask.window must be at least 1/);
});
