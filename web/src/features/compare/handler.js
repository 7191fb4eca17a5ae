// The compute side of the "Compare heads" panel: the heads of a config's layer compared by the core
// (mha.compareHeads); with imported attention maps alone, the core's head metrics of those maps
// (attn.headMetrics: entropy, distance, largest weight, similarity), without the ablation, which needs
// the layer that made them.

export const handlers = {
  /**
   * Per head entropy, distance, largest weight, the head-by-head similarity and the output change when
   * each head is switched off.
   */
  compare({ config }, side, post) {
    const { layer, args, imported } = side.prepared(config, post);
    const { query, key, value, batch, n_q, n_k, mask, scale } = args;
    if (imported?.attention) {
      const metrics = side.attn.headMetrics({ weights: imported.attention, batch, n_heads: config.n_heads, n_q, n_k });
      return { compare: { ...metrics, ablation: null, imported: true } };
    }
    return { compare: layer.compareHeads({ query, ...(config.cross ? { key, value } : {}), batch, n_q, n_k, mask, scale }) };
  },
};
