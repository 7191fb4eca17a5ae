// The backward pass through the JavaScript API, both wasm modules: every gradient of
// mha.backward and attn.scaledDotProductAttentionBackward against float64 central differences
// (masks, dropout, the scale off, cross-attention, d_k ≠ d_v, batch, tails, grouped-query
// attention, head_mask), its output and weights against forward, the self-attention sum rule of
// the README, into, bad input, leaks.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { modules } from './modules.mjs';
import { centralDifferences, dot, mhaForward64, sdpaForward64 } from './backward_reference.mjs';
import { normwiseError, randomArray } from './reference.mjs';

// Float32 gradients against float64 central differences (h = 1e-4, error O(h²) ≈ 1e-8),
// normwise per tensor; the float32 sums behind them err by about 1e-6 (see test_backward.cpp).
const TOLERANCE = 5e-5;

const worst = { simd: 0, scalar: 0 };
after(() => console.log(`backward, max normwise gradient error against float64 central differences: ` +
  `SIMD ${worst.simd.toExponential(2)}, baseline ${worst.scalar.toExponential(2)}`));

const f64 = (x) => Float64Array.from(x);

// A case's float64 central differences are the same for both modules when the arrays they read are (the
// seeded inputs always; a layer's weights, the engine's own, when both modules make the same): computed
// once, and reused under the same key only when every array read equals the first module's to the bit.
const references = new Map();
const sameBits = (a, b) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
function sharedCentralDifferences(key, read, x, loss) {
  const seen = references.get(key);
  if (seen && seen.read.length === read.length && seen.read.every((a, i) => sameBits(a, read[i]))) return seen.expected;
  const expected = centralDifferences(x, loss);
  references.set(key, { read: read.map((a) => a.slice()), expected });
  return expected;
}
const maxAbs = (x) => x.reduce((m, v) => Math.max(m, Math.abs(v)), 0);

// One gradient against its central differences. floor: the smallest scale to divide by, for a
// gradient that is 0 in exact arithmetic (bk: softmax ignores the constant q·bk added to a row).
function checkGradient(isa, name, actual, expected, floor = 0) {
  assert.equal(actual.length, expected.length, `${name}: length`);
  const e = normwiseError(actual, expected);
  const scale = maxAbs(expected);
  const error = scale < floor ? e.error * (scale > 0 ? scale / floor : 1 / floor) : e.error;
  worst[isa] = Math.max(worst[isa], error);
  assert.ok(error <= TOLERANCE, `gradient of ${name}: normwise error ${error.toExponential(2)} > ${TOLERANCE} ` +
    `(worst at ${e.at}: ${e.actual} vs ${e.expected})`);
}

const matrixMask = (n_q, n_k) => Uint8Array.from({ length: n_q * n_k }, (_, i) => (i < n_k || (i * 7) % 5 === 0 ? 1 : 0));

const MHA_CASES = [
  { name: 'self, bias', d_model: 8, n_heads: 2, batch: 1, n_q: 5, mask: 'none' },
  { name: 'self, causal + padding (batch item 1 sees no key)', d_model: 8, n_heads: 2, batch: 2, n_q: 6,
    mask: { causal: true, padding: [5, 0] } },
  { name: 'cross, matrix mask (query 0 sees no key)', d_model: 12, n_heads: 3, batch: 1, n_q: 4, n_k: 9, cross: true,
    mask: 'matrix' },
  { name: 'self, causal, dropout 0.3', d_model: 8, n_heads: 2, batch: 2, n_q: 7, mask: 'causal', dropout: 0.3, seed: 5 },
  { name: 'cross, unscaled', d_model: 8, n_heads: 4, batch: 1, n_q: 5, n_k: 3, cross: true, mask: 'none', scale: false },
  { name: 'd_k ≠ d_v, no bias, cross, padding, dropout', d_model: 6, n_heads: 3, d_k: 2, d_v: 5, bias: false, batch: 2,
    n_q: 3, n_k: 5, cross: true, mask: { padding: [5, 2] }, dropout: 0.2 },
  { name: 'grouped-query attention (4 heads, 2 key/value heads), cross, dropout', d_model: 8, n_heads: 4, n_kv_heads: 2,
    batch: 2, n_q: 4, n_k: 6, cross: true, mask: 'none', dropout: 0.25 },
  { name: 'multi-query attention, head_mask [1, 0, 0.5]', d_model: 9, n_heads: 3, n_kv_heads: 1, batch: 1, n_q: 5,
    mask: 'causal', head_mask: [1, 0, 0.5] },
];

function buildMha(attn, c, index) {
  const bias = c.bias ?? true;
  const mha = new attn.MultiHeadAttention({ d_model: c.d_model, n_heads: c.n_heads, n_kv_heads: c.n_kv_heads, d_k: c.d_k,
    d_v: c.d_v, bias, seed: 3 + index });
  const weights = mha.getWeights();
  if (bias) { // non-zero biases, so that their gradients are really tested
    for (const b of ['bq', 'bk', 'bv', 'bo']) weights[b] = randomArray(weights[b].length, 70 + index, 0.5);
    mha.setWeights(weights);
  }
  const n_k = c.n_k ?? c.n_q;
  const mask = c.mask === 'matrix' ? matrixMask(c.n_q, n_k) : c.mask;
  const query = randomArray(c.batch * c.n_q * c.d_model, 10 + index);
  const key = c.cross ? randomArray(c.batch * n_k * c.d_model, 20 + index) : query;
  const value = c.cross ? randomArray(c.batch * n_k * c.d_model, 30 + index) : query;
  const grad_output = randomArray(c.batch * c.n_q * c.d_model, 40 + index);
  const args = { query, batch: c.batch, n_q: c.n_q, mask, scale: c.scale ?? true, dropout: c.dropout ?? 0, seed: c.seed ?? 1 };
  if (c.head_mask) args.head_mask = c.head_mask;
  if (c.cross) Object.assign(args, { key, value, n_k });
  return { mha, weights, args, n_k, mask, query, key, value, grad_output };
}

for (const [isa, attn] of Object.entries(modules)) {
  for (const [index, c] of MHA_CASES.entries()) {
    test(`${isa}: mha.backward, ${c.name}: every gradient matches float64 central differences`, () => {
      const p = buildMha(attn, c, index);
      try {
        const r = p.mha.backward({ ...p.args, grad_output: p.grad_output });
        // The output is forward's, to the bit.
        const fwd = p.mha.forward({ ...p.args, need_weights: true });
        assert.deepEqual(r.output, fwd.output);
        assert.equal(r.weights, null);
        assert.equal(r.score_grads, null);
        assert.equal(r.grads.bq === null, c.bias === false);

        const w64 = Object.fromEntries(Object.entries(p.weights).map(([k, v]) => [k, v && f64(v)]));
        const x64 = { query: f64(p.query), key: f64(p.key), value: f64(p.value) };
        const g64 = f64(p.grad_output);
        const loss = () => dot(g64, mhaForward64({ ...p.args, ...x64, weights: w64, n_k: p.n_k, d_model: c.d_model,
          n_heads: c.n_heads, n_kv_heads: p.mha.n_kv_heads, d_k: p.mha.d_k, d_v: p.mha.d_v }));
        const scales = {};
        for (const name of ['wq', 'wk', 'wv', 'wo', 'bq', 'bk', 'bv', 'bo', 'query', 'key', 'value']) {
          const target = name in w64 ? w64[name] : x64[name];
          if (target === null) continue; // bias off
          const read = [...Object.values(w64).filter(Boolean), x64.query, x64.key, x64.value, g64];
          const expected = sharedCentralDifferences(`mha ${index} ${name}`, read, target, loss);
          if (name[0] === 'w') scales[name[1]] = maxAbs(expected);
          // A bias gradient sums the same terms as its weight's: measured on that scale.
          checkGradient(isa, name, r.grads[name], expected, name[0] === 'b' ? scales[name[1]] : 0);
        }
      } finally {
        p.mha.delete();
      }
    });
  }

  test(`${isa}: self-attention, the input's gradient is grads.query + grads.key + grads.value`, () => {
    const p = buildMha(attn, MHA_CASES[1], 1);
    try {
      const r = p.mha.backward({ ...p.args, grad_output: p.grad_output });
      const w64 = Object.fromEntries(Object.entries(p.weights).map(([k, v]) => [k, f64(v)]));
      const x = f64(p.query), g64 = f64(p.grad_output);
      // One array as query, key and value: a change to it moves all three paths at once.
      const loss = () => dot(g64, mhaForward64({ ...p.args, query: x, key: x, value: x, weights: w64, n_k: p.n_k,
        d_model: 8, n_heads: 2, d_k: 4, d_v: 4 }));
      const sum = r.grads.query.map((q, i) => q + r.grads.key[i] + r.grads.value[i]);
      checkGradient(isa, 'the single input (query + key + value)', sum, centralDifferences(x, loss));
    } finally {
      p.mha.delete();
    }
  });

  test(`${isa}: mha.backward with need_weights returns forward's weights and score gradients that sum to 0 per row`, () => {
    const p = buildMha(attn, MHA_CASES[3], 3);
    try {
      const r = p.mha.backward({ ...p.args, grad_output: p.grad_output, need_weights: true });
      const fwd = p.mha.forward({ ...p.args, need_weights: true });
      assert.deepEqual(r.weights, fwd.weights);
      const n = p.args.n_q;
      assert.equal(r.score_grads.length, 2 * 2 * n * n);
      for (let row = 0; row < r.score_grads.length / n; row++) {
        let sum = 0, mag = 0;
        for (let j = 0; j < n; j++) {
          const s = r.score_grads[row * n + j];
          sum += s;
          mag += Math.abs(s);
          if (j > row % n) assert.ok(s === 0, `masked logit (row ${row}, key ${j}) has gradient ${s}`);
        }
        assert.ok(Math.abs(sum) <= 1e-5 * mag + 1e-30, `row ${row}: Σ dS = ${sum} (Σ|dS| = ${mag})`);
      }
      const lean = p.mha.backward({ ...p.args, grad_output: p.grad_output });
      assert.deepEqual(lean.grads.wq, r.grads.wq);
    } finally {
      p.mha.delete();
    }
  });

  const SDPA_CASES = [
    { batch: 1, n_q: 5, n_k: 9, d_k: 3, d_v: 7, mask: 'none' },
    { batch: 2, n_q: 17, n_k: 4, d_k: 8, d_v: 1, mask: 'causal', dropout: 0.25, seed: 9 },
    { batch: 1, n_q: 70, n_k: 65, d_k: 4, d_v: 3, mask: { padding: [60] } }, // two query steps, two 64-key blocks
    { batch: 2, n_q: 6, n_k: 9, d_k: 5, d_v: 2, mask: 'matrix', scale: false },
  ];
  for (const [index, c] of SDPA_CASES.entries()) {
    test(`${isa}: scaledDotProductAttentionBackward [${c.batch}, ${c.n_q}, ${c.n_k}, d_k ${c.d_k}, d_v ${c.d_v}] matches float64 central differences`, () => {
      const mask = c.mask === 'matrix' ? matrixMask(c.n_q, c.n_k) : c.mask;
      const args = { ...c, mask, q: randomArray(c.batch * c.n_q * c.d_k, 50 + index),
        k: randomArray(c.batch * c.n_k * c.d_k, 60 + index), v: randomArray(c.batch * c.n_k * c.d_v, 70 + index) };
      const grad_output = randomArray(c.batch * c.n_q * c.d_v, 80 + index);
      const r = attn.scaledDotProductAttentionBackward({ ...args, grad_output });
      assert.deepEqual(r.output, attn.scaledDotProductAttention({ ...args, need_weights: true }).output);
      const x64 = { q: f64(args.q), k: f64(args.k), v: f64(args.v) }, g64 = f64(grad_output);
      const loss = () => dot(g64, sdpaForward64({ ...args, ...x64 }));
      for (const name of ['q', 'k', 'v']) {
        checkGradient(isa, name, r.grads[name], sharedCentralDifferences(`sdpa ${index} ${name}`, [x64.q, x64.k, x64.v, g64], x64[name], loss));
      }
    });
  }

  test(`${isa}: backward refuses bad input with messages that name it`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 8, n_heads: 2 });
    const query = randomArray(24, 1), grad_output = randomArray(24, 2);
    try {
      const cases = [
        [{ query, n_q: 3 }, /grad_output is required|grad_output must be a Float32Array, got undefined/],
        [{ query, n_q: 3, grad_output: [1, 2] }, /grad_output must be a Float32Array, got an array of length 2/],
        [{ query, n_q: 3, grad_output: new Float32Array(23) }, /grad_output has 23 values but \[batch, n_q, d_model\] = \[1, 3, 8\] needs 24/],
        [{ query, n_q: 3, grad_output, into: { grads: { wq: new Float32Array(3) } } },
          /into.grads.wq has 3 values but d_model×\(n_heads·d_k\) = 8×8 needs 64/],
        [{ query, n_q: 3, grad_output, into: { grads: { dq: new Float32Array(3) } } }, /into.grads: unknown option 'dq'/],
        [{ query, n_q: 3, grad_output, into: { score_grads: new Float32Array(2 * 9) } },
          /into.score_grads was given but need_weights is false/],
        [{ query, n_q: 3, grad_output, into: { output: grad_output, grads: { query: grad_output } } },
          /into.output and into.grads.query are the same array/],
        [{ query, n_q: 3, grad_output, key: query }, /backward: give both key and value/],
        [{ query, n_q: 3, grad_output, dropout: 1 }, /dropout must be in \[0, 1\)/],
        [{ query, n_q: 3, grad_output: Float32Array.from(grad_output, (x, i) => (i === 7 ? NaN : x)) },
          /grad_output contains NaN at index 7 \(row 0, column 7\)/],
        [{ query, n_q: 3, grad_output, memory_budget: 1000 }, /this backward pass needs [\d,]+ bytes .*over the memory budget of 1,000 bytes/],
      ];
      for (const [args, message] of cases) assert.throws(() => mha.backward(args), message);
      const q = randomArray(8, 3), go = randomArray(10, 4);
      const sdpa = { q, k: randomArray(12, 5), v: randomArray(15, 6), n_q: 2, n_k: 3, d_k: 4, d_v: 5 };
      assert.throws(() => attn.scaledDotProductAttentionBackward(sdpa), /grad_output must be a Float32Array, got undefined/);
      assert.throws(() => attn.scaledDotProductAttentionBackward({ ...sdpa, grad_output: new Float32Array(9) }),
        /grad_output has 9 values but \[batch, n_q, d_v\] = \[1, 2, 5\] needs 10/);
      assert.throws(() => attn.scaledDotProductAttentionBackward({ ...sdpa, grad_output: go, into: { grads: { k: new Float32Array(4) } } }),
        /into.grads.k has 4 values but \[batch, n_k, d_k\] = \[1, 3, 4\] needs 12/);
      assert.throws(() => attn.scaledDotProductAttentionBackward({ ...sdpa, grad_output: go, into: { grads: { dq: go } } }),
        /into.grads: unknown option 'dq'/);
      assert.throws(() => attn.scaledDotProductAttentionBackward({ ...sdpa, k: new Float32Array(11), grad_output: go }),
        /k has 11 values but \[batch, n_k, d_k\] = \[1, 3, 4\] needs 12/);
    } finally {
      mha.delete();
    }
    assert.throws(() => mha.backward({ query, n_q: 3, grad_output }), /this MultiHeadAttention was deleted/);
  });

  test(`${isa}: backward with into writes every result into the caller's arrays and returns them`, () => {
    const p = buildMha(attn, MHA_CASES[5], 5); // no bias: grads.bq … bo stay null
    try {
      const fresh = p.mha.backward({ ...p.args, grad_output: p.grad_output, need_weights: true });
      const into = { output: new Float32Array(fresh.output.length), weights: new Float32Array(fresh.weights.length),
        score_grads: new Float32Array(fresh.score_grads.length), grads: {} };
      for (const [name, g] of Object.entries(fresh.grads)) if (g) into.grads[name] = new Float32Array(g.length);
      const r = p.mha.backward({ ...p.args, grad_output: p.grad_output, need_weights: true, into });
      for (const name of ['output', 'weights', 'score_grads']) {
        assert.equal(r[name], into[name]);
        assert.deepEqual(r[name], fresh[name]);
      }
      for (const [name, g] of Object.entries(fresh.grads)) {
        if (!g) { assert.equal(r.grads[name], null); continue; }
        assert.equal(r.grads[name], into.grads[name], name);
        assert.deepEqual(r.grads[name], g, name);
      }
      // Only some: the others come back as new arrays.
      const some = { grads: { wq: new Float32Array(fresh.grads.wq.length) } };
      const r2 = p.mha.backward({ ...p.args, grad_output: p.grad_output, into: some });
      assert.equal(r2.grads.wq, some.grads.wq);
      assert.deepEqual(r2.grads.wk, fresh.grads.wk);
      // A call that fails writes nothing.
      const untouched = new Float32Array(fresh.grads.wq.length);
      assert.throws(() => p.mha.backward({ ...p.args, grad_output: p.grad_output, memory_budget: 10, into: { grads: { wq: untouched } } }));
      assert.ok(untouched.every((x) => x === 0));
    } finally {
      p.mha.delete();
    }
  });

  test(`${isa}: backward leaves no allocation behind, after results and after errors`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 16, n_heads: 4 });
    const query = randomArray(5 * 16, 1), grad_output = randomArray(5 * 16, 2);
    try {
      mha.backward({ query, n_q: 5, grad_output, need_weights: true }); // the kernels' scratch grows once
      attn.scaledDotProductAttentionBackward({ q: query, k: query, v: query, n_q: 5, n_k: 5, d_k: 16, grad_output });
      const before = attn.heapAllocated();
      for (let i = 0; i < 5; i++) {
        mha.backward({ query, n_q: 5, grad_output, need_weights: i % 2 === 0 });
        attn.scaledDotProductAttentionBackward({ q: query, k: query, v: query, n_q: 5, n_k: 5, d_k: 16, grad_output });
        assert.throws(() => mha.backward({ query, n_q: 5, grad_output, memory_budget: 100 }));
        assert.throws(() => mha.backward({ query, n_q: 5, grad_output: Float32Array.from(grad_output, () => Infinity) }));
      }
      assert.equal(attn.heapAllocated(), before);
    } finally {
      mha.delete();
    }
  });
}

test('SIMD and baseline modules give the same gradients (to float32 rounding)', () => {
  const grads = Object.values(modules).map((attn) => {
    const p = buildMha(attn, { d_model: 32, n_heads: 4, batch: 2, n_q: 33, mask: 'causal', dropout: 0.1 }, 7);
    try {
      return p.mha.backward({ ...p.args, grad_output: p.grad_output }).grads;
    } finally {
      p.mha.delete();
    }
  });
  for (const name of Object.keys(grads[0])) {
    const e = normwiseError(grads[0][name], f64(grads[1][name]));
    // bk is 0 in exact arithmetic (see checkGradient): its rounding is measured on wk's scale.
    const error = name === 'bk' ? e.error * maxAbs(grads[1].bk) / maxAbs(grads[1].wk) : e.error;
    assert.ok(error <= 1e-5, `${name}: SIMD vs baseline normwise ${error.toExponential(2)}`);
  }
});
