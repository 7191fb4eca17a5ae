// The compute side of the "Follow one query" panel: the core's trace of one query (mha.trace, the
// forward pass's own routines on that row), and one head's scores for every query.

const MAX_LOGIT_CELLS = 32 * 32; // headLogits traces every query twice: a view for small examples

export const handlers = {
  /**
   * The trace of query `query` of batch item `item`, head `head`, with the words of that item. The
   * layer is this owner's cached one. With imported attention maps alone there is no layer to trace:
   * → { imported: { weights: the imported row (n_k) }, labels_q, labels_k }.
   */
  trace({ config, item, head, query }, side, post) {
    const { layer, inputs, args, imported } = side.prepared(config, post);
    if (imported?.attention) {
      const { n_heads, n_q, n_k } = config;
      const at = ((item * n_heads + head) * n_q + query) * n_k;
      return { imported: { weights: imported.attention.slice(at, at + n_k) }, labels_q: inputs.labels_q?.[item] ?? null, labels_k: inputs.labels_k?.[item] ?? null };
    }
    const trace = layer.trace({ ...args, item, head, query_index: query });
    return { trace, labels_q: inputs.labels_q?.[item] ?? null, labels_k: inputs.labels_k?.[item] ?? null };
  },

  /**
   * Head `head`'s logits and attention for every query of batch item `item`, with the scale 1/√d_k and
   * without it: one trace per query and setting (the core's numbers; small sizes only).
   */
  headLogits({ config, item, head }, side, post) {
    // One head's cells, from the core's shape of the maps (resolveView's tensors.attention: [batch, n_heads, n_q, n_k]).
    const { n_q, n_k } = config, [, , rows, cols] = config.tensors.attention, cells = rows * cols;
    if (cells > MAX_LOGIT_CELLS) throw new Error(`the scores view is drawn for at most ${MAX_LOGIT_CELLS} cells (n_q × n_k), this layer has ${cells}`);
    const { layer, args } = side.prepared(config, post);
    const out = {};
    for (const scale of [true, false]) {
      const logits = new Float32Array(cells), attention = new Float32Array(cells);
      let logit_scale = 1; // the factor the core scaled the logits by (1/√d_k with the scale)
      for (let i = 0; i < n_q; i++) {
        const t = layer.trace({ ...args, scale, item, head, query_index: i });
        logits.set(t.logits, i * n_k);
        attention.set(t.weights, i * n_k); // the trace's `weights` are the row's attention
        logit_scale = t.logit_scale;
      }
      out[scale ? 'scaled' : 'unscaled'] = { logits, attention, logit_scale };
    }
    return out;
  },
};
