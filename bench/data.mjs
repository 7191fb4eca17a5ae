// Seeded inputs and weights for one benchmark size, shared by every system so that all of them
// compute exactly the same multi-head attention and their outputs can be compared.

/** mulberry32: tiny, fast and deterministic, so every run benchmarks the same numbers. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function uniform(next, length, bound) {
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = (2 * next() - 1) * bound;
  return out;
}

/**
 * Weights in the lesson's convention y = x·W + b, W is d_in×d_out row-major. Xavier/Glorot
 * uniform keeps the logits in a range where softmax is neither flat nor one-hot, and non-zero
 * biases make sure every system really adds them.
 */
export function makeWeights({ d_model, n_heads, d_k, d_v }, seed = 1) {
  const next = rng(seed);
  const qk = n_heads * d_k, v = n_heads * d_v;
  const xavier = (d_in, d_out) => Math.sqrt(6 / (d_in + d_out));
  return {
    wq: uniform(next, d_model * qk, xavier(d_model, qk)),
    wk: uniform(next, d_model * qk, xavier(d_model, qk)),
    wv: uniform(next, d_model * v, xavier(d_model, v)),
    wo: uniform(next, v * d_model, xavier(v, d_model)),
    bq: uniform(next, qk, 0.1),
    bk: uniform(next, qk, 0.1),
    bv: uniform(next, v, 0.1),
    bo: uniform(next, d_model, 0.1),
  };
}

/** Self-attention input x, [batch, n, d_model], entries U(−1, 1). */
export function makeInput({ batch, n, d_model }, seed = 2) {
  return uniform(rng(seed), batch * n * d_model, 1);
}
