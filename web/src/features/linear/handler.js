// The compute side of the linear-attention panel: the same seeded q, k, v (attn.randomNormal) through
// linear attention (attn.linearAttention) and softmax attention (attn.scaledDotProductAttention), and
// the core's FLOP counts of both (attn.linearAttentionCost) at this n and along a sweep of n.

const ROWS_SHOWN = 6;

export const handlers = {
  /**
   * { n, d_k, d_v, causal, seed } → { linear, softmax (their first rows), max_difference, max_softmax
   * (largest |difference| between the outputs and largest |softmax output|, over all rows), cost, sweep }.
   */
  async linearCompare({ n, d_k, d_v, causal, seed }, side) {
    const attn = await side.labs(); // the engine with the labs module loaded
    const query = attn.randomNormal({ seed, count: n * d_k });
    const key = attn.randomNormal({ seed: seed + 1, count: n * d_k });
    const value = attn.randomNormal({ seed: seed + 2, count: n * d_v });
    const lin = attn.linearAttention({ query, key, value, n_q: n, n_k: n, d_k, d_v, causal }).output;
    const soft = attn.scaledDotProductAttention({ q: query, k: key, v: value, n_q: n, n_k: n, d_k, d_v, mask: causal ? 'causal' : 'none' }).output;
    let maxDifference = 0, maxSoftmax = 0; // a summary of the two outputs for the text, not a rule of the lesson
    for (let x = 0; x < lin.length; x++) {
      maxDifference = Math.max(maxDifference, Math.abs(lin[x] - soft[x]));
      maxSoftmax = Math.max(maxSoftmax, Math.abs(soft[x]));
    }
    const rows = (out) => Array.from({ length: Math.min(n, ROWS_SHOWN) }, (_, i) => Array.from(out.subarray(i * d_v, (i + 1) * d_v)));
    const cost = attn.linearAttentionCost({ n, d_k, d_v, causal });
    // n from 1/8 to 8 times the crossover, in powers of two, where the two cost curves cross.
    const sweep = [];
    for (let f = 1 / 8; f <= 8; f *= 2) {
      const m = Math.max(1, Math.round(cost.crossover_n * f));
      if (sweep.at(-1)?.n === m) continue;
      const c = attn.linearAttentionCost({ n: m, d_k, d_v, causal });
      sweep.push({ n: m, softmax: c.softmax.total, linear: c.linear.total });
    }
    return { linear: rows(lin), softmax: rows(soft), max_difference: maxDifference, max_softmax: maxSoftmax, cost, sweep };
  },
};
