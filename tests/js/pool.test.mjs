// The worker pool (web/src/engine/pool.js) against the single-threaded module: random problems
// split over real workers (self, cross, masks, need_weights, into, uneven head groups), dropout,
// errors raised inside workers, a worker killed mid-call, and close() leaving nothing running.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { modules } from './modules.mjs';
import { mhaReference, normwiseError, randomArray } from './reference.mjs';
import { createAttentionPool, poolInternals, SPLIT_FLOPS } from '../../web/src/engine/pool.js';
import { groupParams, headGroups, sumPartials } from '../../web/src/engine/pool_split.js';

// The pool sums the workers' partial outputs in another order than one Concat·Wᴼ matmul does:
// float32 rounding only, far below this normwise bound (the figure).
const TOLERANCE = 1e-5;
const POOL_URL = new URL('../../web/src/engine/pool.js', import.meta.url);

const CASES = [
  { name: 'self, 4 heads', d_model: 32, n_heads: 4, batch: 1, n_q: 7, n_k: 7, mask: 'none' },
  { name: 'self, causal, batch 3', d_model: 48, n_heads: 6, batch: 3, n_q: 13, n_k: 13, mask: 'causal' },
  { name: 'cross n_q ≠ n_k, padding', d_model: 32, n_heads: 2, batch: 3, n_q: 9, n_k: 17, mask: { padding: [17, 4, 0] }, cross: true },
  { name: 'cross, key === value', d_model: 40, n_heads: 4, batch: 2, n_q: 5, n_k: 11, mask: 'none', cross: true, shared: true },
  { name: 'd_k ≠ d_v, no bias, 3 heads on 2 workers', d_model: 24, n_heads: 3, d_k: 5, d_v: 11, bias: false, batch: 2, n_q: 6, n_k: 6, mask: 'none' },
  { name: 'explicit matrix mask, unscaled', d_model: 16, n_heads: 2, batch: 1, n_q: 5, n_k: 9, mask: 'matrix', cross: true, scale: false },
  { name: 'causal + padding past one query block', d_model: 16, n_heads: 4, batch: 2, n_q: 70, n_k: 70, mask: { causal: true, padding: [70, 33] } },
];

/** The forward input of a case: self-attention omits key and value; a random matrix mask masks ~20%. */
function buildCase(c, seed) {
  const input = { query: randomArray(c.batch * c.n_q * c.d_model, seed), batch: c.batch, n_q: c.n_q, mask: c.mask, scale: c.scale ?? true };
  if (c.mask === 'matrix') input.mask = Uint8Array.from(randomArray(c.n_q * c.n_k, seed + 3), (x) => (x > 0.6 ? 1 : 0));
  if (c.cross) {
    input.n_k = c.n_k;
    input.key = randomArray(c.batch * c.n_k * c.d_model, seed + 1);
    input.value = c.shared ? input.key : randomArray(c.batch * c.n_k * c.d_model, seed + 2);
  }
  return input;
}

function assertClose(what, actual, expected) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  const e = normwiseError(actual, expected);
  assert.ok(e.error <= TOLERANCE,
    `${what}: normwise error ${e.error.toExponential(2)} > ${TOLERANCE} (worst at ${e.at}: ${e.actual} vs ${e.expected})`);
}

/** A config and weights with non-zero biases, shared by the single-threaded layer and the pool's. */
function weightsFor(attn, config, seed) {
  const mha = new attn.MultiHeadAttention(config);
  const w = mha.getWeights();
  mha.delete();
  if (w.bq) for (const b of ['bq', 'bk', 'bv', 'bo']) w[b] = randomArray(w[b].length, seed, 0.5);
  return w;
}

const pools = {};
before(async () => {
  // splitFlops 0: every pass with two or more head groups is split, however small.
  pools.simd = await createAttentionPool({ workers: 2, simd: true, splitFlops: 0 });
  pools.scalar = await createAttentionPool({ workers: 2, simd: false, splitFlops: 0 });
});
after(async () => {
  await pools.simd?.close();
  await pools.scalar?.close();
});

for (const isa of ['simd', 'scalar']) {
  const attn = modules[isa];

  test(`${isa}: the pool runs the module asked for, in the calling thread and its workers`, () => {
    assert.equal(pools[isa].isa, attn.isa);
    assert.equal(pools[isa].workers, 2);
  });

  for (const [index, c] of CASES.entries()) {
    test(`${isa}: ${c.name}: split over 2 workers = single-threaded (output, weights, masked_rows, shapes)`, async () => {
      const config = { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, bias: c.bias ?? true, seed: 3 + index };
      const w = weightsFor(attn, config, 500 + index);
      const mha = new attn.MultiHeadAttention(config);
      const layer = await pools[isa].layer(config);
      try {
        mha.setWeights(w);
        await layer.setWeights(w);
        const input = buildCase(c, 40 + 3 * index);
        for (const need_weights of [true, false]) {
          const single = mha.forward({ ...input, need_weights });
          const split = await layer.forward({ ...input, need_weights });
          assert.equal(layer.lastWorkers, 2, 'the pass ran split over both workers');
          assert.equal(layer.lastWorkerMs.length, 2, `one engine time per worker, got ${JSON.stringify(layer.lastWorkerMs)}`);
          assert.ok(layer.lastWorkerMs.every((ms) => Number.isFinite(ms) && ms >= 0), `worker times ${layer.lastWorkerMs}`);
          assertClose('output', split.output, single.output);
          if (need_weights) {
            assertClose('weights', split.weights, single.weights);
            // A worker makes this array: it must be a whole array of its own, as the single
            // thread's is, not a view into a larger buffer.
            assert.equal(split.weights.byteOffset, 0);
            assert.equal(split.weights.buffer.byteLength, split.weights.byteLength);
          } else assert.equal(split.weights, null);
          assert.deepEqual(split.masked_rows, single.masked_rows);
          assert.deepEqual(split.shapes, single.shapes);
          assert.deepEqual(Object.keys(split), Object.keys(single));
        }
        // Independent check of the assembled result: float64 loops from the lesson's definitions.
        const split = await layer.forward({ ...input, need_weights: true });
        const ref = mhaReference({ ...input, key: input.key ?? input.query, value: input.value ?? input.query,
          n_k: input.n_k ?? input.n_q, d_model: c.d_model, n_heads: c.n_heads, d_k: layer.d_k, d_v: layer.d_v, weights: w });
        assertClose('output against float64', split.output, ref.output);
        assertClose('weights against float64', split.weights, ref.weights);
      } finally {
        mha.delete();
        layer.delete();
      }
    });
  }

  test(`${isa}: the caller's inputs stay attached and unchanged; into gets the results; setWeights reaches the workers`, async () => {
    const config = { d_model: 32, n_heads: 4, seed: 9 };
    const mha = new attn.MultiHeadAttention(config);
    const layer = await pools[isa].layer(config);
    try {
      const query = randomArray(2 * 10 * 32, 77), copy = query.slice();
      const single = mha.forward({ query, batch: 2, n_q: 10, need_weights: true });
      const into = { output: new Float32Array(2 * 10 * 32), weights: new Float32Array(2 * 4 * 10 * 10) };
      const r = await layer.forward({ query, batch: 2, n_q: 10, need_weights: true, into });
      assert.equal(query.length, copy.length, 'query is not detached');
      assert.deepEqual(query, copy);
      assert.equal(r.output, into.output);
      assert.equal(r.weights, into.weights);
      assertClose('output into', r.output, single.output);
      assertClose('weights into', r.weights, single.weights);
      // into.output may be the query array itself, as for the single-threaded layer.
      const r2 = await layer.forward({ query: copy, batch: 2, n_q: 10, into: { output: copy } });
      assert.equal(r2.output, copy);
      assertClose('output into query', copy, single.output);

      const w = weightsFor(attn, config, 31);
      w.wo = randomArray(w.wo.length, 32, 0.3);
      mha.setWeights(w);
      await layer.setWeights(w);
      assert.deepEqual(await layer.getWeights(), mha.getWeights());
      for (let i = 0; i < 2; i++) { // twice: the second pass reuses the workers' result arrays
        assertClose(`output after setWeights, pass ${i + 1}`, (await layer.forward({ query, batch: 2, n_q: 10 })).output,
          mha.forward({ query, batch: 2, n_q: 10 }).output);
      }
    } finally {
      mha.delete();
      layer.delete();
    }
  });

  test(`${isa}: a result the caller keeps is never written again by later calls (batch 1 and 2, need_weights)`, async () => {
    const config = { d_model: 32, n_heads: 4, seed: 12 };
    const layer = await pools[isa].layer(config);
    try {
      for (const batch of [1, 2]) {
        const kept = await layer.forward({ query: randomArray(batch * 9 * 32, 40 + batch), batch, n_q: 9, need_weights: true });
        assert.equal(layer.lastWorkers, 2, `batch ${batch}: the pass must be split for this test to mean anything`);
        const snapshot = { output: kept.output.slice(), weights: kept.weights.slice() };
        // Later calls on other inputs: the workers reuse their spare arrays, the maker makes new weights.
        for (let k = 0; k < 3; k++) {
          await layer.forward({ query: randomArray(batch * 9 * 32, 50 + k), batch, n_q: 9, need_weights: true });
          assert.equal(layer.lastWorkers, 2);
        }
        assert.deepEqual(kept.output, snapshot.output, `batch ${batch}: a kept output changed`);
        assert.deepEqual(kept.weights, snapshot.weights, `batch ${batch}: kept attention weights changed`);
      }
    } finally {
      layer.delete();
    }
  });

  test(`${isa}: dropout runs whole on the calling thread, so its pattern is the single-threaded one`, async () => {
    const config = { d_model: 32, n_heads: 4, seed: 5 };
    const mha = new attn.MultiHeadAttention(config);
    const layer = await pools[isa].layer(config);
    try {
      const query = randomArray(2 * 12 * 32, 8);
      const input = { query, batch: 2, n_q: 12, dropout: 0.3, seed: 42, need_weights: true };
      const single = mha.forward(input), pooled = await layer.forward(input);
      assert.equal(layer.lastWorkers, 0);
      assert.deepEqual(layer.lastWorkerMs, [], 'no worker times for a pass on the calling thread');
      assert.deepEqual(pooled.output, single.output);
      assert.deepEqual(pooled.weights, single.weights);
      // Not training: no dropout, so the pass is split and equals the pass without dropout.
      const off = await layer.forward({ ...input, training: false });
      assert.equal(layer.lastWorkers, 2);
      assert.equal(layer.lastWorkerMs.length, 2);
      // A pass on the calling thread after a split one leaves no stale worker times.
      await layer.forward(input);
      assert.deepEqual(layer.lastWorkerMs, [], 'no worker times after a pass on the calling thread');
      assertClose('dropout off when not training', off.output, mha.forward({ query, batch: 2, n_q: 12 }).output);
    } finally {
      mha.delete();
      layer.delete();
    }
  });

  test(`${isa}: errors raised inside the workers arrive as Errors with the engine's message`, async () => {
    const config = { d_model: 16, n_heads: 2, seed: 1 };
    const mha = new attn.MultiHeadAttention(config);
    const layer = await pools[isa].layer(config);
    try {
      const query = randomArray(2 * 4 * 16, 3);
      const bad = [
        { query: Float32Array.from(query, (x, i) => (i === 37 ? Number.NaN : x)), batch: 2, n_q: 4 },
        { query, batch: 2, n_q: 4, mask: { padding: [4] } },
        { query, batch: 2, n_q: 4, mask: 'sideways' },
        { query, batch: 2, n_q: 4, seed: -1 },
        { query, batch: 2, n_q: 4, need_weights: 'yes' },
        { query, batch: 2, n_q: 4, colour: 'red' },
        { query, key: query, batch: 2, n_q: 4 },
      ];
      let expected;
      for (const input of bad) {
        assert.throws(() => mha.forward(input), (e) => { expected = e.message; return true; });
        await assert.rejects(layer.forward(input), (e) => {
          assert.ok(e instanceof Error);
          assert.equal(e.message, expected);
          return true;
        });
      }
      // The budget is checked in each worker, for its share of the heads.
      await assert.rejects(layer.forward({ query, batch: 2, n_q: 4, memory_budget: 64 }), /over the memory budget of 64 bytes/);
      // Attention weights over the budget on their own: refused as a single-threaded pass is,
      // with the same message, before anything is allocated.
      const huge = { query, batch: 2, n_q: 4, need_weights: true, memory_budget: 255 };
      assert.throws(() => mha.forward(huge), (e) => { expected = e.message; return true; });
      await assert.rejects(layer.forward(huge), { message: expected });
      assert.equal(layer.lastWorkers, 0);
      // into is checked before anything is written.
      const output = new Float32Array(2 * 4 * 16).fill(7);
      await assert.rejects(layer.forward({ query, batch: 2, n_q: 4, into: { output, weights: new Float32Array(64) } }),
        /into\.weights was given but need_weights is false/);
      await assert.rejects(layer.forward({ query, batch: 2, n_q: 4, need_weights: true, into: { output, weights: new Float32Array(63) } }),
        /into\.weights must be a Float32Array of length 64 \(\[batch, n_heads, n_q, n_k\] = \[2, 2, 4, 4\]\)/);
      assert.ok(output.every((x) => x === 7), 'a failed call wrote nothing into the caller\'s array');
      // A value that cannot be posted to a worker: the calling thread's engine reports it.
      await assert.rejects(layer.forward({ query, batch: 2, n_q: 4, mask: () => 1 }), /mask/);
      // The layer still works after all that.
      assertClose('output after errors', (await layer.forward({ query, batch: 2, n_q: 4 })).output,
        mha.forward({ query, batch: 2, n_q: 4 }).output);
    } finally {
      mha.delete();
      layer.delete();
    }
    await assert.rejects(pools[isa].layer({ d_model: 510, n_heads: 8 }), /d_model \(510\) is not divisible by n_heads \(8\)/);
    await assert.rejects(pools[isa].layer({ d_model: 16, n_heads: 2, size: 3 }), /unknown option 'size'/);
  });
}

test('grouped-query attention: whole key/value groups per worker (8 query heads, 2 key/value heads, 3 workers → 2 groups)', async () => {
  const config = { d_model: 64, n_heads: 8, n_kv_heads: 2, seed: 12 };
  let single;
  try {
    single = new modules.simd.MultiHeadAttention(config);
  } catch (e) {
    // An engine without n_kv_heads: the pool refuses the config with the engine's own message.
    const pool = await createAttentionPool({ workers: 2 });
    await assert.rejects(pool.layer(config), { message: e.message });
    await pool.close();
    return;
  }
  single.delete();
  await withPool({ workers: 3, splitFlops: 0 }, config, async (layer, mha) => {
    const input = { query: randomArray(2 * 7 * 64, 21), batch: 2, n_q: 7, mask: 'causal', need_weights: true };
    const r = await layer.forward(input), s = mha.forward(input);
    assert.equal(layer.lastWorkers, 2);
    assertClose('GQA output', r.output, s.output);
    assertClose('GQA weights', r.weights, s.weights);
    // Batch 1, where the engine of the weights' maker writes straight into the result; and into.
    const one = { query: randomArray(11 * 64, 22), n_q: 11, mask: 'none', need_weights: true };
    const r1 = await layer.forward(one), s1 = mha.forward(one);
    assertClose('GQA batch 1 weights', r1.weights, s1.weights);
    const into = { output: new Float32Array(11 * 64), weights: new Float32Array(8 * 11 * 11) };
    assert.equal((await layer.forward({ ...one, into })).weights, into.weights);
    assertClose('GQA batch 1 weights into', into.weights, s1.weights);
    assertClose('GQA batch 1 output into', into.output, s1.output);
  });
});

test('head groups cover every head once, contiguous, whole key/value groups, balanced; their weight slices put back give the weights', () => {
  for (const [n_heads, n_kv_heads] of [[1, 1], [3, 3], [8, 8], [12, 12], [8, 2], [8, 1], [16, 4], [6, 3]]) {
    for (const parts of [1, 2, 3, 4, 7, 16]) {
      // The core's mapping (the pool layer asks resolveView the same way).
      const { kv_head_of } = modules.simd.resolveView({ d_model: 4 * n_heads, n_heads, n_kv_heads, n_q: 1 }).dims;
      const groups = headGroups({ n_kv_heads, kv_head_of }, parts);
      const what = `n_heads ${n_heads}, n_kv_heads ${n_kv_heads}, ${parts} parts: ${JSON.stringify(groups)}`;
      assert.equal(groups.length, Math.min(parts, n_kv_heads), what);
      let h = 0, kv = 0;
      for (const g of groups) {
        assert.ok(g.h0 === h && g.kv0 === kv && g.h === g.n_kv * (n_heads / n_kv_heads) && g.n_kv >= 1, what);
        h += g.h;
        kv += g.n_kv;
      }
      assert.ok(h === n_heads && kv === n_kv_heads, what);
      const sizes = groups.map((g) => g.n_kv);
      assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, what);
    }
  }
  // Slices of a layer with 6 query heads sharing 3 key/value heads, d_k ≠ d_v, put back by hand.
  const dims = { d_model: 5, n_heads: 6, n_kv_heads: 3, d_k: 2, d_v: 3, bias: true };
  const w = { wq: randomArray(5 * 12, 1), wk: randomArray(5 * 6, 2), wv: randomArray(5 * 9, 3), wo: randomArray(18 * 5, 4),
    bq: randomArray(12, 5), bk: randomArray(6, 6), bv: randomArray(9, 7), bo: randomArray(5, 8) };
  const groups = headGroups({ n_kv_heads: 3, kv_head_of: [0, 0, 1, 1, 2, 2] }, 2);
  const slices = groups.map((g) => groupParams(w, dims, g));
  const columnsBack = (key, width) => {
    const out = [];
    for (let r = 0; r < 5; r++) {
      slices.forEach((sl, i) => {
        const cols = sl[key].length / 5;
        out.push(...sl[key].subarray(r * cols, (r + 1) * cols));
        assert.equal(cols, (key === 'wq' ? groups[i].h * 2 : groups[i].n_kv * (key === 'wk' ? 2 : 3)));
      });
    }
    assert.equal(out.length, 5 * width);
    return Float32Array.from(out);
  };
  assert.deepEqual(columnsBack('wq', 12), w.wq);
  assert.deepEqual(columnsBack('wk', 6), w.wk);
  assert.deepEqual(columnsBack('wv', 9), w.wv);
  for (const key of ['wo', 'bq', 'bk', 'bv']) {
    assert.deepEqual(Float32Array.from(slices.flatMap((sl) => [...sl[key]])), w[key], key);
  }
  for (const sl of slices) assert.ok(sl.bo.every((x) => x === 0), 'bᴼ is added once, after the sum, not in the workers');
});

test('sumPartials: bᴼ + the first two partials summed in float64 and rounded once, each further partial added in float32 (with and without bᴼ, 1 to 3 partials)', () => {
  const rows = 5, d = 7, n = rows * d;
  for (const count of [1, 2, 3]) {
    for (const withBias of [true, false]) {
      const parts = Array.from({ length: count }, (_, k) => randomArray(n, 60 + k));
      const bo = withBias ? randomArray(d, 70) : null;
      const got = sumPartials(parts, bo, new Float32Array(n).fill(NaN));
      for (let i = 0; i < n; i++) {
        // JavaScript adds in float64: (bᴼ + p0) + p1 is rounded to float32 once, on the store;
        // a third partial is added to that stored float32 value.
        let want = Math.fround((bo ? bo[i % d] : 0) + parts[0][i] + (count > 1 ? parts[1][i] : 0));
        for (const p of parts.slice(2)) want = Math.fround(want + p[i]);
        assert.equal(got[i], want, `${count} partials, bias ${withBias}: value ${i}`);
      }
    }
  }
});

test('small passes run on the calling thread, large ones are split (the measured threshold)', async () => {
  const pool = await createAttentionPool({ workers: 2 });
  try {
    assert.equal(pool.splitFlops, SPLIT_FLOPS);
    const config = { d_model: 64, n_heads: 4, seed: 2 };
    const layer = await pool.layer(config);
    const small = 8, large = 2048; // n_q = n_k
    assert.ok(layer.forwardFlops(1, small, small) < SPLIT_FLOPS && layer.forwardFlops(1, large, large) >= SPLIT_FLOPS);
    await layer.forward({ query: randomArray(small * 64, 1), n_q: small });
    assert.equal(layer.lastWorkers, 0);
    await layer.forward({ query: randomArray(large * 64, 1), n_q: large });
    assert.equal(layer.lastWorkers, 2);
    // One head cannot be split: it runs whole however large it is.
    const one = await pool.layer({ d_model: 64, n_heads: 1 });
    await one.forward({ query: randomArray(large * 64, 1), n_q: large });
    assert.equal(one.lastWorkers, 0);
  } finally {
    await pool.close();
  }
});

/** fn(layer, mha, pool): a fresh SIMD pool's layer and a single-threaded one of the same config; both freed after. */
async function withPool(poolOptions, config, fn) {
  const pool = await createAttentionPool(poolOptions);
  const mha = new modules.simd.MultiHeadAttention(config);
  try {
    await fn(await pool.layer(config), mha, pool);
  } finally {
    mha.delete();
    await pool.close();
  }
}

test('three workers with uneven head groups (8 heads as 3 + 3 + 2), concurrent calls', () =>
  withPool({ workers: 3, splitFlops: 0 }, { d_model: 64, n_heads: 8, seed: 4 }, async (layer, mha) => {
    // Batch 2 and batch 1 (the weights' maker writes its heads straight into the result), new
    // arrays and into, in flight at once: the replies arrive in any order.
    const inputs = [1, 2, 3, 4, 5].map((s) => ({ query: randomArray((s % 2 + 1) * 9 * 64, s), batch: s % 2 + 1, n_q: 9, mask: 'causal', need_weights: true }));
    inputs[4].into = { weights: new Float32Array(inputs[4].batch * 8 * 9 * 9) };
    const results = await Promise.all(inputs.map((input) => layer.forward(input)));
    assert.equal(layer.lastWorkers, 3);
    assert.equal(results[4].weights, inputs[4].into.weights);
    results.forEach((r, i) => {
      const { into, ...input } = inputs[i];
      const single = mha.forward(input);
      assertClose(`call ${i} output`, r.output, single.output);
      assertClose(`call ${i} weights`, r.weights, single.weights);
    });
  }));

test('weights go to the workers once per change; inputs and reused result arrays are transferred, not cloned', () =>
  withPool({ workers: 2, splitFlops: 0 }, { d_model: 32, n_heads: 4, seed: 8 }, async (layer, mha, pool) => {
    // Spy on what the pool posts to each worker (the port calls postMessage at each post).
    const posted = [];
    for (const i of [0, 1]) {
      const worker = pool[poolInternals].worker(i);
      const post = worker.postMessage.bind(worker);
      worker.postMessage = (message, transfer) => {
        post(message, transfer);
        posted.push({ worker: i, op: message.op, message });
      };
    }
    const input = { query: randomArray(2 * 6 * 32, 3), batch: 2, n_q: 6, need_weights: true };
    const ops = () => posted.splice(0).map((p) => `${p.worker}:${p.op}`).sort().join(' ');
    await layer.forward(input);
    assert.equal(ops(), '0:create 0:forward 1:create 1:forward');
    await layer.forward(input);
    const sent = posted.filter((p) => p.op === 'forward');
    assert.equal(ops(), '0:forward 1:forward', 'no weights sent when they did not change');
    for (const { message } of sent) {
      // After postMessage, a transferred buffer is detached here: length 0.
      assert.equal(message.input.query.length, 0, 'the query copy was transferred');
      assert.equal(message.spare.output.length, 0, 'the reused output array was transferred back');
      assert.equal(message.spare.attention.length, 0, 'the reused attention array was transferred back');
    }
    assert.equal(input.query.length, 2 * 6 * 32, 'the caller\'s query stays attached');
    // A wrong `into` is refused before anything is posted: no worker computes a pass that must fail.
    await assert.rejects(layer.forward({ ...input, into: { weights: new Float32Array(5) } }), /into\.weights must be a Float32Array of length 288/);
    await assert.rejects(layer.forward({ ...input, into: { output: [] } }), /into\.output must be a Float32Array of length 384/);
    assert.equal(ops(), '', 'nothing posted for a call with a wrong into');
    const w = mha.getWeights();
    w.wq = randomArray(w.wq.length, 77, 0.4);
    mha.setWeights(w);
    await layer.setWeights(w);
    await layer.setWeights(w); // two changes before a pass: still one message per worker
    const r = await layer.forward(input);
    assert.equal(ops(), '0:forward 0:params 1:forward 1:params'); // the parameters' message (the public name: setWeights)
    assertClose('output with the new weights', r.output, mha.forward(input).output);
  }));

test('a worker killed during a call: the call fails with a message, the worker is replaced, the next call works', () =>
  withPool({ workers: 2, splitFlops: 0 }, { d_model: 128, n_heads: 4, seed: 6 }, async (layer, mha, pool) => {
    // ~2.4 GFLOP: tens of milliseconds per worker, so the kill below lands while it computes.
    const input = { query: randomArray(2048 * 128, 5), n_q: 2048 };
    await layer.forward(input); // the layer now lives in both workers
    const call = layer.forward(input); // posted to both workers before this line returns
    await pool[poolInternals].worker(1).terminate();
    await assert.rejects(call, /pool worker 2 of 2 stopped \(it exited with code 1\); the call was abandoned and the worker replaced/);
    assert.deepEqual(layer.lastWorkerMs, [], 'a failed pass leaves no worker times (not the previous pass\'s)');
    const again = await layer.forward(input);
    assert.equal(layer.lastWorkers, 2);
    assertClose('output after the replacement', again.output, mha.forward(input).output);
    // The same with need_weights, killing the worker that makes the weights array (the last group's).
    const weighed = { query: randomArray(1024 * 128, 6), n_q: 1024, need_weights: true };
    await layer.forward(weighed);
    const call2 = layer.forward(weighed);
    await pool[poolInternals].worker(1).terminate();
    await assert.rejects(call2, /pool worker 2 of 2 stopped \(it exited with code 1\); the call was abandoned and the worker replaced/);
    const r = await layer.forward(weighed), s = mha.forward(weighed);
    assertClose('weights after the replacement', r.weights, s.weights);
    assertClose('output after the replacement, need_weights', r.output, s.output);
  }));

test('close(): calls in flight fail, later calls fail, nothing is left running', async () => {
  const pool = await createAttentionPool({ workers: 2, splitFlops: 0 });
  const layer = await pool.layer({ d_model: 64, n_heads: 4 });
  const call = layer.forward({ query: randomArray(128 * 64, 1), n_q: 128 });
  const closing = pool.close();
  await assert.rejects(call, /closed/);
  await closing;
  assert.equal(pool[poolInternals].worker(0), null);
  await assert.rejects(layer.forward({ query: randomArray(64, 1), n_q: 1 }), /this attention pool was closed/);
  await assert.rejects(pool.layer({ d_model: 64, n_heads: 4 }), /this attention pool was closed/);
});

/** Runs `source` as an ES module in a child Node; resolves to { code, stdout, stderr, timedOut }. */
function runChild(source, limitMs, cwd = undefined) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', source], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '', timedOut = false;
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    // A hang guard, not a speed test: the child needs well under a second of work.
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, limitMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

for (const [what, closing] of [['after close()', 'await pool.close();'], ['with an idle pool never closed', '']]) {
  test(`a Node process exits by itself ${what}`, async () => {
    const source = `
      import { createAttentionPool } from ${JSON.stringify(POOL_URL.href)};
      const pool = await createAttentionPool({ workers: 2, splitFlops: 0 });
      const layer = await pool.layer({ d_model: 32, n_heads: 4 });
      const r = await layer.forward({ query: new Float32Array(8 * 32).fill(0.5), n_q: 8 });
      console.log('ran on', layer.lastWorkers, 'workers,', r.output.length, 'values');
      ${closing}`;
    const r = await runChild(source, 60_000);
    assert.equal(r.timedOut, false, `the child did not exit by itself within 60 s (stdout: ${r.stdout})`);
    assert.equal(r.code, 0, `child exit code ${r.code}: ${r.stderr}`);
    assert.match(r.stdout, /ran on 2 workers, 256 values/);
  });
}

test('createAttentionPool checks its options', async () => {
  await assert.rejects(createAttentionPool({ workers: 0 }), /workers must be a whole number from 1 to 256, got 0/);
  await assert.rejects(createAttentionPool({ workers: '2' }), /workers must be a whole number from 1 to 256, got "2" \(a string\)/);
  await assert.rejects(createAttentionPool({ simd: 'yes' }), /simd must be true or false, got "yes" \(a string\)/);
  await assert.rejects(createAttentionPool({ threads: 2 }), /unknown option 'threads'/);
  await assert.rejects(createAttentionPool({ splitFlops: -1 }), /splitFlops must be a number ≥ 0/);
  await assert.rejects(createAttentionPool(null), /expects an options object/);
});

test('pool files have no path that only works from the repository (no imports above web/)', async () => {
  const { readFile } = await import('node:fs/promises');
  for (const file of ['pool.js', 'pool_input.js', 'pool_port.js', 'pool_slot.js', 'pool_split.js', 'pool_worker.js']) {
    const text = await readFile(fileURLToPath(new URL(`../../web/src/engine/${file}`, import.meta.url)), 'utf8');
    for (const [, path] of text.matchAll(/from '([^']+)'/g)) {
      assert.ok(path.startsWith('./') || path.startsWith('node:'), `${file} imports ${path}`);
    }
  }
});

test('docs/API.md\'s pool example runs as written and prints what its comments say', async () => {
  const { readFile } = await import('node:fs/promises');
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const doc = await readFile(`${root}docs/API.md`, 'utf8');
  assert.ok(doc.includes('## Several cores: the worker pool'), 'docs/API.md has its section on the worker pool');
  const section = doc.slice(doc.indexOf('## Several cores: the worker pool'));
  const code = section.match(/```js\n([\s\S]*?)```/)[1];
  const r = await runChild(code, 120_000, root);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), '3145728 2');
});
