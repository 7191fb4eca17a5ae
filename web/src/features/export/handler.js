// The compute side of the export: every tensor of a config's run, from the engine. The layer and its
// inputs are the run's own (side.prepared); the output and the weights come from its forward pass, the
// parameters from getWeights, and Q, K, V and the head outputs from the engine's matmul (y = x·W + b is
// [x | 1]·[W; b], so the bias is added by the same product). Nothing is computed here but the layout.

/** [rows × cols] with a column of ones appended: [x | 1]. */
function withOnes(x, rows, cols) {
  const out = new Float32Array(rows * (cols + 1));
  for (let r = 0; r < rows; r++) {
    out.set(x.subarray(r * cols, (r + 1) * cols), r * (cols + 1));
    out[r * (cols + 1) + cols] = 1;
  }
  return out;
}

/** [W; b]: the bias as one more row under the weights. */
function stacked(w, b) {
  const out = new Float32Array(w.length + b.length);
  out.set(w);
  out.set(b, w.length);
  return out;
}

/** [batch, n, heads·d] → [batch, heads, n, d]: the lesson's view(...).transpose(1, 2). */
function byHead(flat, batch, n, heads, d) {
  const out = new Float32Array(flat.length);
  for (let b = 0; b < batch; b++) {
    for (let i = 0; i < n; i++) {
      for (let h = 0; h < heads; h++) {
        const from = ((b * n + i) * heads + h) * d, to = ((b * heads + h) * n + i) * d;
        out.set(flat.subarray(from, from + d), to);
      }
    }
  }
  return out;
}

const tensor = (shape, data) => ({ shape, data });

export const handlers = {
  /**
   * Holds tensors checked by import/tensors.js for this owner's runs: { id, kind ('tensors' |
   * 'attention'), tensors: { name: Float32Array }, labels_q, labels_k }; a config with imported.id =
   * id then runs with them (import/run.js). { id: null } forgets them.
   */
  holdImports(payload, side) {
    side.mine.imported = payload.id ? payload : null;
    return { held: payload.id ?? null }; // not `id`: a reply's id is the request's (worker/handlers.js handle)
  },

  /** Reads imported files in the compute (worker/handlers.js gives the reader): → { given, skipped }. */
  readImports({ files, config }, side) {
    return side.readFiles(files, config);
  },

  /** payload: { config, trace?: { item, head, query_index } } (the followed query, when that panel shows). */
  tensors({ config, trace = null }, side, post) {
    const { attn } = side;
    const { layer, inputs, args, imported } = side.prepared(config, post);
    const { batch, n_q, n_k } = config;
    if (imported?.attention) {
      // Imported maps alone: there is no layer behind them to export.
      return { tensors: { attention: tensor([batch, config.n_heads, n_q, n_k], imported.attention) }, sizes: { n_heads: config.n_heads, n_q, n_k, batch },
        labels_q: inputs.labels_q ?? null, labels_k: inputs.labels_k ?? null, masked_rows: [], attentionOnly: true };
    }
    const { d_model, n_heads, n_kv_heads, d_k, d_v, bias } = layer; // as the engine resolved them
    const kv_head_of = config.kv_head_of ?? attn.resolveView({ d_model, n_heads, n_kv_heads, d_k, d_v, n_q, n_k, batch }).dims.kv_head_of;
    const run = layer.forward({ ...args, need_weights: true });
    const w = layer.getWeights();
    const key = config.cross ? inputs.key ?? inputs.memory : inputs.query, value = config.cross ? inputs.value ?? inputs.memory : inputs.query;
    const project = (x, rows, weight, b, width) => attn.matmul(bias
      ? { a: withOnes(x, rows, d_model), b: stacked(weight, b), m: rows, k: d_model + 1, n: width }
      : { a: x, b: weight, m: rows, k: d_model, n: width });
    const q = byHead(project(inputs.query, batch * n_q, w.wq, w.bq, n_heads * d_k), batch, n_q, n_heads, d_k);
    const k = byHead(project(key, batch * n_k, w.wk, w.bk, n_kv_heads * d_k), batch, n_k, n_kv_heads, d_k);
    const v = byHead(project(value, batch * n_k, w.wv, w.bv, n_kv_heads * d_v), batch, n_k, n_kv_heads, d_v);
    // Each head's output is its weights (after the mask and any dropout) times its key/value head's V.
    const head_outputs = new Float32Array(batch * n_heads * n_q * d_v);
    for (let b = 0; b < batch; b++) {
      for (let h = 0; h < n_heads; h++) {
        const a = run.weights.subarray((b * n_heads + h) * n_q * n_k, (b * n_heads + h + 1) * n_q * n_k);
        const kv = (b * n_kv_heads + kv_head_of[h]) * n_k * d_v;
        head_outputs.set(attn.matmul({ a, b: v.subarray(kv, kv + n_k * d_v), m: n_q, k: n_k, n: d_v }), (b * n_heads + h) * n_q * d_v);
      }
    }
    const tensors = { query: tensor([batch, n_q, d_model], inputs.query) };
    if (config.cross) Object.assign(tensors, { key: tensor([batch, n_k, d_model], key), value: tensor([batch, n_k, d_model], value) });
    Object.assign(tensors, {
      wq: tensor([d_model, n_heads * d_k], w.wq), wk: tensor([d_model, n_kv_heads * d_k], w.wk),
      wv: tensor([d_model, n_kv_heads * d_v], w.wv), wo: tensor([n_heads * d_v, d_model], w.wo),
    });
    if (bias) Object.assign(tensors, { bq: tensor([n_heads * d_k], w.bq), bk: tensor([n_kv_heads * d_k], w.bk), bv: tensor([n_kv_heads * d_v], w.bv), bo: tensor([d_model], w.bo) });
    Object.assign(tensors, {
      q: tensor([batch, n_heads, n_q, d_k], q), k: tensor([batch, n_kv_heads, n_k, d_k], k), v: tensor([batch, n_kv_heads, n_k, d_v], v),
      attention: tensor([batch, n_heads, n_q, n_k], run.weights), head_outputs: tensor([batch, n_heads, n_q, d_v], head_outputs),
      output: tensor([batch, n_q, d_model], run.output),
    });
    if (trace) {
      // The followed query's row, as the query panel shows it (one head, one batch item).
      const t = layer.trace({ ...args, item: trace.item, head: trace.head, query_index: trace.query_index });
      for (const name of ['scores', 'logits', 'exp', 'weights', 'head_output', 'concat', 'output']) tensors[`trace_${name}`] = tensor([t[name].length], t[name]);
    }
    return {
      tensors,
      sizes: { d_model, n_heads, n_kv_heads, d_k, d_v, bias, n_q, n_k, batch, kv_head_of: Array.from(kv_head_of) },
      labels_q: inputs.labels_q ?? null, labels_k: inputs.labels_k ?? null, masked_rows: run.masked_rows,
    };
  },
};
