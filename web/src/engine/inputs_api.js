// Token inputs, positions and the model table in the engine's API (the core module's): word
// embeddings, the sinusoidal encoding and its properties, ALiBi's slopes, RoPE's logits, the √d_k
// statistics, the model table and a plain matmul (the worked examples are a lab's: labs_session.js).
import * as check from './checks.js';
import { Int32ArrayOf, lengthOf } from './intrinsics.js';
import { record } from './record.js';
import { wordRows } from './words.js';

/** embedTokens, positionalEncoding, positionalProperties, alibiSlopes, ropeLogits, sqrtDkStats, modelPresets and matmul (the worked examples are the labs': labs_session.js) over `native`. */
export function makeInputsApi({ native, defaultBudget }) {
  return {
    /**
     * Token inputs as the page makes them, Float32Array [batch, n, d_model]: each word's seeded
     * embedding (lower-cased, seeded by `seed`) plus the sinusoidal positional encoding.
     * words: one array of strings per batch item, all of the same length ('<pad>'-filled).
     */
    embedTokens(args) {
      const o = check.options('embedTokens', args, ['words', 'd_model', 'seed']);
      const words = wordRows('words', o.words);
      const d_model = check.integer('d_model', o.d_model), seed = check.seed('seed', o.seed);
      return native.call((x) => x.arrays(x.run('embedTokens', record(x, { words: x.input('words', words.codes),
        batch: words.rows, n: words.n, d_model, seed })), { tokens: null }).tokens);
    },

    /** Sinusoidal positional encoding, Float32Array [n, d_model]. */
    positionalEncoding(args) {
      const o = check.options('positionalEncoding', args, ['n', 'd_model']);
      const n = check.integer('n', o.n), d_model = check.integer('d_model', o.d_model);
      return native.call((x) => x.arrays(x.run('positionalEncoding', n, d_model), { encoding: null }).encoding);
    },

    /** Measured properties of the encoding: bounds, distinct positions, the rotation for offset k. */
    positionalProperties(args) {
      const o = check.options('positionalProperties', args, ['n', 'd_model', 'k']);
      const n = check.integer('n', o.n), d_model = check.integer('d_model', o.d_model);
      const k = check.integer('k', o.k, { fallback: 1 });
      return native.call((x) => x.run('positionalProperties', n, d_model, k).value);
    },

    /** ALiBi's slope of each head of a layer of n_heads heads ({ n_heads }), as the layer uses them. */
    alibiSlopes(args) {
      const o = check.options('alibiSlopes', args, ['n_heads']);
      const n_heads = check.integer('n_heads', o.n_heads);
      if (n_heads > 65536) throw new Error(`n_heads is too large (${n_heads}); alibiSlopes takes up to 65,536`);
      return native.call((x) => x.run('alibiSlopes', n_heads).value);
    },

    /**
     * RoPE's logits of one query vector q placed at each of `positions` against one key vector k
     * at position − offset: { q, k (Float32Array of d_k, even), offset? (0), positions (whole
     * numbers ≥ offset), rope_base? (the core's default), scale? (true: divided by √d_k) } → numbers, which
     * depend on the offset only.
     */
    ropeLogits(args) {
      const o = check.options('ropeLogits', args, ['q', 'k', 'offset', 'positions', 'rope_base', 'scale']);
      const heap = native.heap();
      check.float32('q', o.q, undefined, 'd_k', heap);
      const d_k = lengthOf(o.q);
      check.float32('k', o.k, d_k, `d_k = ${d_k}`, heap);
      const offset = check.integer('offset', o.offset, { min: 0, fallback: 0 });
      const list = check.plainArray('positions', o.positions, 'whole numbers');
      if (list.length > 4096) throw new Error(`positions has ${list.length} entries; ropeLogits takes up to 4,096`);
      const positions = new Int32ArrayOf(list.length);
      list.forEach((p, i) => { positions[i] = check.integer(`positions[${i}]`, p, { min: offset }); });
      const rope_base = check.number('rope_base', o.rope_base), scale = check.boolean('scale', o.scale, true);
      return native.call((x) => x.run('ropeLogits', record(x, { q: x.input('q', o.q), k: x.input('k', o.k), offset,
        positions: x.input('positions', positions), rope_base, scale })).value);
    },

    /** Why √d_k: variance of q·k and softmax sharpness with and without the scale. */
    sqrtDkStats(args) {
      const o = check.options('sqrtDkStats', args, ['d_k', 'n_k', 'samples', 'seed']);
      const d_k = check.integer('d_k', o.d_k), n_k = check.integer('n_k', o.n_k, { fallback: 64 });
      const samples = check.integer('samples', o.samples, { fallback: 200 }), seed = check.seed('seed', o.seed);
      return native.call((x) => x.run('sqrtDkStats', d_k, n_k, samples, seed).value);
    },

    /** The model table (Transformer base, BERT, GPT-2, GPT-3, LLaMA). */
    modelPresets: (...args) => {
      check.noOptions('modelPresets', args);
      return native.call((x) => x.run('modelPresets').value);
    },

    /** C (m×n) = A (m×k) · B (k×n), row-major, with this module's matmul kernel. */
    matmul(args) {
      const o = check.options('matmul', args, ['a', 'b', 'm', 'k', 'n']);
      const m = check.integer('m', o.m), k = check.integer('k', o.k), n = check.integer('n', o.n);
      const heap = native.heap();
      check.float32('a', o.a, m * k, `m×k = ${m}×${k}`, heap);
      check.float32('b', o.b, k * n, `k×n = ${k}×${n}`, heap);
      check.inputsWithinBudget(defaultBudget, [o.a, o.b]); // the core's budget of a matmul (matmul.cpp), before the copies
      return native.call((x) => x.arrays(x.run('matmul', record(x, { a: x.input('a', o.a), b: x.input('b', o.b), m, k, n })),
        { c: null }).c);
    },
  };
}
