// The JavaScript API against a float64 reference: both wasm modules, random problems
// (self, cross, masks, d_k ≠ d_v, padding, batch), and their agreement with each other.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { modules } from './modules.mjs';
import { mhaReference, normwiseError, randomArray } from './reference.mjs';

// Float32 against float64, normwise over the tensor: accumulated rounding of float32
// matmuls with d_model ≤ 96 stays well below this.
const TOLERANCE = 1e-5;

const CASES = [
  { name: 'self, 4 heads', d_model: 32, n_heads: 4, batch: 1, n_q: 7, n_k: 7, mask: 'none' },
  { name: 'self, causal, batch 2', d_model: 48, n_heads: 6, batch: 2, n_q: 13, n_k: 13, mask: 'causal' },
  { name: 'cross n_q ≠ n_k', d_model: 40, n_heads: 5, batch: 1, n_q: 5, n_k: 11, mask: 'none', cross: true },
  { name: 'cross, padding', d_model: 32, n_heads: 2, batch: 3, n_q: 9, n_k: 17, mask: { padding: [17, 4, 1] }, cross: true },
  { name: 'd_k ≠ d_v, no bias', d_model: 24, n_heads: 3, d_k: 5, d_v: 11, bias: false, batch: 2, n_q: 6, n_k: 6, mask: 'none' },
  { name: 'explicit matrix mask', d_model: 16, n_heads: 2, batch: 1, n_q: 5, n_k: 9, mask: 'matrix', cross: true },
  { name: 'unscaled logits', d_model: 32, n_heads: 4, batch: 1, n_q: 8, n_k: 8, mask: 'none', scale: false },
  { name: 'causal + padding, rows past the block', d_model: 16, n_heads: 4, batch: 2, n_q: 70, n_k: 70, mask: { causal: true, padding: [70, 33] } },
  { name: 'long keys crossing tiles', d_model: 32, n_heads: 2, batch: 1, n_q: 3, n_k: 300, mask: 'none', cross: true },
];

// The largest normwise error seen per module, printed at the end for the record.
const worst = { simd: 0, scalar: 0 };
after(() => console.log(`max normwise error against float64: SIMD ${worst.simd.toExponential(2)}, baseline ${worst.scalar.toExponential(2)}`));

function buildCase(c, seed) {
  const mask = c.mask === 'matrix'
    ? Uint8Array.from({ length: c.n_q * c.n_k }, (_, i) => ((i * 7) % 5 === 0 ? 1 : 0))
    : c.mask;
  const query = randomArray(c.batch * c.n_q * c.d_model, seed);
  const key = c.cross ? randomArray(c.batch * c.n_k * c.d_model, seed + 1) : query;
  const value = c.cross ? randomArray(c.batch * c.n_k * c.d_model, seed + 2) : query;
  return { ...c, mask, query, key, value };
}

for (const [isa, attn] of Object.entries(modules)) {
  for (const [index, c] of CASES.entries()) {
    test(`${isa}: ${c.name} matches float64 (output and per-head weights)`, () => {
      const p = buildCase(c, 100 + index);
      const mha = new attn.MultiHeadAttention({ d_model: p.d_model, n_heads: p.n_heads, d_k: p.d_k, d_v: p.d_v,
        bias: p.bias ?? true, seed: 7 + index });
      try {
        const weights = mha.getWeights();
        if (weights.bq) { // non-zero biases so that they are really tested
          for (const b of ['bq', 'bk', 'bv', 'bo']) weights[b] = randomArray(weights[b].length, 900 + index, 0.5);
          mha.setWeights(weights);
        }
        const forwardArgs = { query: p.query, batch: p.batch, n_q: p.n_q, mask: p.mask, scale: p.scale ?? true };
        if (p.cross) Object.assign(forwardArgs, { key: p.key, value: p.value, n_k: p.n_k });
        const withWeights = mha.forward({ ...forwardArgs, need_weights: true });
        const streaming = mha.forward({ ...forwardArgs, need_weights: false });
        const ref = mhaReference({ ...p, d_k: mha.d_k, d_v: mha.d_v, weights, scale: p.scale ?? true });
        for (const [what, actual, expected] of [['output', withWeights.output, ref.output],
          ['output (need_weights off)', streaming.output, ref.output], ['weights', withWeights.weights, ref.weights]]) {
          const e = normwiseError(actual, expected);
          worst[isa] = Math.max(worst[isa], e.error);
          assert.ok(e.error <= TOLERANCE,
            `${what}: normwise error ${e.error.toExponential(2)} > ${TOLERANCE} (worst at ${e.at}: ${e.actual} vs ${e.expected})`);
        }
        assert.equal(withWeights.weights.length, p.batch * p.n_heads * p.n_q * p.n_k);
        assert.equal(streaming.weights, null);
      } finally {
        mha.delete();
      }
    });
  }
}

test('SIMD and baseline modules agree with each other', () => {
  const p = buildCase({ d_model: 64, n_heads: 8, batch: 2, n_q: 33, n_k: 33, mask: 'causal' }, 5);
  const outs = Object.values(modules).map((attn) => {
    const mha = new attn.MultiHeadAttention({ d_model: 64, n_heads: 8, seed: 3 });
    const r = mha.forward({ query: p.query, batch: 2, n_q: 33, mask: 'causal', need_weights: true });
    mha.delete();
    return r;
  });
  for (const what of ['output', 'weights']) {
    const e = normwiseError(outs[0][what], Float64Array.from(outs[1][what]));
    assert.ok(e.error <= 1e-6, `${what}: SIMD vs baseline normwise ${e.error.toExponential(2)}`);
  }
});

test('the same seed gives the same weights in both modules; another seed differs', () => {
  const [a, b] = Object.values(modules).map((attn) => {
    const mha = new attn.MultiHeadAttention({ d_model: 32, n_heads: 4, seed: 42 });
    const w = mha.getWeights();
    mha.delete();
    return w;
  });
  assert.deepEqual(a.wq, b.wq);
  const other = new modules.simd.MultiHeadAttention({ d_model: 32, n_heads: 4, seed: 43 });
  assert.notDeepEqual(other.getWeights().wq, a.wq);
  other.delete();
});

test('rows of the weights sum to 1, masked entries are exactly 0, fully masked rows are reported', () => {
  const attn = modules.simd;
  const mha = new attn.MultiHeadAttention({ d_model: 16, n_heads: 2, seed: 1 });
  const query = randomArray(2 * 6 * 16, 9);
  const r = mha.forward({ query, batch: 2, n_q: 6, mask: { padding: [6, 0] }, need_weights: true });
  mha.delete();
  for (let b = 0; b < 2; b++) {
    for (let h = 0; h < 2; h++) {
      for (let i = 0; i < 6; i++) {
        const row = r.weights.subarray(((b * 2 + h) * 6 + i) * 6, ((b * 2 + h) * 6 + i + 1) * 6);
        const sum = row.reduce((s, x) => s + x, 0);
        assert.ok(b === 1 ? sum === 0 : Math.abs(sum - 1) < 1e-6, `batch ${b} head ${h} row ${i} sums to ${sum}`);
      }
    }
  }
  assert.equal(r.masked_rows.length, 6, 'every query row of batch item 1 is fully masked');
  assert.ok(r.masked_rows.every((m) => m.batch === 1));
  assert.ok(r.output.subarray(6 * 16).every((x) => x === r.output[6 * 16]), 'fully masked rows output Wᴼ bias only');
  assert.ok(r.output.every(Number.isFinite));
});

test('dropout is seeded: same seed same output, different seed different; off when not training', () => {
  const attn = modules.simd;
  const mha = new attn.MultiHeadAttention({ d_model: 16, n_heads: 2, seed: 1 });
  const query = randomArray(8 * 16, 4);
  const run = (extra) => mha.forward({ query, n_q: 8, need_weights: true, ...extra });
  const a = run({ dropout: 0.5, seed: 11 }), b = run({ dropout: 0.5, seed: 11 }), c = run({ dropout: 0.5, seed: 12 });
  const off = run({ dropout: 0.5, training: false }), none = run({});
  mha.delete();
  assert.deepEqual(a.output, b.output);
  assert.notDeepEqual(a.output, c.output);
  assert.deepEqual(off.output, none.output);
  const zeros = a.weights.filter((x) => x === 0).length;
  assert.ok(zeros > a.weights.length * 0.3 && zeros < a.weights.length * 0.7, `${zeros} of ${a.weights.length} dropped at p = 0.5`);
});

test('plain scaled dot-product attention matches a float64 softmax(QKᵀ/√d_k)V', () => {
  for (const attn of Object.values(modules)) {
    const n_q = 5, n_k = 9, d_k = 6, d_v = 3;
    const q = randomArray(n_q * d_k, 1), k = randomArray(n_k * d_k, 2), v = randomArray(n_k * d_v, 3);
    const r = attn.scaledDotProductAttention({ q, k, v, n_q, n_k, d_k, d_v, mask: 'causal', need_weights: true });
    for (let i = 0; i < n_q; i++) {
      const logits = [];
      for (let j = 0; j <= Math.min(i, n_k - 1); j++) {
        let s = 0;
        for (let c = 0; c < d_k; c++) s += q[i * d_k + c] * k[j * d_k + c];
        logits.push(s / Math.sqrt(d_k));
      }
      const max = Math.max(...logits), z = logits.reduce((s, l) => s + Math.exp(l - max), 0);
      for (let c = 0; c < d_v; c++) {
        const want = logits.reduce((s, l, j) => s + (Math.exp(l - max) / z) * v[j * d_v + c], 0);
        assert.ok(Math.abs(r.output[i * d_v + c] - want) < 1e-6, `${attn.isa} out[${i},${c}] ${r.output[i * d_v + c]} vs ${want}`);
      }
      for (let j = i + 1; j < n_k; j++) assert.equal(r.weights[i * n_k + j], 0);
    }
  }
});

test('analyze works for GPT-3 and LLaMA-70B without allocating, counts exact above 2^32', () => {
  const attn = modules.simd;
  const before = attn.memoryBytes();
  const gpt3 = attn.analyze({ d_model: 12288, n_heads: 96, n: 2048 });
  assert.equal(gpt3.params.weights, 4 * 12288 * 12288);
  assert.equal(gpt3.params.total, 4 * 12288 * 12288 + 4 * 12288);
  assert.equal(gpt3.flops.lesson.projections, 2048 * 12288 * 12288);
  assert.ok(gpt3.flops.exact_flops > 2 ** 32);
  const llama = attn.analyze({ d_model: 8192, n_heads: 64, n: 4096, n_kv_heads: 8 });
  assert.equal(llama.params_gqa, 8192 * 8192 * 2 + 2 * 8192 * 1024 + 8192 + 1024 * 2 + 8192);
  assert.equal(attn.memoryBytes(), before, 'analysis must not grow the wasm memory');
});

test('lessonExamples: every figure of LESSON.md is recomputed and matches', () => {
  for (const attn of Object.values(modules)) {
    const examples = attn.lessonExamples();
    assert.deepEqual(examples.map((e) => e.id), ['E1', 'E2', 'E3', 'P1', 'P4']);
    for (const e of examples) {
      for (const f of e.figures) assert.ok(f.ok, `${attn.isa} ${e.id} ${f.label}: computed ${f.computed}, lesson ${f.expected}`);
    }
    const e2 = examples.find((e) => e.id === 'E2');
    assert.equal(e2.figures.find((f) => f.label === 'total').computed, '1,048,576');
  }
});

test('positional encoding: values in [−1, 1], the lesson formula, distinct positions', () => {
  const attn = modules.simd;
  const n = 50, d_model = 16;
  const pe = attn.positionalEncoding({ n, d_model });
  for (let pos = 0; pos < n; pos++) {
    for (let i = 0; i < d_model / 2; i++) {
      const angle = pos / 10000 ** ((2 * i) / d_model);
      assert.ok(Math.abs(pe[pos * d_model + 2 * i] - Math.sin(angle)) < 1e-6);
      assert.ok(Math.abs(pe[pos * d_model + 2 * i + 1] - Math.cos(angle)) < 1e-6);
    }
  }
  const props = attn.positionalProperties({ n, d_model, k: 3 });
  assert.ok(props.max_abs <= 1 && props.min_distance > 0.01 && props.rotation_max_error < 1e-5, JSON.stringify(props));
});
