// Independent float64 reference of multi-head attention for the API tests: plain loops over
// Float64 values, written from the lesson's definitions and sharing no code with the engine.

/** Seeded uniform floats in [-1, 1) (mulberry32), for reproducible random problems. */
export function randomArray(length, seed, scale = 1) {
  let a = seed >>> 0;
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = scale * ((((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1);
  }
  return out;
}

/** y = x·W + b for x [rows, d_in], W [d_in, d_out]. */
export function linear(x, rows, d_in, w, b, d_out) {
  const y = new Float64Array(rows * d_out);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < d_out; c++) {
      let s = b ? b[c] : 0;
      for (let k = 0; k < d_in; k++) s += x[r * d_in + k] * w[k * d_out + c];
      y[r * d_out + c] = s;
    }
  }
  return y;
}

/** isMasked(b, i, j) for the API's mask forms, normalised. */
export function maskFunction(mask, n_k) {
  if (!mask || mask === 'none') return () => false;
  if (mask === 'causal') return (b, i, j) => j > i;
  if (mask instanceof Uint8Array) return (b, i, j) => mask[i * n_k + j] !== 0;
  return (b, i, j) => (mask.causal && j > i) || (mask.padding && j >= mask.padding[b]) ||
    (mask.matrix && mask.matrix[i * n_k + j] !== 0);
}

/**
 * Full MHA in float64: returns { output [batch,n_q,d_model], weights [batch,h,n_q,n_k] }.
 * A fully masked row has zero weights and zero head output, as the engine defines it.
 */
export function mhaReference({ query, key, value, batch, n_q, n_k, d_model, n_heads, d_k, d_v, weights: w,
  mask, scale = true }) {
  const isMasked = maskFunction(mask, n_k);
  const output = new Float64Array(batch * n_q * d_model);
  const attn = new Float64Array(batch * n_heads * n_q * n_k);
  const alpha = scale ? 1 / Math.sqrt(d_k) : 1;
  for (let b = 0; b < batch; b++) {
    const xq = query.subarray(b * n_q * d_model, (b + 1) * n_q * d_model);
    const xk = key.subarray(b * n_k * d_model, (b + 1) * n_k * d_model);
    const xv = value.subarray(b * n_k * d_model, (b + 1) * n_k * d_model);
    const Q = linear(xq, n_q, d_model, w.wq, w.bq, n_heads * d_k);
    const K = linear(xk, n_k, d_model, w.wk, w.bk, n_heads * d_k);
    const V = linear(xv, n_k, d_model, w.wv, w.bv, n_heads * d_v);
    const concat = new Float64Array(n_q * n_heads * d_v);
    for (let h = 0; h < n_heads; h++) {
      for (let i = 0; i < n_q; i++) {
        const logits = new Float64Array(n_k);
        let max = -Infinity;
        for (let j = 0; j < n_k; j++) {
          if (isMasked(b, i, j)) { logits[j] = -Infinity; continue; }
          let s = 0;
          for (let c = 0; c < d_k; c++) s += Q[i * n_heads * d_k + h * d_k + c] * K[j * n_heads * d_k + h * d_k + c];
          logits[j] = s * alpha;
          max = Math.max(max, logits[j]);
        }
        if (max === -Infinity) continue; // fully masked: zeros
        let z = 0;
        for (let j = 0; j < n_k; j++) z += logits[j] === -Infinity ? 0 : Math.exp(logits[j] - max);
        for (let j = 0; j < n_k; j++) {
          const p = logits[j] === -Infinity ? 0 : Math.exp(logits[j] - max) / z;
          attn[((b * n_heads + h) * n_q + i) * n_k + j] = p;
          for (let c = 0; c < d_v; c++) concat[i * n_heads * d_v + h * d_v + c] += p * V[j * n_heads * d_v + h * d_v + c];
        }
      }
    }
    output.set(linear(concat, n_q, n_heads * d_v, w.wo, w.bo, d_model), b * n_q * d_model);
  }
  return { output, weights: attn };
}

/** Normwise relative error max|a − ref| / max|ref|, and where the worst element is. */
export function normwiseError(actual, ref) {
  let maxRef = 0, maxErr = 0, at = -1;
  for (let i = 0; i < ref.length; i++) {
    maxRef = Math.max(maxRef, Math.abs(ref[i]));
    const e = Math.abs(actual[i] - ref[i]);
    if (e > maxErr) { maxErr = e; at = i; }
  }
  return { error: maxRef > 0 ? maxErr / maxRef : maxErr, at, actual: actual[at], expected: ref[at] };
}
