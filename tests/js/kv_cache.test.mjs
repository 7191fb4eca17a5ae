// Decoding with a key/value cache through the JavaScript API, in both modules: mha.decodeStep over
// a sequence against the float64 causal reference (K and V heads repeated by hand for GQA and MQA)
// and against mha.forward with mask 'causal' (rows within 1e-6), the cache's numbers and rows,
// RoPE and ALiBi against the causal forward pass, every refusal by its message, attn.decodeCost,
// and no memory left behind once a cache (or its layer) is deleted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modules } from './modules.mjs';
import { mhaReference, normwiseError, randomArray } from './reference.mjs';
import { expanded } from './repeated_heads.mjs';

const maxAbs = (a, b) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);
const token = (x, i, d) => x.slice(i * d, (i + 1) * d);

const CASES = [
  { name: 'MHA 4 heads, bias', d_model: 16, n_heads: 4, n: 7, bias: true },
  { name: 'GQA 6 heads / 2, d_k 5, d_v 7, no bias', d_model: 24, n_heads: 6, n_kv_heads: 2, d_k: 5, d_v: 7, n: 9, bias: false },
  { name: 'MQA 8 heads / 1', d_model: 32, n_heads: 8, n_kv_heads: 1, n: 6, bias: true },
];

for (const [isa, attn] of Object.entries(modules)) {
  test(`${isa}: decodeStep gives the rows of the float64 causal reference and of forward with mask 'causal'`, () => {
    for (const c of CASES) {
      const { name, n, ...config } = c;
      const mha = new attn.MultiHeadAttention({ ...config, seed: 5 });
      const d = mha.d_model, h = mha.n_heads;
      const x = randomArray(n * d, 11, 1.5);
      const ref = mhaReference({ query: x, key: x, value: x, batch: 1, n_q: n, n_k: n, d_model: d, n_heads: h, d_k: mha.d_k, d_v: mha.d_v,
        weights: expanded(mha), mask: 'causal' });
      const fwd = mha.forward({ query: x, n_q: n, mask: 'causal', need_weights: true });
      const cache = attn.createKVCache(mha, { max_len: n });
      assert.equal(cache.bytes_per_token, 4 * mha.n_kv_heads * (mha.d_k + mha.d_v), name);
      assert.equal(cache.bytes, cache.bytes_per_token * n, name);
      for (let i = 0; i < n; i++) {
        const r = mha.decodeStep({ x: token(x, i, d), cache });
        const t = i + 1;
        assert.equal(cache.length, t);
        assert.equal(cache.bytes_used, t * cache.bytes_per_token);
        assert.equal(r.output.length, d);
        assert.equal(r.weights.length, h * t, `${name}: weights are n_heads × t`);
        const e = normwiseError(r.output, ref.output.subarray(i * d, t * d));
        assert.ok(e.error < 1e-5, `${name}, step ${t}: output against float64 ${JSON.stringify(e)}`);
        const f = maxAbs(r.output, fwd.output.subarray(i * d, t * d));
        assert.ok(f < 1e-6, `${name}, step ${t}: output differs from forward's row by ${f}`);
        for (let head = 0; head < h; head++) {
          const row = r.weights.subarray(head * t, (head + 1) * t);
          const want = ref.weights.subarray((head * n + i) * n, (head * n + i) * n + t);
          const fwdRow = fwd.weights.subarray((head * n + i) * n, (head * n + i) * n + t);
          assert.ok(maxAbs(row, want) < 1e-6, `${name}, step ${t}, head ${head}: weights ${row} against ${want}`);
          assert.ok(maxAbs(row, fwdRow) < 1e-6, `${name}, step ${t}, head ${head}: weights differ from forward's`);
        }
      }
      // The cached rows: keys [n_kv_heads, n, d_k] as the K projection makes them, per key/value head.
      const { keys, values } = cache.read();
      assert.equal(keys.length, mha.n_kv_heads * n * mha.d_k);
      assert.equal(values.length, mha.n_kv_heads * n * mha.d_v);
      const w = mha.getWeights(), kk = mha.n_kv_heads * mha.d_k;
      for (let g = 0; g < mha.n_kv_heads; g++) {
        for (let j = 0; j < n; j++) {
          for (let col = 0; col < mha.d_k; col++) {
            let s = w.bk ? w.bk[g * mha.d_k + col] : 0;
            for (let r = 0; r < d; r++) s += x[j * d + r] * w.wk[r * kk + g * mha.d_k + col];
            assert.ok(Math.abs(keys[(g * n + j) * mha.d_k + col] - s) < 1e-5, `${name}: key ${j} of kv head ${g}`);
          }
        }
      }
      assert.throws(() => mha.decodeStep({ x: token(x, 0, d), cache }), new RegExp(`cache is full: it holds max_len = ${n} tokens`));
      assert.equal(cache.length, n);
      mha.delete();
    }
  });

  test(`${isa}: decodeStep with positional 'rope' and 'alibi' follows forward's causal rows`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 32, n_heads: 4, n_kv_heads: 2, seed: 9 });
    const n = 10, d = 32, x = randomArray(n * d, 21, 1.5);
    for (const positional of ['rope', 'alibi']) {
      const fwd = mha.forward({ query: x, n_q: n, mask: 'causal', need_weights: true, positional });
      const cache = attn.createKVCache(mha, { max_len: n });
      for (let i = 0; i < n; i++) {
        const r = mha.decodeStep({ x: token(x, i, d), cache, positional });
        const f = maxAbs(r.output, fwd.output.subarray(i * d, (i + 1) * d));
        assert.ok(f < 1e-6, `${positional}, step ${i + 1}: output differs from forward's row by ${f}`);
        const t = i + 1;
        for (let head = 0; head < 4; head++) {
          const diff = maxAbs(r.weights.subarray(head * t, (head + 1) * t), fwd.weights.subarray((head * n + i) * n, (head * n + i) * n + t));
          assert.ok(diff < 1e-6, `${positional}, step ${t}, head ${head}: weights differ by ${diff}`);
        }
      }
      assert.notEqual(maxAbs(fwd.output, mha.forward({ query: x, n_q: n, mask: 'causal' }).output), 0, `${positional} changes the output`);
      const other = positional === 'rope' ? 'alibi' : 'none';
      cache.clear();
      mha.decodeStep({ x: token(x, 0, d), cache, positional });
      assert.throws(() => mha.decodeStep({ x: token(x, 1, d), cache, positional: other }), new RegExp(`filled with positional '${positional}'`));
      assert.equal(cache.length, 1);
      cache.delete();
    }
    mha.delete();
  });

  test(`${isa}: bad decoding calls are refused by name and leave the cache as it was`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 8, n_heads: 2 }), other = new attn.MultiHeadAttention({ d_model: 8, n_heads: 2 });
    const cache = attn.createKVCache(mha, { max_len: 3 });
    const x = randomArray(8, 3);
    mha.decodeStep({ x, cache });
    const cases = [
      [() => other.decodeStep({ x, cache }), /made by another layer/],
      [() => mha.decodeStep({ x: x.subarray(0, 7), cache }), /x has 7 values but one token: d_model = 8 needs 8/],
      [() => mha.decodeStep({ x: Float32Array.from(x).fill(NaN, 2, 3), cache }), /x contains NaN at index 2/],
      [() => mha.decodeStep({ x: Float32Array.from(x).fill(Infinity, 5, 6), cache }), /x contains (\+)?Inf/i],
      [() => mha.decodeStep({ x: [...x], cache }), /x must be a Float32Array/],
      [() => mha.decodeStep({ x }), /cache must be a KV cache made by layer.createKVCache/],
      [() => mha.decodeStep({ x, cache: {} }), /cache must be a KV cache/],
      [() => mha.decodeStep({ x, cache, positional: 'sinusoid' }), /positional must be 'none' or 'rope' or 'alibi'/],
      [() => mha.decodeStep({ x, cache, dropout: 0.1 }), /unknown option 'dropout'/],
      [() => attn.createKVCache(mha, { max_len: 0 }), /max_len must be a positive integer \(got 0\)/],
      [() => attn.createKVCache(mha, { max_len: 2 ** 21 }), /max_len \(2,097,152\) is larger than the 1,048,576 this engine accepts/],
      [() => attn.createKVCache(mha, { max_len: 1.5 }), /max_len must be a whole number/],
      [() => attn.createKVCache(mha, { max_len: 1000, memory_budget: 1000 }), /key\/value cache needs 64,000 bytes/],
      [() => attn.createKVCache(mha, {}), /max_len is required/],
    ];
    for (const [call, message] of cases) assert.throws(call, message);
    assert.equal(cache.length, 1, 'no refused step changed the cache');
    // Weights changed after the cache was filled: its K and V are stale, refused until clear().
    mha.setWeights(mha.getWeights());
    assert.throws(() => mha.decodeStep({ x, cache }), /weights changed .* call cache.clear\(\)/);
    cache.clear();
    assert.equal(cache.length, 0);
    mha.decodeStep({ x, cache });
    mha.decodeStep({ x, cache });
    mha.decodeStep({ x, cache });
    assert.throws(() => mha.decodeStep({ x, cache }), /cache is full: it holds max_len = 3 tokens/);
    cache.delete();
    assert.equal(cache.deleted, true);
    assert.equal(cache.bytes, 0);
    assert.throws(() => mha.decodeStep({ x, cache }), /this KV cache was deleted/);
    assert.throws(() => cache.read(), /this KV cache was deleted/);
    const kept = attn.createKVCache(mha, { max_len: 2 });
    mha.delete();
    assert.throws(() => mha.decodeStep({ x, cache: kept }), /this MultiHeadAttention was deleted/);
    assert.throws(() => attn.createKVCache(mha, { max_len: 2 }), /this MultiHeadAttention was deleted/);
    assert.equal(kept.deleted, true, "a layer's delete() frees its caches");
    other.delete();
  });

  test(`${isa}: decodeCost counts a step with the cache against recomputing the prefix`, () => {
    const c = attn.decodeCost({ d_model: 24, n_heads: 6, n_kv_heads: 2, d_k: 5, d_v: 7, t: 10, n_layers: 3 });
    // Written out: projections 24·30 + 24·10 + 24·14 + 42·24 multiply-adds and 78 bias adds; per
    // visible (query, key) pair and head 2·5 + 2·7 + 5 (softmax) + 1 (scale).
    const perToken = 2 * (24 * 30 + 24 * 10 + 24 * 14 + 42 * 24) + (30 + 10 + 14 + 24), perPair = 6 * (10 + 14 + 5 + 1);
    assert.deepEqual(c.dims, { d_model: 24, n_heads: 6, n_kv_heads: 2, d_k: 5, d_v: 7 });
    assert.equal(c.step_flops, perToken + perPair * 10);
    assert.equal(c.recompute_flops, perToken * 10 + perPair * 55);
    assert.equal(c.total_flops, c.recompute_flops, 'a cached generation of t tokens costs one causal pass over them');
    let sum = 0;
    for (let t = 1; t <= 10; t++) sum += attn.decodeCost({ d_model: 24, n_heads: 6, n_kv_heads: 2, d_k: 5, d_v: 7, t }).recompute_flops;
    assert.equal(c.total_recompute_flops, sum);
    assert.equal(c.cache_bytes_per_token, 4 * 2 * 12);
    assert.equal(c.model_cache_bytes, 3 * 10 * 96);
    assert.equal(c.mha_model_cache_bytes, 3 * c.model_cache_bytes);
    assert.ok(Math.abs(c.speedup - c.recompute_flops / c.step_flops) < 1e-12);
    // A model preset: LLaMA-70B's whole cache per token, as the model table's kv_cache_per_token.
    const llama = attn.modelPresets().find((m) => m.name === 'LLaMA-70B');
    if (llama) {
      const l = attn.decodeCost({ d_model: llama.d_model, n_heads: llama.n_heads, n_kv_heads: llama.n_kv_heads, d_k: llama.d_k, d_v: llama.d_k,
        t: 1, n_layers: llama.n_layers });
      assert.equal(l.model_cache_bytes, llama.kv_cache_per_token.bytes);
    }
    // GPT-3's 96 layers at its 2,048-token context: refused once (the check multiplied the one-layer total by n_layers).
    const gpt3 = attn.decodeCost({ d_model: 12288, n_heads: 96, t: 2048, n_layers: 96 });
    assert.equal(gpt3.model_cache_bytes, 4 * 96 * 256 * 2048 * 96);
    assert.throws(() => attn.decodeCost({ d_model: 24, n_heads: 6, t: 0 }), /t must be a positive integer \(got 0\)/);
    assert.throws(() => attn.decodeCost({ d_model: 24, n_heads: 6 }), /t is required/);
    assert.throws(() => attn.decodeCost({ d_model: 24, n_heads: 5, t: 3 }), /d_model \(24\) is not divisible by n_heads \(5\)/);
    assert.throws(() => attn.decodeCost({ d_model: 16384, n_heads: 128, t: 2 ** 20, n_layers: 1024 }), /too large to count exactly/);
  });

  test(`${isa}: a KV cache's memory is freed by its delete() and by its layer's, to the byte`, () => {
    // Both modules' heaps: the layer is the core's, its cache and the copy of it the cache decodes
    // with are the labs module's (engine/labs.js).
    const heap = () => attn.heapAllocated() + attn.labs.heapAllocated();
    const warm = new attn.MultiHeadAttention({ d_model: 8, n_heads: 2 });
    attn.createKVCache(warm, { max_len: 1 }).delete(); // the first cache's table
    warm.delete();
    const before = heap();
    const mha = new attn.MultiHeadAttention({ d_model: 64, n_heads: 8, n_kv_heads: 2, seed: 3 });
    attn.createKVCache(mha, { max_len: 1 }).delete(); // the labs module's copy of the layer stays until the layer's delete()
    const withLayer = heap();
    const cache = attn.createKVCache(mha, { max_len: 100 });
    const held = heap() - withLayer;
    assert.ok(held >= cache.bytes && cache.bytes === 100 * 4 * 2 * 16, `a cache of ${cache.bytes} bytes holds ${held}`);
    const x = randomArray(64, 4);
    for (let i = 0; i < 100; i++) mha.decodeStep({ x, cache });
    assert.equal(heap() - withLayer, held, 'decoding allocates nothing that stays');
    cache.delete();
    assert.equal(heap(), withLayer, `after cache.delete(): ${heap() - withLayer} bytes still held`);
    attn.createKVCache(mha, { max_len: 50 });
    attn.createKVCache(mha, { max_len: 7 });
    mha.delete();
    assert.equal(heap(), before, `after the layer's delete(): ${heap() - before} bytes still held`);
  });

  // Issue 35, item 18: the table of caches kept the room of a deleted cache while another lived
  // (24 bytes: its entry), so heapAllocated() did not come back after one cache's delete().
  test(`${isa}: deleting one KV cache while another lives gives back every byte it took`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 16, n_heads: 4, seed: 2 });
    const x = randomArray(16, 6);
    const first = attn.createKVCache(mha, { max_len: 8 });
    mha.decodeStep({ x, cache: first });
    for (const count of [1, 2, 5]) {
      const before = attn.labs.heapAllocated(); // the caches live in the labs module
      const more = Array.from({ length: count }, () => attn.createKVCache(mha, { max_len: 4 }));
      for (const c of more) mha.decodeStep({ x, cache: c });
      for (const c of more.reverse()) c.delete();
      assert.equal(attn.labs.heapAllocated(), before,
        `${count} cache(s) made and deleted while one lives: ${attn.labs.heapAllocated() - before} bytes still held`);
    }
    assert.equal(mha.decodeStep({ x, cache: first }).weights.length, 4 * 2, 'the living cache still decodes');
    mha.delete();
  });
}
