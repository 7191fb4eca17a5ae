// Issue 9's engine items through the JavaScript API, in both modules: finite logits whose
// unscaled sum q·k overflows float32 (item 1), NaN made inside a layer (item 2), sizes past the
// engine's limit (item 4), and calls whose work is refused up front with the limit in the
// message (item 5). Each used to give a silent wrong answer, crash or run for hours.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/src/engine/attention.js';

const modules = { simd: await loadAttention({ simd: true }), scalar: await loadAttention({ simd: false }) };

const throwsWith = (fn, pattern) => assert.throws(fn, (e) => {
  assert.ok(e instanceof Error, `expected an Error, got ${typeof e}: ${e}`);
  assert.match(e.message, pattern);
  return true;
});

/** Largest |a[i] − b[i]|, with its index. */
function worst(a, b) {
  let err = -1, at = -1;
  for (let i = 0; i < b.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    if (!(d <= err)) { err = d; at = i; }
  }
  return { err, at, got: a[at], want: b[at] };
}

// d_k 16, so α = 1/4: q = 16 × 4.8e18 against keys of 16 × (±4.8e18) gives α·q·k = ±9.2e37
// (finite) while the unscaled sum is ±3.7e38 (beyond float's 3.4e38).
const D_K = 16, BIG = 4.8e18;
const keysWithSigns = (signs) => Float32Array.from(signs.flatMap((s) => Array(D_K).fill(s * BIG)));
const SIGN_CASES = [
  { name: 'every key opposite to q', signs: [-1, -1, -1], weights: [1 / 3, 1 / 3, 1 / 3], output: [3, 4] },
  { name: 'key 0 along q, the others opposite', signs: [1, -1, -1], weights: [1, 0, 0], output: [1, 2] },
  { name: 'every key along q', signs: [1, 1, 1], weights: [1 / 3, 1 / 3, 1 / 3], output: [3, 4] },
];

for (const [isa, attn] of Object.entries(modules)) {
  test(`${isa}: finite logits whose unscaled sum overflows give the true answer, never zeros or "masked" (item 1)`, () => {
    const q = new Float32Array(D_K).fill(BIG), v = Float32Array.from([1, 2, 3, 4, 5, 6]);
    for (const c of SIGN_CASES) {
      for (const need_weights of [true, false]) {
        const r = attn.scaledDotProductAttention({ q, k: keysWithSigns(c.signs), v, n_q: 1, n_k: 3, d_k: D_K, d_v: 2, need_weights });
        const what = `${c.name}, need_weights ${need_weights}`;
        assert.deepEqual(r.masked_rows, [], `${what}: reported as fully masked`);
        const o = worst(r.output, c.output);
        assert.ok(o.err <= 1e-5, `${what}: output ${Array.from(r.output)}, want ${c.output}`);
        if (need_weights) assert.ok(worst(r.weights, c.weights).err <= 1e-6, `${what}: weights ${Array.from(r.weights)}`);
      }
    }
  });

  test(`${isa}: the same on the streaming path (600 queries against 4,200 equal keys) (item 1)`, () => {
    // 512 rows × 4,200 keys is past the whole-row scratch: the first query block streams over key
    // tiles, the last 88 rows take whole rows. Equal logits: every output is the mean of v.
    const n_q = 600, n_k = 4200;
    const q = new Float32Array(n_q * D_K).fill(BIG), k = new Float32Array(n_k * D_K).fill(-BIG);
    const v = new Float32Array(n_k * 2);
    for (let j = 0; j < n_k; j++) { v[2 * j] = (j % 7) - 3; v[2 * j + 1] = (j % 5) / 4; }
    const mean = [0, 0];
    for (let j = 0; j < n_k; j++) { mean[0] += v[2 * j] / n_k; mean[1] += v[2 * j + 1] / n_k; }
    const r = attn.scaledDotProductAttention({ q, k, v, n_q, n_k, d_k: D_K, d_v: 2 });
    assert.deepEqual(r.masked_rows, []);
    const want = Array.from({ length: n_q * 2 }, (_, x) => mean[x % 2]);
    const o = worst(r.output, want);
    assert.ok(o.err <= 1e-5, `output ${o.got} at ${o.at}, want ${o.want}`);
  });

  test(`${isa}: a layer whose Q and K projections carry such logits gives the true answer (item 1)`, () => {
    const d_model = D_K;
    const mha = new attn.MultiHeadAttention({ d_model, n_heads: 1, bias: false });
    const identity = new Float32Array(d_model * d_model);
    for (let i = 0; i < d_model; i++) identity[i * d_model + i] = 1;
    mha.setWeights({ wq: identity, wk: identity, wv: identity, wo: identity });
    const value = new Float32Array(3 * d_model);
    for (let j = 0; j < 3; j++) { value[j * d_model] = 2 * j + 1; value[j * d_model + 1] = 2 * j + 2; }
    for (const c of SIGN_CASES) {
      for (const need_weights of [true, false]) {
        const r = mha.forward({ query: new Float32Array(d_model).fill(BIG), key: keysWithSigns(c.signs), value, n_q: 1, n_k: 3,
          need_weights });
        const what = `${c.name}, need_weights ${need_weights}`;
        assert.deepEqual(r.masked_rows, [], `${what}: reported as fully masked`);
        const want = new Array(d_model).fill(0);
        want[0] = c.output[0];
        want[1] = c.output[1];
        assert.ok(worst(r.output, want).err <= 1e-5, `${what}: output ${Array.from(r.output.slice(0, 3))}`);
        if (need_weights) assert.ok(worst(r.weights, c.weights).err <= 1e-6, `${what}: weights ${Array.from(r.weights)}`);
      }
    }
    mha.delete();
  });

  test(`${isa}: a projection that overflows to NaN or ±∞ is refused by stage, never a masked row (item 2)`, () => {
    // The repro: Wq all 2 turns the query [3e38, −3e38] into ∞ − ∞ = NaN.
    const identity = Float32Array.from([1, 0, 0, 1]), twos = new Float32Array(4).fill(2);
    const layer = (w) => {
      const mha = new attn.MultiHeadAttention({ d_model: 2, n_heads: 1, bias: false });
      mha.setWeights({ wq: identity, wk: identity, wv: identity, wo: identity, ...w });
      return mha;
    };
    const mixed = Float32Array.from([3e38, -3e38]), same = Float32Array.from([3e38, 3e38]);
    const cases = [
      [{ wq: twos }, mixed, identity, identity, /the query projection overflowed float32 \(batch item 0, head 0, NaN\)/],
      [{ wq: twos }, same, identity, identity, /the query projection overflowed float32 \(batch item 0, head 0, ±Infinity\)/],
      [{ wk: twos }, identity, Float32Array.from([3e38, -3e38, 1, 1]), identity, /the key projection overflowed float32/],
      [{ wv: twos }, identity, identity, Float32Array.from([1, 1, 3e38, 3e38]), /the value projection overflowed float32/],
    ];
    for (const [w, query, key, value, message] of cases) {
      const mha = layer(w);
      for (const need_weights of [true, false]) {
        throwsWith(() => mha.forward({ query, key, value, n_q: query.length / 2, n_k: 2, need_weights }), message);
      }
      mha.delete();
    }
  });

  test(`${isa}: sizes past the engine's limit are refused by name (item 4)`, () => {
    // Plain attention now holds every size to 2^20, as a layer does, so no product of sizes can wrap.
    const n = 2 ** 20 + 1;
    throwsWith(() => attn.scaledDotProductAttention({ q: new Float32Array(n), k: new Float32Array(n), v: new Float32Array(1),
      n_q: 1, n_k: 1, d_k: n, d_v: 1 }), /d_k \(1,048,577\) is larger than the 1,048,576 this engine accepts/);
    throwsWith(() => attn.scaledDotProductAttention({ q: new Float32Array(n), k: new Float32Array(1), v: new Float32Array(1),
      n_q: n, n_k: 1, d_k: 1, d_v: 1 }), /n_q \(1,048,577\) is larger than the 1,048,576 this engine accepts/);
  });

  test(`${isa}: calls whose work would take minutes are refused at once, giving the limit (item 5)`, () => {
    // The calls: the √d_k product 2^21·2^21·2^22 wrapped to 0; the positional table is O(n²·d_model).
    throwsWith(() => attn.sqrtDkStats({ d_k: 2 ** 21, n_k: 2 ** 21, samples: 2 ** 22 }), /d_k and n_k must each be at most 1,048,576/);
    throwsWith(() => attn.sqrtDkStats({ d_k: 2 ** 20, n_k: 2 ** 20, samples: 2 ** 24 }),
      /√d_k statistics: d_k·n_k·samples must be at most 50,000,000 to finish within a few seconds \(got more than 18,446,744,073,709,551,615\)/);
    throwsWith(() => attn.positionalProperties({ n: 4096, d_model: 16384 }),
      /positional properties: n·\(n − 1\)\/2·d_model must be at most [\d,]+ to finish within a few seconds \(got 137,405,399,040\)/);
    // What the page asks for stays well inside: 64 positions at d_model 16,384.
    const p = attn.positionalProperties({ n: 64, d_model: 16384, k: 3 });
    assert.ok(p.max_abs <= 1 && p.min_distance > 0, JSON.stringify(p));
    const s = attn.sqrtDkStats({ d_k: 64, n_k: 64, samples: 50 });
    assert.ok(Math.abs(s.scaled_variance - 1) < 0.2, JSON.stringify(s));
    // matmul: 2,000 × 2,000 × 2,001 multiply-adds fit the memory budget (48 MB) but not the work limit.
    const m = 2000, k = 2000, n = 2001;
    throwsWith(() => attn.matmul({ a: new Float32Array(m * k), b: new Float32Array(k * n), m, k, n }),
      /matmul: m·k·n must be at most 8,000,000,000 to finish within a few seconds \(got 8,004,000,000\)/);
  });
}
