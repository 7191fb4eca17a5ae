// The compute side of the FlashAttention panel: seeded q, k, v (the core's N(0, 1) stream, attn.randomNormal)
// through the core's tiled attention with one row traced (attn.flashAttention), and the same row from
// scaledDotProductAttention, so the panel can show that the tiles end where softmax attention does.

export const handlers = {
  /**
   * { n_q, n_k, d_k, d_v, causal, block_q, block_k, sram, query_index, seed } → { tiles, io, row,
   * reference_row } (row: the traced row of flashAttention's output; reference_row: scaledDotProductAttention's).
   */
  async flashTiles({ n_q, n_k, d_k, d_v, causal, block_q, block_k, sram, query_index, seed }, side) {
    const attn = await side.labs(); // the engine with the labs module loaded
    const query = attn.randomNormal({ seed, shape: [n_q, d_k] });
    const key = attn.randomNormal({ seed: seed + 1, shape: [n_k, d_k] });
    const value = attn.randomNormal({ seed: seed + 2, shape: [n_k, d_v] });
    const mask = causal ? 'causal' : 'none';
    const r = attn.flashAttention({ query, key, value, n_q, n_k, d_k, d_v, mask, block_q, block_k, sram, trace: { query_index } });
    const s = attn.scaledDotProductAttention({ q: query, k: key, v: value, n_q, n_k, d_k, d_v, mask });
    const at = query_index * d_v;
    return { tiles: r.tiles, io: r.io, row: Array.from(r.output.subarray(at, at + d_v)),
      reference_row: Array.from(s.output.subarray(at, at + d_v)) };
  },
};
