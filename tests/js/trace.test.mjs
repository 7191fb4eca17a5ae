// The trace of one query through the JavaScript API, both modules: mha.trace and
// attn.traceAttention give the forward pass's weights and output rows bit for bit (with
// need_weights), their steps follow from each other as the softmax defines them, they agree with
// a float64 reference and with the paths without weights within a derived bound; masks, fully
// masked rows, dropout, cross-attention, d_k ≠ d_v, scale off; bad indices; no leak.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { modules } from './modules.mjs';
import { linear, maskFunction, mhaReference, normwiseError, randomArray } from './reference.mjs';

// Against float64: the suite's bar, normwise 1e-5 (weights lie in [0, 1]: absolute 1e-5).
const TOLERANCE = 1e-5;
// float's unit roundoff, 2^-24.
const U = 2 ** -24;

/** Index of the first element whose value differs (Object.is: −0 ≠ +0), or −1. */
function firstDifference(a, b) {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

function assertSameBits(actual, expected, what) {
  const at = firstDifference(actual, expected);
  assert.equal(at, -1, `${what}: first difference at ${at}: ${actual[at]} vs ${expected[at]} (lengths ${actual.length}, ${expected.length})`);
}

/**
 * The forward passes without weights sum Σ_j w_j·v_jx in another order (unnormalised weights
 * divided afterwards, or key tiles with an online softmax). Each float result is within
 * (n_k + 16)·u·Σ_j |w_j·v_jx| of the exact one (the dot product's bound plus a few roundings per
 * term), so two differ by at most twice that: the bound per element of a head's output row.
 */
function pvBound(w, v, n_k, d_v, ldv = d_v, offset = 0) {
  const bound = new Float64Array(d_v);
  for (let x = 0; x < d_v; x++) {
    let s = 0;
    for (let j = 0; j < n_k; j++) s += Math.abs(w[j] * v[j * ldv + offset + x]);
    bound[x] = 2 * (n_k + 16) * U * s;
  }
  return bound;
}

/** The largest |a − b| / bound (an exact match counts 0). */
function worstRatio(a, b, bound) {
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    if (d !== 0) worst = Math.max(worst, bound[i] > 0 ? d / bound[i] : Infinity);
  }
  return worst;
}

/**
 * The steps of a traced row must follow from one another as the engine's softmax defines
 * them: logits = fround(score·α) or −∞ where masked, max, exp(logit − max), their sum,
 * weights = fround(exp · fround(1/sum)) (then 0 where dropped, · keep_scale where kept).
 */
function assertSteps(t, { n_k, masked, dropout }, what) {
  for (const key of ['scores', 'scaled', 'logits', 'exp', 'weights']) {
    assert.ok(t[key] instanceof Float32Array && t[key].length === n_k, `${what}: ${key} is a Float32Array of n_k`);
  }
  assert.ok(t.dropped instanceof Uint8Array && t.dropped.length === n_k, `${what}: dropped is a Uint8Array of n_k`);
  let max = -Infinity, visible = 0;
  for (let j = 0; j < n_k; j++) {
    // Every key's scaled score, before the mask (the page's "scale" stage shows the masked ones too).
    assert.equal(t.scaled[j], Math.fround(t.scores[j] * t.logit_scale), `${what}: scaled ${j} = score · α`);
    if (masked(j)) {
      assert.equal(t.logits[j], -Infinity, `${what}: masked logit ${j}`);
      assert.equal(t.exp[j], 0);
      assert.equal(t.weights[j], 0);
      assert.equal(t.dropped[j], 0, `${what}: masked key ${j} is never flagged as dropped`);
      continue;
    }
    visible++;
    assert.equal(t.logits[j], Math.fround(t.scores[j] * t.logit_scale), `${what}: logit ${j} = score · α`);
    max = Math.max(max, t.logits[j]);
  }
  assert.equal(t.max, max, `${what}: max`);
  assert.equal(t.masked, visible === 0, `${what}: masked flag`);
  if (t.masked) {
    assert.equal(t.sum, 0);
    assert.ok(t.weights.every((w) => w === 0));
    return;
  }
  let sum = 0;
  for (let j = 0; j < n_k; j++) {
    sum += t.exp[j];
    if (masked(j)) continue;
    const e = Math.exp(t.logits[j] - t.max);
    assert.ok(Math.abs(t.exp[j] - e) <= 1e-6 * e, `${what}: exp ${j} ${t.exp[j]} vs ${e}`);
  }
  assert.ok(Math.abs(t.sum - sum) <= 1e-12 * sum, `${what}: sum ${t.sum} vs ${sum}`);
  const inv = Math.fround(1 / t.sum);
  assert.equal(t.keep_scale, dropout > 0 ? Math.fround(1 / Math.fround(1 - Math.fround(dropout))) : 1);
  for (let j = 0; j < n_k; j++) {
    if (masked(j)) continue;
    const softmax = Math.fround(t.exp[j] * inv);
    const want = t.dropped[j] ? 0 : dropout > 0 ? Math.fround(softmax * t.keep_scale) : softmax;
    assert.ok(Object.is(t.weights[j], want), `${what}: weight ${j} is ${t.weights[j]}, its steps give ${want}`);
  }
}

const MHA_CASES = [
  { name: 'self, 4 heads, biases', d_model: 32, n_heads: 4, batch: 2, n_q: 6, mask: 'none' },
  { name: 'cross, d_k ≠ d_v, no bias, padding (item 1 fully masked)', d_model: 24, n_heads: 3, d_k: 5, d_v: 7,
    bias: false, batch: 2, n_q: 5, n_k: 11, cross: true, mask: { padding: [9, 0] } },
  { name: 'self, causal, dropout 0.25', d_model: 16, n_heads: 2, batch: 1, n_q: 9, mask: 'causal', dropout: 0.25 },
  { name: 'cross over key tiles, matrix mask, scale off', d_model: 16, n_heads: 2, batch: 1, n_q: 3, n_k: 140,
    cross: true, mask: 'matrix', scale: false },
  { name: 'causal + padding + dropout, d_k > d_v', d_model: 16, n_heads: 2, d_k: 12, d_v: 3, batch: 2, n_q: 7,
    mask: { causal: true, padding: [7, 4] }, dropout: 0.3 },
];

function buildMhaCase(c, index) {
  const n_k = c.cross ? c.n_k : c.n_q;
  // The matrix hides about a third of the keys, and every key of query row 1.
  const mask = c.mask === 'matrix'
    ? Uint8Array.from({ length: c.n_q * n_k }, (_, i) => (Math.floor(i / n_k) === 1 || (i * 7) % 3 === 0 ? 1 : 0))
    : c.mask;
  const query = randomArray(c.batch * c.n_q * c.d_model, 300 + index);
  const args = { query, batch: c.batch, n_q: c.n_q, mask, scale: c.scale ?? true, dropout: c.dropout ?? 0, seed: 5 + index };
  if (c.cross) {
    args.key = randomArray(c.batch * n_k * c.d_model, 400 + index);
    args.value = randomArray(c.batch * n_k * c.d_model, 500 + index);
    args.n_k = n_k;
  }
  return { args, n_k };
}

// The largest differences seen, printed at the end for the record.
const measured = {};
function record(isa, what, value) {
  const key = `${isa} ${what}`;
  measured[key] = Math.max(measured[key] ?? 0, value);
}
after(() => {
  for (const [key, value] of Object.entries(measured)) console.log(`${key}: ${value.toExponential(2)}`);
});

for (const [isa, attn] of Object.entries(modules)) {
  for (const [index, c] of MHA_CASES.entries()) {
    test(`${isa}: mha.trace, ${c.name}: the forward pass's rows bit for bit, steps, float64, other paths`, () => {
      const mha = new attn.MultiHeadAttention({ d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v,
        bias: c.bias ?? true, seed: 20 + index });
      try {
        const weights = mha.getWeights();
        if (weights.bq) { // non-zero biases, so that "bias included" is really tested
          for (const b of ['bq', 'bk', 'bv', 'bo']) weights[b] = randomArray(weights[b].length, 600 + index, 0.5);
          mha.setWeights(weights);
        }
        const { args, n_k } = buildMhaCase(c, index);
        const { d_model: D, n_heads: H, d_k, d_v } = mha;
        const fwd = mha.forward({ ...args, need_weights: true });
        const scratch = mha.forward(args);
        const ref = mhaReference({ ...args, key: args.key ?? args.query, value: args.value ?? args.query, n_k, d_model: D,
          n_heads: H, d_k, d_v, weights });
        const isMasked = maskFunction(args.mask, n_k);
        for (let b = 0; b < c.batch; b++) {
          const keyRows = (args.key ?? args.query).subarray(b * n_k * D, (b + 1) * n_k * D);
          const valueRows = (args.value ?? args.query).subarray(b * n_k * D, (b + 1) * n_k * D);
          const K = linear(keyRows, n_k, D, weights.wk, weights.bk, H * d_k);
          const V = linear(valueRows, n_k, D, weights.wv, weights.bv, H * d_v);
          for (let i = 0; i < c.n_q; i++) {
            const x = args.query.subarray((b * c.n_q + i) * D, (b * c.n_q + i + 1) * D);
            const Q = linear(x, 1, D, weights.wq, weights.bq, H * d_k);
            for (let h = 0; h < H; h++) {
              const what = `item ${b}, head ${h}, query ${i}`;
              const t = mha.trace({ ...args, item: b, head: h, query_index: i });
              const wrow = ((b * H + h) * c.n_q + i) * n_k;
              // The forward pass's numbers, bit for bit.
              assertSameBits(t.x, x, `${what}: x`);
              assertSameBits(t.weights, fwd.weights.subarray(wrow, wrow + n_k), `${what}: weights`);
              assertSameBits(t.output, fwd.output.subarray((b * c.n_q + i) * D, (b * c.n_q + i + 1) * D), `${what}: output`);
              assert.equal(t.concat.length, H * d_v);
              assertSameBits(t.concat.subarray(h * d_v, (h + 1) * d_v), t.head_output, `${what}: head_output in concat`);
              assertSteps(t, { n_k, masked: (j) => isMasked(b, i, j), dropout: c.dropout ?? 0 }, what);
              const fullyMasked = fwd.masked_rows.some((r) => r.batch === b && r.query === i);
              assert.equal(t.masked, fullyMasked, `${what}: masked as in the forward pass's masked_rows`);
              // float64: this head's projections, the reference's weights and output rows. The
              // reference has no dropout: its weights get the trace's dropout pattern, and the
              // output is then Σ_h (Σ_j w_hj·v_hj)·Wᴼ + bᴼ in float64 from the forward pass's weights.
              const pick = (m, width, stride, off, rows) => Float64Array.from({ length: rows * width },
                (_, e) => m[Math.floor(e / width) * stride + off + (e % width)]);
              const p = c.dropout ?? 0;
              const w64 = ref.weights.subarray(wrow, wrow + n_k).map((w, j) => (p > 0 ? (t.dropped[j] ? 0 : w / (1 - p)) : w));
              let out64 = ref.output.subarray((b * c.n_q + i) * D, (b * c.n_q + i + 1) * D);
              if (p > 0) {
                const concat64 = new Float64Array(H * d_v);
                for (let g = 0; g < H; g++) {
                  const gw = fwd.weights.subarray(((b * H + g) * c.n_q + i) * n_k, ((b * H + g) * c.n_q + i + 1) * n_k);
                  for (let z = 0; z < d_v; z++) {
                    for (let j = 0; j < n_k; j++) concat64[g * d_v + z] += gw[j] * V[j * H * d_v + g * d_v + z];
                  }
                }
                out64 = linear(concat64, 1, H * d_v, weights.wo, weights.bo, D);
              }
              const checks = [
                ['q', t.q, pick(Q, d_k, H * d_k, h * d_k, 1)],
                ['k', t.k, pick(K, d_k, H * d_k, h * d_k, n_k)],
                ['v', t.v, pick(V, d_v, H * d_v, h * d_v, n_k)],
                ['weights', t.weights, w64],
                ['output', t.output, out64],
              ];
              for (const [name, actual, expected] of checks) {
                assert.equal(actual.length, expected.length, `${what}: length of ${name}`);
                const e = name === 'weights'
                  ? { error: Math.max(...actual.map((a, j) => Math.abs(a - expected[j]))) }
                  : normwiseError(actual, expected);
                record(isa, 'mha.trace vs float64 (normwise)', e.error);
                assert.ok(e.error <= TOLERANCE, `${what}: ${name} differs from float64 by ${e.error.toExponential(2)}`);
              }
              // The forward pass without weights: each head's P·V bound carried through Wᴼ, plus the
              // output matmul's own rounding (H·d_v + 2 roundings).
              const concatBound = new Float64Array(H * d_v);
              for (let g = 0; g < H; g++) {
                const gw = fwd.weights.subarray(((b * H + g) * c.n_q + i) * n_k, ((b * H + g) * c.n_q + i + 1) * n_k);
                concatBound.set(pvBound(gw, V, n_k, d_v, H * d_v, g * d_v), g * d_v);
              }
              const outBound = new Float64Array(D);
              for (let y = 0; y < D; y++) {
                let carried = 0, sum = weights.bo ? Math.abs(weights.bo[y]) : 0;
                for (let z = 0; z < H * d_v; z++) {
                  carried += concatBound[z] * Math.abs(weights.wo[z * D + y]);
                  sum += Math.abs(t.concat[z] * weights.wo[z * D + y]);
                }
                outBound[y] = carried + 2 * (H * d_v + 2) * U * sum;
              }
              const other = scratch.output.subarray((b * c.n_q + i) * D, (b * c.n_q + i + 1) * D);
              const ratio = worstRatio(t.output, other, outBound);
              record(isa, 'mha.trace vs forward without weights (normwise)', normwiseError(t.output, other).error);
              record(isa, 'mha.trace vs forward without weights (share of the bound)', ratio);
              assert.ok(ratio <= 1, `${what}: output differs from the forward without weights by ${ratio} of the bound`);
            }
          }
        }
      } finally {
        mha.delete();
      }
    });
  }

  const SDPA_CASES = [
    { name: 'no mask, batch 2', batch: 2, n_q: 4, n_k: 6, d_k: 4, mask: 'none' },
    { name: 'causal, dropout 0.5', batch: 1, n_q: 9, n_k: 9, d_k: 5, d_v: 5, mask: 'causal', dropout: 0.5 },
    { name: 'cross over key tiles, d_k ≠ d_v, padding with an empty item', batch: 2, n_q: 3, n_k: 260, d_k: 12, d_v: 3,
      mask: { padding: [200, 0] } },
    { name: 'scale off, matrix mask', batch: 1, n_q: 5, n_k: 7, d_k: 3, d_v: 6, mask: 'matrix', scale: false },
  ];
  for (const [index, c] of SDPA_CASES.entries()) {
    test(`${isa}: traceAttention, ${c.name}: the forward pass's rows bit for bit, steps, float64, other paths`, () => {
      const d_v = c.d_v ?? c.d_k;
      const mask = c.mask === 'matrix'
        ? Uint8Array.from({ length: c.n_q * c.n_k }, (_, i) => (Math.floor(i / c.n_k) === 1 || i % 3 === 0 ? 1 : 0))
        : c.mask;
      const args = { q: randomArray(c.batch * c.n_q * c.d_k, 700 + index, 1.5), k: randomArray(c.batch * c.n_k * c.d_k, 800 + index, 1.5),
        v: randomArray(c.batch * c.n_k * d_v, 900 + index), batch: c.batch, n_q: c.n_q, n_k: c.n_k, d_k: c.d_k, d_v, mask,
        scale: c.scale ?? true, dropout: c.dropout ?? 0, seed: 3 + index };
      const fwd = attn.scaledDotProductAttention({ ...args, need_weights: true });
      const scratch = attn.scaledDotProductAttention(args);
      const isMasked = maskFunction(mask, c.n_k);
      const alpha = (c.scale ?? true) ? 1 / Math.sqrt(c.d_k) : 1;
      for (let b = 0; b < c.batch; b++) {
        for (let i = 0; i < c.n_q; i++) {
          const what = `item ${b}, query ${i}`;
          const t = attn.traceAttention({ ...args, item: b, query_index: i });
          const row = b * c.n_q + i;
          assertSameBits(t.q, args.q.subarray(row * c.d_k, (row + 1) * c.d_k), `${what}: q`);
          assertSameBits(t.k, args.k.subarray(b * c.n_k * c.d_k, (b + 1) * c.n_k * c.d_k), `${what}: k`);
          assertSameBits(t.v, args.v.subarray(b * c.n_k * d_v, (b + 1) * c.n_k * d_v), `${what}: v`);
          assertSameBits(t.weights, fwd.weights.subarray(row * c.n_k, (row + 1) * c.n_k), `${what}: weights`);
          assertSameBits(t.output, fwd.output.subarray(row * d_v, (row + 1) * d_v), `${what}: output`);
          assertSteps(t, { n_k: c.n_k, masked: (j) => isMasked(b, i, j), dropout: c.dropout ?? 0 }, what);
          assert.equal(t.masked, fwd.masked_rows.some((r) => r.batch === b && r.query === i));
          assert.equal(t.logit_scale, Math.fround(alpha));
          // float64 from the inputs: softmax of the logits (dropout as flagged), then Σ_j w_j·v_j.
          const logits = Array.from({ length: c.n_k }, (_, j) => {
            if (isMasked(b, i, j)) return -Infinity;
            let s = 0;
            for (let x = 0; x < c.d_k; x++) s += t.q[x] * t.k[j * c.d_k + x];
            return s * alpha;
          });
          const max = Math.max(...logits);
          const z = logits.reduce((s, l) => s + (l === -Infinity ? 0 : Math.exp(l - max)), 0);
          const keep = 1 / (1 - (c.dropout ?? 0));
          const w64 = logits.map((l, j) => (max === -Infinity || l === -Infinity || t.dropped[j] ? 0
            : (Math.exp(l - max) / z) * ((c.dropout ?? 0) > 0 ? keep : 1)));
          const out64 = Float64Array.from({ length: d_v }, (_, x) => w64.reduce((s, w, j) => s + w * t.v[j * d_v + x], 0));
          const ew = Math.max(...w64.map((w, j) => Math.abs(w - t.weights[j])));
          const eo = normwiseError(t.output, out64).error;
          record(isa, 'traceAttention vs float64', Math.max(ew, eo));
          assert.ok(ew <= TOLERANCE && eo <= TOLERANCE, `${what}: float64 weights ${ew}, output ${eo}`);
          const other = scratch.output.subarray(row * d_v, (row + 1) * d_v);
          const ratio = worstRatio(t.output, other, pvBound(t.weights, t.v, c.n_k, d_v));
          record(isa, 'traceAttention vs forward without weights (normwise)', normwiseError(t.output, other).error);
          record(isa, 'traceAttention vs forward without weights (share of the bound)', ratio);
          assert.ok(ratio <= 1, `${what}: output differs from the forward without weights by ${ratio} of the bound`);
        }
      }
    });
  }

  test(`${isa}: grouped-query heads and head_mask: the forward pass's rows, and the numbers of the same layer as multi-head`, () => {
    // 6 query heads reading 2 key/value heads (groups of 3); the same layer as multi-head attention
    // with each key/value head's columns repeated for its group computes every number the same.
    const gqa = new attn.MultiHeadAttention({ d_model: 24, n_heads: 6, n_kv_heads: 2, seed: 3 });
    const mha = new attn.MultiHeadAttention({ d_model: 24, n_heads: 6, seed: 3 });
    try {
      const w = gqa.getWeights();
      for (const b of ['bq', 'bk', 'bv', 'bo']) w[b] = randomArray(w[b].length, 40, 0.5);
      gqa.setWeights(w);
      const repeat = (m, rows, width) => Float32Array.from({ length: rows * 6 * width },
        (_, e) => m[Math.floor(e / (6 * width)) * 2 * width + Math.floor((e % (6 * width)) / (3 * width)) * width + (e % width)]);
      mha.setWeights({ ...w, wk: repeat(w.wk, 24, 4), wv: repeat(w.wv, 24, 4), bk: repeat(w.bk, 1, 4), bv: repeat(w.bv, 1, 4) });
      const head_mask = new Float32Array([1, 0, 0.5, 1, 2, 1]);
      const args = { query: randomArray(2 * 5 * 24, 41), key: randomArray(2 * 7 * 24, 42), value: randomArray(2 * 7 * 24, 43),
        batch: 2, n_q: 5, n_k: 7, mask: { causal: true, padding: [7, 3] }, dropout: 0.2, seed: 9, head_mask };
      const fwd = gqa.forward({ ...args, need_weights: true });
      for (let b = 0; b < 2; b++) {
        for (let h = 0; h < 6; h++) {
          for (let i = 0; i < 5; i++) {
            const what = `item ${b}, head ${h}, query ${i}`;
            const t = gqa.trace({ ...args, item: b, head: h, query_index: i });
            const m = mha.trace({ ...args, item: b, head: h, query_index: i });
            assert.equal(t.kv_head, Math.floor(h / 3), `${what}: kv_head`);
            assert.equal(m.kv_head, h);
            const wrow = ((b * 6 + h) * 5 + i) * 7;
            assertSameBits(t.weights, fwd.weights.subarray(wrow, wrow + 7), `${what}: weights`);
            assertSameBits(t.output, fwd.output.subarray((b * 5 + i) * 24, (b * 5 + i + 1) * 24), `${what}: output`);
            // A head switched off (0) writes exact zeros, never −0.
            assertSameBits(t.concat.subarray(h * 4, (h + 1) * 4), t.head_output.map((y) => (head_mask[h] === 0 ? 0 : y * head_mask[h])),
              `${what}: head_output · head_mask in concat`);
            for (const key of ['q', 'k', 'v', 'scores', 'weights', 'head_output', 'concat', 'output']) {
              assertSameBits(t[key], m[key], `${what}: ${key} against the layer as multi-head`);
            }
          }
        }
      }
      assert.throws(() => gqa.trace({ ...args, head_mask: new Float32Array(5), query_index: 0 }), /head_mask/);
    } finally {
      gqa.delete();
      mha.delete();
    }
  });

  test(`${isa}: dropped flags are the forward pass's dropout pattern, kept weights rescaled by 1/(1−p)`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 16, n_heads: 2, seed: 4 });
    const query = randomArray(10 * 16, 77);
    const args = { query, n_q: 10, dropout: 0.4, seed: 9 };
    const dropped = mha.forward({ ...args, need_weights: true });
    const plain = mha.forward({ ...args, training: false, need_weights: true });
    let seen = 0;
    for (let h = 0; h < 2; h++) {
      for (let i = 0; i < 10; i++) {
        const t = mha.trace({ ...args, head: h, query_index: i });
        for (let j = 0; j < 10; j++) {
          const w = plain.weights[(h * 10 + i) * 10 + j], wd = dropped.weights[(h * 10 + i) * 10 + j];
          // Dropped: a weight the softmax gave is 0 in the training forward pass; kept: ·1/(1−p).
          assert.equal(t.dropped[j], w > 0 && wd === 0 ? 1 : 0, `head ${h}, query ${i}, key ${j}`);
          if (!t.dropped[j]) assert.equal(wd, Math.fround(w * t.keep_scale));
          seen += t.dropped[j];
        }
      }
    }
    mha.delete();
    assert.ok(seen > 200 * 0.25 && seen < 200 * 0.55, `${seen} of 200 weights dropped at p = 0.4`);
  });

  test(`${isa}: a fully masked row: weights 0, head output 0, the output row is Wᴼ's bias alone when it is the only head`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 8, n_heads: 1, seed: 4 });
    const w = mha.getWeights();
    w.bo = randomArray(8, 3);
    mha.setWeights(w);
    const t = mha.trace({ query: randomArray(2 * 3 * 8, 5), batch: 2, n_q: 3, mask: { padding: [3, 0] }, item: 1,
      head: 0, query_index: 2 });
    mha.delete();
    assert.equal(t.masked, true);
    assert.equal(t.max, -Infinity);
    assert.equal(t.sum, 0);
    assert.ok(t.weights.every((x) => x === 0) && t.exp.every((x) => x === 0) && t.head_output.every((x) => x === 0));
    assert.ok(t.logits.every((x) => x === -Infinity));
    assertSameBits(t.output, w.bo, 'output');
  });

  test(`${isa}: bad indices name the range; every forward check applies to the trace`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 16, n_heads: 4, seed: 1 });
    const query = randomArray(2 * 3 * 16, 1);
    const args = { query, batch: 2, n_q: 3 };
    const bad = [
      [{ head: 4, query_index: 0 }, 'head 4 is out of range 0…3 (n_heads = 4)'],
      [{ head: -1, query_index: 0 }, 'head -1 is out of range 0…3 (n_heads = 4)'],
      [{ item: 2, query_index: 0 }, 'item 2 is out of range 0…1 (batch = 2)'],
      [{ item: -3, query_index: 0 }, 'item -3 is out of range 0…1 (batch = 2)'],
      [{ query_index: 3 }, 'query_index 3 is out of range 0…2 (n_q = 3)'],
      [{}, 'query_index is required'],
      [{ query_index: 1.5 }, 'query_index must be a whole number, got 1.5'],
      [{ query_index: '1' }, 'query_index must be a number, got "1" (a string)'],
      [{ query_index: 0, head: 2 ** 40 }, 'head is too large'],
      [{ query_index: 0, into: {} }, "trace: unknown option 'into'"],
      [{ query_index: 0, n_q: 4 }, 'query has 96 values but [batch, n_q, d_model] = [2, 4, 16] needs 128'],
      [{ query_index: 0, dropout: 1 }, 'dropout must be in [0, 1)'],
      [{ query_index: 0, mask: 'diagonal' }, "unknown mask 'diagonal'"],
    ];
    for (const [extra, message] of bad) {
      assert.throws(() => mha.trace({ ...args, ...extra }), (e) => e instanceof Error && e.message.includes(message),
        `${JSON.stringify(extra)} should fail with "${message}"`);
    }
    const nan = query.slice();
    nan[20] = NaN;
    assert.throws(() => mha.trace({ ...args, query: nan, query_index: 0 }), /query contains NaN/);
    mha.delete();
    assert.throws(() => mha.trace({ ...args, query_index: 0 }), /deleted/);
    const s = { q: randomArray(6, 1), k: randomArray(8, 2), v: randomArray(8, 3), n_q: 3, n_k: 4, d_k: 2 };
    assert.throws(() => attn.traceAttention({ ...s, query_index: 3 }), /query_index 3 is out of range 0…2 \(n_q = 3\)/);
    assert.throws(() => attn.traceAttention({ ...s, item: 1, query_index: 0 }), /item 1 is out of range 0…0 \(batch = 1\)/);
    assert.throws(() => attn.traceAttention({ ...s, query_index: 0, into: { output: new Float32Array(6) } }), /unknown option 'into'/);
    // need_weights is accepted (the arguments of a forward call can be passed as they are) and changes nothing.
    assertSameBits(attn.traceAttention({ ...s, query_index: 1, need_weights: true }).output,
      attn.traceAttention({ ...s, query_index: 1 }).output, 'need_weights');
    assert.throws(() => attn.traceAttention({ ...s, k: randomArray(7, 2), query_index: 0 }), /k has 7 values/);
  });

  // 600 traces and 200 failing ones, the heap checked after each (it was 2,000 and 1,000 checked at the end):
  // the count is exact and the calls deterministic, so a leaking call shows at once; the 120 kinds of
  // trace (i mod 120: mask, dropout, item, head, query) run 5 times each.
  test(`${isa}: 600 traces, and 200 failing ones, leave the malloc heap where it was, after each of them`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 16, n_heads: 4, seed: 2 });
    const query = randomArray(2 * 8 * 16, 1), q = randomArray(2 * 8 * 4, 2);
    const call = (i) => {
      mha.trace({ query, batch: 2, n_q: 8, mask: i % 3 === 0 ? 'causal' : { padding: [8, 3] }, dropout: i % 5 === 0 ? 0.1 : 0,
        item: i % 2, head: i % 4, query_index: i % 8 });
      attn.traceAttention({ q, k: q, v: q, batch: 2, n_q: 8, n_k: 8, d_k: 4, item: i % 2, query_index: i % 8 });
    };
    const failing = (i) => {
      assert.throws(() => mha.trace({ query, batch: 2, n_q: 8, head: 4 + i, query_index: 0 }), /out of range/);
      assert.throws(() => attn.traceAttention({ q, k: q, v: q, batch: 2, n_q: 8, n_k: 8, d_k: 4, query_index: 8 + i }), /out of range/);
    };
    for (let i = 0; i < 50; i++) { call(i); failing(i); } // warm-up: scratch buffers reach their size
    const before = attn.heapAllocated();
    const check = (what, i) => {
      if (attn.heapAllocated() !== before) assert.fail(`${what} ${i + 1}: malloc'd bytes went from ${before} to ${attn.heapAllocated()}`);
    };
    for (let i = 0; i < 600; i++) { call(i); check('trace', i); }
    for (let i = 0; i < 200; i++) { failing(i); check('failing trace', i); }
    const after = attn.heapAllocated();
    mha.delete();
    assert.equal(after, before, `malloc'd bytes went from ${before} to ${after}`);
  });
}

test('SIMD and baseline modules trace the same query to within float rounding of each other', () => {
  const traces = Object.values(modules).map((attn) => {
    const mha = new attn.MultiHeadAttention({ d_model: 32, n_heads: 4, seed: 8 });
    const t = mha.trace({ query: randomArray(12 * 32, 6), n_q: 12, mask: 'causal', head: 2, query_index: 9 });
    mha.delete();
    return t;
  });
  for (const key of ['x', 'q', 'k', 'v', 'weights', 'head_output', 'concat', 'output']) {
    const e = normwiseError(traces[0][key], Float64Array.from(traces[1][key]));
    assert.ok(e.error <= 1e-6, `${key}: SIMD vs baseline normwise ${e.error.toExponential(2)}`);
  }
});
