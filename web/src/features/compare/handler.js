// The compute side of the "Compare heads" panel: the heads of a config's layer compared by the core
// (mha.compareHeads).

export const handlers = {
  /**
   * Per head entropy, distance, largest weight, the head-by-head similarity and the output change when
   * each head is switched off.
   */
  compare({ config }, side, post) {
    const { layer, args } = side.prepared(config, post);
    const { query, key, value, batch, n_q, n_k, mask, scale } = args;
    return { compare: layer.compareHeads({ query, ...(config.cross ? { key, value } : {}), batch, n_q, n_k, mask, scale }) };
  },
};
