// The compute side of the positions panel: a small layer fed one token repeated n times (so nothing
// but position can tell the keys apart) run with positional 'none', 'rope' and 'alibi'; ALiBi's
// slopes for the playground's head count; RoPE's logits of one q and k at several positions for
// each offset i − j (RoPE at the inputs' rope_base when one is set). Every number is the engine's.

const N = 12;           // tokens in the maps
const D_MODEL = 32, N_HEADS = 4;
const OFFSETS = [0, 1, 2, 5];
const STARTS = [0, 7, 50, 300]; // query positions i = start + offset, key at i − offset

export const handlers = {
  positionMethods({ n_heads, d_k, seed, rope_base }, side) {
    const attn = side.attn;
    const mha = new attn.MultiHeadAttention({ d_model: D_MODEL, n_heads: N_HEADS, seed });
    try {
      const token = attn.randomNormal({ seed, count: D_MODEL });
      const query = new Float32Array(N * D_MODEL);
      for (let i = 0; i < N; i++) query.set(token, i * D_MODEL);
      const maps = {};
      for (const positional of ['none', 'rope', 'alibi']) {
        const w = mha.forward({ query, n_q: N, mask: 'causal', positional, ...(positional === 'rope' && rope_base ? { rope_base } : {}), need_weights: true }).weights;
        maps[positional] = w.slice(0, N * N); // head 0 (ALiBi's steepest slope)
      }
      // RoPE's rules of d_k are the core's: the playground's d_k when the core turns it (one head of d_k), else 8.
      const width = attn.resolveView({ d_model: d_k, n_heads: 1, n_q: 1, positional: 'rope' }).ok ? d_k : 8;
      const q = attn.randomNormal({ seed: seed + 1, count: width }), k = attn.randomNormal({ seed: seed + 2, count: width });
      const rope = OFFSETS.map((offset) => ({ offset, positions: STARTS.map((s) => s + offset),
        logits: attn.ropeLogits({ q, k, offset, positions: STARTS.map((s) => s + offset), ...(rope_base ? { rope_base } : {}) }) }));
      return { n: N, heads: N_HEADS, maps, slopes: attn.alibiSlopes({ n_heads }), demo_slopes: attn.alibiSlopes({ n_heads: N_HEADS }),
        rope, rope_d_k: width };
    } finally {
      mha.delete();
    }
  },
};
