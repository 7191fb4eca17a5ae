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

test('lessonExamples: every figure of LESSON.md is recomputed and matches', async () => {
  for (const attn of Object.values(modules)) {
    const examples = await attn.lessonExamples(); // a lab: the labs' module computes them
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

// `into`: results written into the caller's arrays must be the very results a fresh call
// returns, to the bit, and the arrays returned must be the ones given.

/** Asserts two Float32Arrays hold the same bits, naming the first index that differs. */
function assertSameBits(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  const a = new Uint32Array(actual.buffer, actual.byteOffset, actual.length);
  const e = new Uint32Array(expected.buffer, expected.byteOffset, expected.length);
  const i = a.findIndex((bits, j) => bits !== e[j]);
  assert.equal(i, -1, `${what}: first difference at index ${i}: ${actual[i]} (into) vs ${expected[i]} (fresh)`);
}

/** A Float32Array of n NaNs: any value the call fails to write shows up as a difference. */
const unwritten = (n) => new Float32Array(n).fill(NaN);

const INTO_CASES = [
  { name: 'self, with weights', d_model: 16, n_heads: 4, batch: 1, n_q: 6, n_k: 6, mask: 'none', need_weights: true },
  { name: 'self, without weights', d_model: 16, n_heads: 4, batch: 1, n_q: 6, n_k: 6, mask: 'none', need_weights: false },
  { name: 'causal, batch 2', d_model: 24, n_heads: 3, batch: 2, n_q: 9, n_k: 9, mask: 'causal', need_weights: true },
  { name: 'cross, padding, batch 2', d_model: 16, n_heads: 2, batch: 2, n_q: 5, n_k: 11, mask: { padding: [11, 3] },
    need_weights: true, cross: true },
  { name: 'cross, without weights', d_model: 16, n_heads: 2, batch: 1, n_q: 4, n_k: 70, mask: 'none', need_weights: false, cross: true },
];

for (const [isa, attn] of Object.entries(modules)) {
  for (const [index, c] of INTO_CASES.entries()) {
    test(`${isa}: forward into the caller's arrays, ${c.name}: same bits as a fresh call, same objects returned`, () => {
      const p = buildCase(c, 300 + index);
      const mha = new attn.MultiHeadAttention({ d_model: c.d_model, n_heads: c.n_heads, seed: 5 + index });
      try {
        const args = { query: p.query, batch: c.batch, n_q: c.n_q, mask: p.mask, need_weights: c.need_weights };
        if (c.cross) Object.assign(args, { key: p.key, value: p.value, n_k: c.n_k });
        const fresh = mha.forward(args);
        const output = unwritten(fresh.output.length);
        const weights = c.need_weights ? unwritten(fresh.weights.length) : undefined;
        const r = mha.forward({ ...args, into: { output, weights } });
        assert.ok(r.output === output, 'r.output is the array given as into.output');
        assertSameBits(r.output, fresh.output, 'output');
        if (c.need_weights) {
          assert.ok(r.weights === weights, 'r.weights is the array given as into.weights');
          assertSameBits(r.weights, fresh.weights, 'weights');
        } else {
          assert.equal(r.weights, null);
        }
        assert.deepEqual(r.masked_rows, fresh.masked_rows);
        assert.deepEqual(r.shapes, fresh.shapes);
      } finally {
        mha.delete();
      }
    });
  }

  test(`${isa}: forward into only one of output and weights; the other is a fresh array`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 16, n_heads: 2, seed: 9 });
    const query = randomArray(2 * 7 * 16, 31);
    const args = { query, batch: 2, n_q: 7, mask: 'causal', need_weights: true };
    const fresh = mha.forward(args);
    const output = unwritten(fresh.output.length), weights = unwritten(fresh.weights.length);
    const onlyOutput = mha.forward({ ...args, into: { output } });
    const onlyWeights = mha.forward({ ...args, into: { weights } });
    mha.delete();
    assert.ok(onlyOutput.output === output);
    assert.ok(onlyOutput.weights instanceof Float32Array && onlyOutput.weights !== fresh.weights);
    assertSameBits(onlyOutput.weights, fresh.weights, 'fresh weights beside into.output');
    assertSameBits(output, fresh.output, 'into.output');
    assert.ok(onlyWeights.weights === weights);
    assertSameBits(onlyWeights.output, fresh.output, 'fresh output beside into.weights');
    assertSameBits(weights, fresh.weights, 'into.weights');
  });

  test(`${isa}: forward into arrays reused across calls holds the latest call's results`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 16, n_heads: 4, seed: 2 });
    const output = new Float32Array(6 * 16), weights = new Float32Array(4 * 6 * 6);
    for (const seed of [41, 42, 43]) {
      const query = randomArray(6 * 16, seed);
      const fresh = mha.forward({ query, n_q: 6, need_weights: true });
      mha.forward({ query, n_q: 6, need_weights: true, into: { output, weights } });
      assertSameBits(output, fresh.output, `output, input seed ${seed}`);
      assertSameBits(weights, fresh.weights, `weights, input seed ${seed}`);
    }
    mha.delete();
  });

  test(`${isa}: into.output may be the query (or the value) array itself`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 16, n_heads: 2, seed: 4 });
    try {
      // Self-attention writing over its own input.
      const query = randomArray(2 * 5 * 16, 51);
      const fresh = mha.forward({ query: query.slice(), batch: 2, n_q: 5, mask: 'causal', need_weights: true });
      const weights = unwritten(fresh.weights.length);
      const r = mha.forward({ query, batch: 2, n_q: 5, mask: 'causal', need_weights: true, into: { output: query, weights } });
      assert.ok(r.output === query);
      assertSameBits(query, fresh.output, 'output written over the query');
      assertSameBits(weights, fresh.weights, 'weights beside it');
      // Cross-attention writing over its value (n_q = n_k, so the lengths agree).
      const q = randomArray(4 * 16, 52), key = randomArray(4 * 16, 53), value = randomArray(4 * 16, 54);
      const cross = mha.forward({ query: q, key, value, n_q: 4, n_k: 4 });
      const over = mha.forward({ query: q, key, value, n_q: 4, n_k: 4, into: { output: value } });
      assert.ok(over.output === value);
      assertSameBits(value, cross.output, 'output written over the value');
    } finally {
      mha.delete();
    }
  });

  test(`${isa}: into.output and into.weights may be views of one buffer that do not overlap`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 8, n_heads: 2, seed: 6 });
    const query = randomArray(3 * 8, 61);
    const fresh = mha.forward({ query, n_q: 3, need_weights: true });
    const buffer = new Float32Array(3 * 8 + 2 * 3 * 3).fill(NaN);
    const output = buffer.subarray(0, 24), weights = buffer.subarray(24);
    const r = mha.forward({ query, n_q: 3, need_weights: true, into: { output, weights } });
    mha.delete();
    assert.ok(r.output === output && r.weights === weights);
    assertSameBits(output, fresh.output, 'output view');
    assertSameBits(weights, fresh.weights, 'weights view');
  });

  test(`${isa}: scaledDotProductAttention into the caller's arrays: same bits, same objects, q itself allowed`, () => {
    const batch = 2, n_q = 6, n_k = 10, d_k = 5, d_v = 3;
    const q = randomArray(batch * n_q * d_k, 71), k = randomArray(batch * n_k * d_k, 72), v = randomArray(batch * n_k * d_v, 73);
    const args = { q, k, v, batch, n_q, n_k, d_k, d_v, mask: { causal: true, padding: [10, 4] } };
    for (const need_weights of [true, false]) {
      const fresh = attn.scaledDotProductAttention({ ...args, need_weights });
      const output = unwritten(fresh.output.length);
      const weights = need_weights ? unwritten(fresh.weights.length) : undefined;
      const r = attn.scaledDotProductAttention({ ...args, need_weights, into: { output, weights } });
      assert.ok(r.output === output, `need_weights ${need_weights}: r.output is into.output`);
      assertSameBits(output, fresh.output, `output, need_weights ${need_weights}`);
      if (need_weights) {
        assert.ok(r.weights === weights, 'r.weights is into.weights');
        assertSameBits(weights, fresh.weights, 'weights');
      } else {
        assert.equal(r.weights, null);
      }
      assert.deepEqual(r.masked_rows, fresh.masked_rows);
    }
    // d_v = d_k: the output has the length of q and may overwrite it.
    const q2 = randomArray(n_q * d_k, 74), v2 = randomArray(n_k * d_k, 75), k2 = k.subarray(0, n_k * d_k);
    const fresh = attn.scaledDotProductAttention({ q: q2.slice(), k: k2, v: v2, n_q, n_k, d_k });
    const r = attn.scaledDotProductAttention({ q: q2, k: k2, v: v2, n_q, n_k, d_k, into: { output: q2 } });
    assert.ok(r.output === q2);
    assertSameBits(q2, fresh.output, 'output written over q');
  });
}

test('analyze: attention says whether key and value are inputs of their own, also when n_q = n_k', () => {
  for (const attn of Object.values(modules)) {
    const layer = { d_model: 64, n_heads: 4, batch: 2 };
    const bytes = (...counts) => 4 * counts.reduce((s, c) => s + c, 0);
    const self = attn.analyze({ ...layer, n: 100 });
    const selfExplicit = attn.analyze({ ...layer, n_q: 100, n_k: 100, attention: 'self' });
    const cross = attn.analyze({ ...layer, n_q: 100, n_k: 100, attention: 'cross' });
    const crossByDefault = attn.analyze({ ...layer, n_q: 100, n_k: 100 });
    const crossOfN = attn.analyze({ ...layer, n: 100, attention: 'cross' });
    // Inputs: self-attention holds the query alone; cross-attention a key and a value besides.
    assert.equal(self.memory.inputs, bytes(2 * 100 * 64));
    assert.equal(cross.memory.inputs, bytes(2 * 100 * 64, 2 * 100 * 64, 2 * 100 * 64));
    assert.equal(cross.memory.total - self.memory.total, bytes(2 * 2 * 100 * 64), 'cross costs exactly the key and value more');
    assert.deepEqual(selfExplicit.memory, self.memory);
    assert.deepEqual(crossByDefault.memory, cross.memory);
    assert.deepEqual(crossOfN.memory, cross.memory);
    assert.equal(self.dims.attention, 'self');
    assert.equal(cross.dims.attention, 'cross');
    assert.equal(attn.analyze({ ...layer, n_q: 100 }).dims.attention, 'self', 'n_q alone is self-attention');
    // The other figures do not depend on where the keys come from.
    assert.deepEqual(cross.flops, self.flops);
    assert.deepEqual(cross.params, self.params);
    assert.throws(() => attn.analyze({ ...layer, n_q: 100, n_k: 50, attention: 'self' }),
      /^Error: self-attention needs n_k = n_q \(got n_q 100, n_k 50\); say attention: 'cross'/);
    assert.throws(() => attn.analyze({ ...layer, n: 100, attention: 'Self' }), /^Error: attention must be 'self' or 'cross', got "Self" \(a string\)$/);
    assert.throws(() => attn.analyze({ ...layer, n: 100, attention: true }), /^Error: attention must be 'self' or 'cross', got true \(a boolean\)$/);
    assert.throws(() => attn.analyze({ ...layer, n: 100, n_k: 50 }), /^Error: analyze: give n \(self-attention, n_q = n_k = n\) or n_q and n_k, not both$/);
  }
});

test('the scores are named with /√d_k only when the run divides by it: analyze and forward', () => {
  for (const attn of Object.values(modules)) {
    const names = (r) => [...(r.shapes ?? []).map((s) => s.name), ...(r.flops?.stages ?? []).map((s) => s.stage)];
    const scaled = names(attn.analyze({ d_model: 32, n_heads: 4, n: 6 }));
    const unscaled = names(attn.analyze({ d_model: 32, n_heads: 4, n: 6, scale: false }));
    assert.ok(scaled.includes('S_i = Q_i·K_iᵀ/√d_k') && scaled.includes('scores Q_i·K_iᵀ/√d_k'), scaled.join(' | '));
    assert.ok(unscaled.includes('S_i = Q_i·K_iᵀ') && unscaled.includes('scores Q_i·K_iᵀ'), unscaled.join(' | '));
    assert.ok(!unscaled.some((n) => n.includes('√d_k')), unscaled.join(' | '));
    const mha = new attn.MultiHeadAttention({ d_model: 32, n_heads: 4, seed: 1 });
    try {
      const query = randomArray(6 * 32, 3);
      const run = (scale) => names(mha.forward({ query, n_q: 6, scale }));
      assert.ok(run(true).includes('S_i = Q_i·K_iᵀ/√d_k'), run(true).join(' | '));
      assert.ok(run(false).includes('S_i = Q_i·K_iᵀ') && !run(false).some((n) => n.includes('√d_k')), run(false).join(' | '));
    } finally {
      mha.delete();
    }
  }
});
