// Test helper for grouped-query and multi-query layers: their weights with each key/value head's
// columns repeated for its group, so the float64 multi-head reference (reference.mjs) can check
// them. Shared by gqa.test.mjs and kv_cache.test.mjs.

/** Repeats each key/value head's columns for its group (repeat_interleave): multi-head weights. */
export function repeatHeads(w, rows, nKv, group, width) {
  if (!w) return w;
  const out = new Float32Array(rows * nKv * group * width);
  for (let r = 0; r < rows; r++) {
    for (let h = 0; h < nKv * group; h++) {
      for (let c = 0; c < width; c++) out[(r * nKv * group + h) * width + c] = w[(r * nKv + Math.floor(h / group)) * width + c];
    }
  }
  return out;
}

/** The weights of layer `mha` as those of the multi-head layer it equals: Wᴷ, Wⱽ, bᴷ and bⱽ repeated per group. */
export function expanded(mha) {
  const w = mha.getWeights(), g = mha.n_heads / mha.n_kv_heads;
  return { ...w, wk: repeatHeads(w.wk, mha.d_model, mha.n_kv_heads, g, mha.d_k), wv: repeatHeads(w.wv, mha.d_model, mha.n_kv_heads, g, mha.d_v),
    bk: repeatHeads(w.bk, 1, mha.n_kv_heads, g, mha.d_k), bv: repeatHeads(w.bv, 1, mha.n_kv_heads, g, mha.d_v) };
}
