// RoPE and ALiBi through the JS API (forward, trace, backward, alibiSlopes, ropeLogits) on both
// modules, against a float64 layer written here from the definitions; and the worker pool on
// ALiBi, whose slopes depend on a head's place in the whole layer, against the single module.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { modules } from './modules.mjs';
import { linear, normwiseError, randomArray } from './reference.mjs';
import { createAttentionPool } from '../../web/src/engine/pool.js';
import { forwardArguments } from '../../web/src/model/job.js';

/** The ALiBi paper's get_slopes, as it reads (powers of two, else closest power + every other of 2×). */
function paperSlopes(n) {
  const pow2 = (p) => {
    const start = 2 ** (-(2 ** -(Math.log2(p) - 3)));
    return Array.from({ length: p }, (_, i) => start * start ** i);
  };
  if (Number.isInteger(Math.log2(n))) return pow2(n);
  const closest = 2 ** Math.floor(Math.log2(n));
  return [...pow2(closest), ...paperSlopes(2 * closest).filter((_, i) => i % 2 === 0).slice(0, n - closest)];
}

/** Rotates each pair (2t, 2t+1) of every d_k slice of row r by r·base^(−2t/d_k), in place (float64). */
function rotate(x, rows, width, d_k, base) {
  for (let r = 0; r < rows; r++) {
    for (let c0 = 0; c0 < width; c0 += d_k) {
      for (let t = 0; t < d_k / 2; t++) {
        const a = r * base ** (-2 * t / d_k), at = r * width + c0 + 2 * t;
        const x0 = x[at], x1 = x[at + 1];
        x[at] = Math.cos(a) * x0 - Math.sin(a) * x1;
        x[at + 1] = Math.sin(a) * x0 + Math.cos(a) * x1;
      }
    }
  }
}

/** The layer in float64 with a positional method and a causal/sliding mask; GQA by n_kv_heads. */
function reference({ query, key, value, batch, n_q, n_k, d_model, n_heads, n_kv_heads, d_k, d_v, w, causal = false,
  window = 0, positional = 'none', rope_base = 10000 }) {
  const G = n_heads / n_kv_heads, slopes = paperSlopes(n_heads);
  const out = new Float64Array(batch * n_q * d_model);
  const sees = (i, j) => !((causal || window) && j > i) && !(window && j <= i - window);
  for (let b = 0; b < batch; b++) {
    const Q = linear(query.subarray(b * n_q * d_model), n_q, d_model, w.wq, w.bq, n_heads * d_k);
    const K = linear(key.subarray(b * n_k * d_model), n_k, d_model, w.wk, w.bk, n_kv_heads * d_k);
    const V = linear(value.subarray(b * n_k * d_model), n_k, d_model, w.wv, w.bv, n_kv_heads * d_v);
    if (positional === 'rope') {
      rotate(Q, n_q, n_heads * d_k, d_k, rope_base);
      rotate(K, n_k, n_kv_heads * d_k, d_k, rope_base);
    }
    const concat = new Float64Array(n_q * n_heads * d_v);
    for (let h = 0; h < n_heads; h++) {
      const g = Math.floor(h / G);
      for (let i = 0; i < n_q; i++) {
        const s = new Float64Array(n_k).fill(-Infinity);
        let max = -Infinity;
        for (let j = 0; j < n_k; j++) {
          if (!sees(i, j)) continue;
          let dot = 0;
          for (let c = 0; c < d_k; c++) dot += Q[i * n_heads * d_k + h * d_k + c] * K[j * n_kv_heads * d_k + g * d_k + c];
          s[j] = dot / Math.sqrt(d_k) - (positional === 'alibi' ? slopes[h] * Math.abs(i - j) : 0);
          max = Math.max(max, s[j]);
        }
        let z = 0;
        for (let j = 0; j < n_k; j++) z += Math.exp(s[j] - max);
        for (let j = 0; j < n_k; j++) {
          const p = Math.exp(s[j] - max) / z;
          for (let c = 0; c < d_v; c++) concat[i * n_heads * d_v + h * d_v + c] += p * V[j * n_kv_heads * d_v + g * d_v + c];
        }
      }
    }
    out.set(linear(concat, n_q, n_heads * d_v, w.wo, w.bo, d_model), b * n_q * d_model);
  }
  return out;
}

function assertClose(what, actual, expected, tolerance) {
  const e = normwiseError(actual, expected);
  assert.ok(e.error <= tolerance, `${what}: normwise error ${e.error.toExponential(2)} > ${tolerance} (worst at ${e.at}: ${e.actual} vs ${e.expected})`);
}

const CASES = [
  { name: 'causal self, batch 2', d_model: 16, n_heads: 4, n_kv_heads: 4, d_k: 4, d_v: 4, batch: 2, n_q: 7, n_k: 7, causal: true },
  { name: 'GQA 4→2, cross n_q ≠ n_k, no mask', d_model: 16, n_heads: 4, n_kv_heads: 2, d_k: 4, d_v: 6, batch: 1, n_q: 5, n_k: 9 },
  { name: '3 heads, sliding window 2', d_model: 12, n_heads: 3, n_kv_heads: 3, d_k: 4, d_v: 4, batch: 1, n_q: 8, n_k: 8, window: 2 },
  { name: '1 head, rope_base 50', d_model: 8, n_heads: 1, n_kv_heads: 1, d_k: 8, d_v: 8, batch: 1, n_q: 6, n_k: 6, causal: true, rope_base: 50 },
  { name: '6 heads', d_model: 12, n_heads: 6, n_kv_heads: 6, d_k: 2, d_v: 2, batch: 1, n_q: 5, n_k: 5 },
];

function buildCase(attn, c, positional, seed) {
  const config = { d_model: c.d_model, n_heads: c.n_heads, n_kv_heads: c.n_kv_heads, d_k: c.d_k, d_v: c.d_v };
  const mha = new attn.MultiHeadAttention(config);
  const w = mha.getWeights();
  let k = 0;
  for (const name of Object.keys(w)) if (w[name]) w[name] = randomArray(w[name].length, seed + k++, 0.6);
  mha.setWeights(w);
  const self = c.n_q === c.n_k;
  const query = randomArray(c.batch * c.n_q * c.d_model, seed + 20);
  const key = self ? query : randomArray(c.batch * c.n_k * c.d_model, seed + 21);
  const input = { query, batch: c.batch, n_q: c.n_q, positional };
  if (!self) Object.assign(input, { key, value: key, n_k: c.n_k });
  if (c.causal) input.mask = 'causal';
  if (c.window) Object.assign(input, { mask: 'sliding', window: c.window });
  if (c.rope_base && positional === 'rope') input.rope_base = c.rope_base; // only RoPE has a base (refused otherwise)
  const ref = { ...c, query, key, value: key, w, positional };
  return { mha, w, input, ref, config };
}

for (const [isa, attn] of Object.entries(modules)) {
  test(`${isa}: alibiSlopes follow the paper's rule for 1, 3, 5, 6, 8, 12 heads`, () => {
    for (const n of [1, 3, 5, 6, 8, 12]) {
      const got = attn.alibiSlopes({ n_heads: n }), want = paperSlopes(n);
      assert.equal(got.length, n);
      got.forEach((m, h) => assert.ok(Math.abs(m - want[h]) <= 1e-12 * want[h], `n_heads ${n} head ${h}: ${m} vs ${want[h]}`));
    }
    assert.deepEqual(attn.alibiSlopes({ n_heads: 6 }).slice(4), [0.5, 0.125]);
  });

  test(`${isa}: forward with positional 'rope' and 'alibi' matches float64 (GQA, cross, sliding, batch)`, () => {
    let seed = 100;
    for (const c of CASES) {
      for (const positional of ['rope', 'alibi']) {
        const { mha, input, ref } = buildCase(attn, c, positional, seed += 7);
        try {
          const want = reference(ref);
          assertClose(`${c.name} ${positional}`, mha.forward(input).output, want, 1e-5);
          assertClose(`${c.name} ${positional} need_weights`, mha.forward({ ...input, need_weights: true }).output, want, 1e-5);
          // Not silently off: without the method the output differs (and without its base: none has one).
          const { rope_base, ...withoutBase } = input;
          assert.ok(normwiseError(mha.forward({ ...withoutBase, positional: 'none' }).output, want).error > 1e-4, `${c.name} ${positional} changes nothing`);
        } finally {
          mha.delete();
        }
      }
    }
  });

  test(`${isa}: backward with RoPE and ALiBi: gradients match float64 central differences`, () => {
    const c = { d_model: 8, n_heads: 2, n_kv_heads: 2, d_k: 4, d_v: 4, batch: 2, n_q: 5, n_k: 5, causal: true };
    for (const positional of ['rope', 'alibi']) {
      const { mha, input, ref, w } = buildCase(attn, c, positional, positional === 'rope' ? 7 : 9);
      try {
        const dy = randomArray(c.batch * c.n_q * c.d_model, 3);
        const r = mha.backward({ ...input, grad_output: dy });
        assertClose(`${positional} output`, r.output, reference(ref), 1e-5);
        const loss = () => reference(ref).reduce((s, y, i) => s + y * dy[i], 0);
        for (const name of ['wq', 'wk', 'wv', 'bq']) {
          const x = Float64Array.from(w[name]);
          ref.w = { ...w, [name]: x };
          const fd = x.map((x0, i) => {
            x[i] = x0 + 1e-5;
            const up = loss();
            x[i] = x0 - 1e-5;
            const down = loss();
            x[i] = x0;
            return (up - down) / 2e-5;
          });
          assertClose(`${positional} d${name}`, r.grads[name], fd, 1e-4);
        }
        ref.w = w;
      } finally {
        mha.delete();
      }
    }
  });

  test(`${isa}: the trace shows the rotated q and ALiBi's bias and slope, and forward's weights`, () => {
    const c = CASES[0];
    for (const positional of ['rope', 'alibi']) {
      const { mha, input } = buildCase(attn, c, positional, 31);
      try {
        const full = mha.forward({ ...input, need_weights: true });
        const head = 2, query_index = 4, item = 1;
        const t = mha.trace({ ...input, head, query_index, item });
        const row = full.weights.subarray(((item * c.n_heads + head) * c.n_q + query_index) * c.n_k, ((item * c.n_heads + head) * c.n_q + query_index + 1) * c.n_k);
        assert.deepEqual(Array.from(t.weights), Array.from(row));
        if (positional === 'alibi') {
          const m = paperSlopes(4)[head];
          assert.equal(t.slope, m);
          assert.deepEqual(Array.from(t.bias), Array.from({ length: c.n_k }, (_, j) => Math.fround(-m * Math.abs(query_index - j)) + 0)); // + 0: the engine has 0, not −0, on the diagonal
        } else {
          assert.equal(t.bias, null);
          assert.equal(t.slope, null);
          const plain = mha.trace({ ...input, positional: 'none', head, query_index, item });
          // A rotation keeps each pair's length and turns it by query_index radians for t = 0.
          assert.ok(Math.abs(Math.hypot(t.q[0], t.q[1]) - Math.hypot(plain.q[0], plain.q[1])) < 1e-5);
          const a = query_index;
          assert.ok(Math.abs(t.q[0] - (Math.cos(a) * plain.q[0] - Math.sin(a) * plain.q[1])) < 1e-5);
        }
      } finally {
        mha.delete();
      }
    }
  });

  test(`${isa}: ropeLogits depend on the offset only`, () => {
    const q = randomArray(8, 1), k = randomArray(8, 2);
    const same = attn.ropeLogits({ q, k, offset: 2, positions: [2, 9, 40, 300] });
    for (const x of same) assert.ok(Math.abs(x - same[0]) < 1e-5, `${same}`);
    const other = attn.ropeLogits({ q, k, offset: 3, positions: [3] });
    assert.ok(Math.abs(other[0] - same[0]) > 1e-3);
    assert.throws(() => attn.ropeLogits({ q: randomArray(3, 1), k: randomArray(3, 2), positions: [0] }), /d_k must be even/);
  });

  test(`${isa}: positional errors name the problem`, () => {
    const odd = new attn.MultiHeadAttention({ d_model: 6, n_heads: 2, d_k: 3, d_v: 3 });
    const x = randomArray(4 * 6, 5);
    try {
      assert.throws(() => odd.forward({ query: x, n_q: 4, positional: 'rope' }), /d_k must be even \(got d_k 3\)/);
      assert.throws(() => odd.backward({ query: x, n_q: 4, positional: 'rope', grad_output: x }), /d_k must be even/);
      assert.throws(() => odd.forward({ query: x, n_q: 4, positional: 'sinusoid' }), /positional must be 'none' or 'rope' or 'alibi', got "sinusoid"/);
      assert.throws(() => odd.forward({ query: x, n_q: 4, positional: 'alibi', rope_base: 'big' }), /rope_base must be a finite number/);
      assert.throws(() => odd.forward({ query: x, n_q: 4, positional: 'alibi', head_offset: 1, layer_heads: 2 }), /head_offset 1 and layer_heads 2/);
      assert.throws(() => attn.scaledDotProductAttention({ q: x, k: x, v: x, n_q: 4, n_k: 4, d_k: 6, positional: 'rope' }), /unknown option 'positional'/);
      // An odd d_k is fine without RoPE.
      assert.equal(odd.forward({ query: x, n_q: 4, positional: 'alibi' }).output.length, 24);
    } finally {
      odd.delete();
    }
  });

  // Issue 35, item 17: rope_base was silently ignored with positional 'none' or 'alibi' while window with
  // a mask other than 'sliding' is refused. One rule: an option that does not apply is refused by name.
  test(`${isa}: rope_base is refused unless positional is 'rope' (forward, backward, trace, decodeStep), as window is without 'sliding'`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 8, n_heads: 2, seed: 4 });
    const x = randomArray(4 * 8, 6);
    try {
      for (const positional of [undefined, 'none', 'alibi']) {
        const shown = positional ?? 'none';
        const refused = new RegExp(`rope_base is only used with positional 'rope' \\(positional is '${shown}'\\)$`);
        for (const rope_base of [500, 10000]) { // the default value given is still an option that does not apply
          const args = { query: x, n_q: 4, rope_base, ...(positional ? { positional } : {}) };
          assert.throws(() => mha.forward(args), refused, `forward, positional ${shown}, rope_base ${rope_base}`);
          assert.throws(() => mha.backward({ ...args, grad_output: x }), refused, `backward, positional ${shown}`);
          assert.throws(() => mha.trace({ ...args, query_index: 1 }), refused, `trace, positional ${shown}`);
          const cache = attn.createKVCache(mha, { max_len: 2 });
          assert.throws(() => mha.decodeStep({ x: x.subarray(0, 8), cache, rope_base, ...(positional ? { positional } : {}) }), refused,
            `decodeStep, positional ${shown}`);
          assert.equal(cache.length, 0, 'a refused step leaves the cache as it was');
          cache.delete();
        }
        assert.throws(() => mha.forward({ query: x, n_q: 4, mask: 'none', window: 2 }), /window is only used with mask 'sliding' \(mask is 'none'\)/);
      }
      // With RoPE a base applies; an absent one is 10000.
      const absent = mha.forward({ query: x, n_q: 4, positional: 'rope' }).output;
      assert.deepEqual(mha.forward({ query: x, n_q: 4, positional: 'rope', rope_base: 10000 }).output, absent);
      assert.notDeepEqual(mha.forward({ query: x, n_q: 4, positional: 'rope', rope_base: 50 }).output, absent);
    } finally {
      mha.delete();
    }
  });
}

test('the page sends rope_base only with RoPE and window only with the sliding mask (forwardArguments)', () => {
  const base = { batch: 1, n_q: 4, n_k: 4, scale: true, dropout: 0, dropout_seed: 1, mask: 'none', window: null, stride: null, rope_base: 500 };
  const inputs = { query: new Float32Array(32) };
  for (const positional of ['none', 'alibi']) {
    const args = forwardArguments({ ...base, positional }, inputs);
    assert.ok(!('rope_base' in args), `positional ${positional}: rope_base sent (${JSON.stringify(Object.keys(args))})`);
    assert.ok(!('window' in args), 'window sent without the sliding mask');
  }
  assert.equal(forwardArguments({ ...base, positional: 'rope' }, inputs).rope_base, 500);
  assert.equal(forwardArguments({ ...base, mask: 'sliding', window: 3, positional: 'none' }, inputs).window, 3);
});

// The pool splits the heads over workers: each worker's heads must get their slopes in the whole layer.
let pools = [];
before(async () => {
  pools = await Promise.all([2, 3, 4].map((workers) => createAttentionPool({ workers, simd: true, splitFlops: 0 })));
});
after(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

test('pool: ALiBi and RoPE on 2, 3 and 4 workers equal the single module (4, 6 heads, GQA)', async () => {
  const attn = modules.simd;
  for (const config of [{ d_model: 16, n_heads: 4 }, { d_model: 24, n_heads: 6 }, { d_model: 24, n_heads: 6, n_kv_heads: 3 }]) {
    const single = new attn.MultiHeadAttention(config);
    const w = single.getWeights();
    let k = 0;
    for (const name of Object.keys(w)) if (w[name]) w[name] = randomArray(w[name].length, 50 + k++, 0.6);
    single.setWeights(w);
    try {
      for (const pool of pools) {
        const layer = await pool.layer(config);
        await layer.setWeights(w);
        try {
          for (const positional of ['alibi', 'rope']) {
            const input = { query: randomArray(2 * 9 * config.d_model, 7), batch: 2, n_q: 9, mask: 'causal', positional, need_weights: true };
            const want = single.forward(input);
            const got = await layer.forward(input);
            assert.ok(layer.lastWorkers >= 2, `the pass was not split (${layer.lastWorkers} workers)`);
            const what = `${pool.workers} workers, ${config.n_heads} heads/${config.n_kv_heads ?? config.n_heads} kv, ${positional}`;
            assertClose(`${what} output`, got.output, want.output, 1e-5);
            assertClose(`${what} weights`, got.weights, want.weights, 1e-6);
          }
        } finally {
          layer.delete();
        }
      }
    } finally {
      single.delete();
    }
  }
});
