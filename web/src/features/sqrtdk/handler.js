// The compute side of the √d_k lab's row: a query and `keys` keys with N(0, 1) components (the core's
// seeded stream) traced through scaled dot-product attention with and without dividing by √d_k.
// Every number is the engine's.

export const handlers = {
  /** { d_k, keys, seed } → { scaled, unscaled }: each { scores, weights } of the one query's row. */
  sqrtDkRow({ d_k, keys, seed }, side) {
    const attn = side.attn;
    const q = attn.randomNormal({ seed, count: d_k });
    const k = attn.randomNormal({ seed: seed + 1, count: keys * d_k });
    const v = new Float32Array(keys);
    const trace = (scale) => {
      const t = attn.traceAttention({ q, k, v, batch: 1, n_q: 1, n_k: keys, d_k, d_v: 1, scale, query_index: 0 });
      return { scores: Array.from(t.scores), weights: Array.from(t.weights) };
    };
    return { scaled: trace(true), unscaled: trace(false) };
  },
};
