// The compute side of the performance panel: the time of one forward pass against the sequence length.

export const handlers = {
  /** The f32x4 peak, measured once per compute (its kernels warmed first): only this panel shows it. */
  async browserPeak(payload, side) {
    return { peak: await side.peak() };
  },

  /**
   * Time of one forward pass for each n in `ns` (self-attention, this layer) on `workers` pool workers
   * (the pool decides per n whether splitting pays: each point says how many ran it); the reply names
   * the layer it measured.
   */
  async sweep({ layer, ns, workers = 1 }, side, post) {
    const { attn } = side;
    const pending = side.poolOf(workers);
    const pool = pending && await pending;
    const spec = { ...layer, seed: 1 };
    const sweepCache = side.newLayerCache();
    const mha = pool ? await pool.layer(spec) : sweepCache.get(attn, spec);
    const points = [];
    try {
      for (const [k, n] of ns.entries()) {
        post({ done: k, total: ns.length, phase: `n = ${n.toLocaleString('en-US')}` });
        const ms = await side.timeAtLength(mha, layer.d_model, n);
        const flops = attn.analyze({ ...layer, n }).flops.exact_flops;
        points.push({ n, ms, flops, workers: mha.lastWorkers ?? 0 });
      }
    } finally {
      if (pool) mha.delete();
      sweepCache.clear();
    }
    return { points, isa: attn.isa, layer };
  },
};
