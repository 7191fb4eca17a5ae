// The labs in a wasm module of their own (engine/labs.js, cpp/labs/): the core's calls never load it;
// a lab function's first call does, and resolves to what the labs module computes; the labs module
// is of the same kind as the core's (SIMD or baseline); a KV cache decodes with a copy of its layer
// that follows the layer's weights across the two heaps, and goes with the layer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/src/engine/attention.js';
import { randomArray } from './reference.mjs';

const words = [['the', 'cat', 'sat', 'on', 'the', 'mat']];

for (const simd of [true, false]) {
  const isa = simd ? 'simd' : 'scalar';

  test(`${isa}: the first view's calls leave the labs module unloaded; a lab function loads it and answers`, async () => {
    const attn = await loadAttention({ simd });
    assert.equal(attn.labsLoaded, false);
    assert.equal(attn.labsNow(), null);
    // What the first view and the default chapter ask for: a layer with constructed heads over the
    // embedded sentence, its forward pass and trace, the view's rules, costs, maps and tables.
    const d_model = 16, n = words[0].length;
    const query = attn.embedTokens({ words, d_model, seed: 1 });
    const mha = new attn.MultiHeadAttention({ d_model, n_heads: 4, seed: 2 });
    mha.setHeadPatterns({ heads: [{ head: 0, pattern: 'previous' }, { head: 1, pattern: 'same_word' }], query_words: words });
    mha.forward({ query, n_q: n, need_weights: true, mask: 'causal' });
    mha.trace({ query, n_q: n, query_index: 2 });
    attn.resolveView({ d_model, n_heads: 4, n_q: n });
    attn.analyze({ d_model, n_heads: 4, n });
    attn.maskGrid({ mask: 'causal', n_q: n, n_k: n });
    attn.modelPresets();
    attn.sqrtDkStats({ d_k: 16, samples: 10 });
    assert.equal(attn.labsLoaded, false, 'a core call loaded the labs module');
    // A lab function is a promise that loads the labs module once.
    const pending = attn.linearAttentionCost({ n: 512, d_k: 64 });
    assert.ok(pending instanceof Promise);
    const cost = await pending;
    assert.equal(attn.labsLoaded, true);
    const labs = attn.labsNow();
    assert.deepEqual(cost, labs.linearAttentionCost({ n: 512, d_k: 64 }), 'the promise resolves to the labs module\'s answer');
    assert.strictEqual(await attn.labs(), labs, 'labs() resolves to one view');
    // Errors are the same messages, as rejections.
    await assert.rejects(attn.linearAttentionCost({ n: 0, d_k: 4 }), /n must be at least 1/);
    await assert.rejects(attn.lessonExamples({ bogus: 1 }), /lessonExamples: unknown option 'bogus'/);
    await assert.rejects(attn.createTrainer({ d_model: 30, n_heads: 4 }), /d_model/);
    // The labs module is the core's kind.
    assert.equal(labs.labs.kernelIsa(), attn.kernelIsa());
    // The view keeps the core's functions: the same layer class, the same heap.
    assert.strictEqual(labs.MultiHeadAttention, attn.MultiHeadAttention);
    assert.equal(labs.heapAllocated(), attn.heapAllocated());
    mha.delete();
  });

  test(`${isa}: every lab function of the API awaits the labs module and matches its synchronous twin`, async () => {
    const attn = await loadAttention({ simd });
    const q = randomArray(8 * 4, 1), k = randomArray(8 * 4, 2), v = randomArray(8 * 4, 3);
    const calls = {
      trainTasks: [],
      trainingCost: [{ task: 'reverse', d_model: 8, n_heads: 2, seq_len: 4 }],
      sqrtDkGradients: [{ d_k_values: [4], n_k: 4, samples: 8 }],
      decodeCost: [{ d_model: 64, n_heads: 8, t: 10 }],
      flashAttention: [{ query: q, key: k, value: v, n_q: 8, n_k: 8, d_k: 4 }],
      linearAttention: [{ query: q, key: k, value: v, n_q: 8, n_k: 8, d_k: 4 }],
      linearAttentionCost: [{ n: 64, d_k: 8 }],
      lessonExamples: [],
    };
    const labs = await attn.labs();
    for (const [name, args] of Object.entries(calls)) {
      assert.deepEqual(await attn[name](...args), labs[name](...args), name);
    }
    const trainer = await attn.createTrainer({ task: 'lookup', d_model: 8, n_heads: 2, seq_len: 4, batch: 2 });
    assert.equal(trainer.step(2).loss.length, 2, 'a trainer\'s methods are synchronous');
    trainer.delete();
  });

  test(`${isa}: a KV cache decodes with the layer's current weights, copied across the two heaps, and goes with the layer`, async () => {
    const attn = await loadAttention({ simd });
    const d_model = 16, n = 5;
    const x = randomArray(n * d_model, 7);
    const mha = new attn.MultiHeadAttention({ d_model, n_heads: 4, n_kv_heads: 2, seed: 4 });
    assert.throws(() => mha.decodeStep({ x: x.subarray(0, d_model), cache: {} }), /cache must be a KV cache made by layer.createKVCache/);
    const decodeAll = (cache) => {
      let last = null;
      for (let i = 0; i < n; i++) last = mha.decodeStep({ x: x.subarray(i * d_model, (i + 1) * d_model), cache });
      return last;
    };
    const forwardLast = () => mha.forward({ query: x, n_q: n, mask: 'causal' }).output.subarray((n - 1) * d_model);
    const near = (a, b, what) => {
      const worst = Math.max(...Array.from(a, (value, i) => Math.abs(value - b[i])));
      assert.ok(worst < 1e-5, `${what}: decodeStep and forward differ by ${worst}`);
    };
    const cache = await mha.createKVCache({ max_len: n });
    const labs = attn.labsNow();
    near(decodeAll(cache).output, forwardLast(), 'the seeded weights');
    // New weights in the core's layer: the stale cache is refused, and after clear() the copy follows.
    const w = mha.getWeights();
    mha.setWeights({ ...w, wq: w.wq.map((value) => value * 2), bo: w.bo.map((value) => value + 1) });
    assert.throws(() => mha.decodeStep({ x: x.subarray(0, d_model), cache }), /weights changed/);
    cache.clear();
    near(decodeAll(cache).output, forwardLast(), 'after setWeights');
    mha.setHeadPatterns({ heads: [{ head: 0, pattern: 'uniform' }], query_words: [['a', 'b', 'c', 'd', 'e']] });
    cache.clear();
    near(decodeAll(cache).output, forwardLast(), 'after setHeadPatterns');
    // The layer's delete() frees its caches and its copy in the labs module (after a first such layer,
    // whose second cache grew the tables of caches and layers for good).
    const withOther = () => {
      const other = new attn.MultiHeadAttention({ d_model, n_heads: 4, seed: 5 });
      labs.createKVCache(other, { max_len: 3 });
      const held = labs.labs.heapAllocated();
      other.delete();
      return held;
    };
    withOther();
    const before = labs.labs.heapAllocated();
    assert.ok(withOther() > before + 2 * 3 * 16 * 4, 'the copy and the cache were not in the labs module');
    assert.equal(labs.labs.heapAllocated(), before, 'the layer\'s copy or cache stayed in the labs module');
    mha.delete();
    assert.equal(cache.deleted, true);
  });
}
