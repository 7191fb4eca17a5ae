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

/** [batch, n, heads·d] → [batch, heads, n, d] (`shape`, the core's): the lesson's view(...).transpose(1, 2). */
function byHead(flat, [batch, heads, n, d]) {
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

/** The elements of a tensor of `shape` (its rows: the shape without its last axis). */
const elements = (shape) => shape.reduce((a, b) => a * b, 1);
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
    // Every tensor's shape is the core's (resolveView's tensors), as the view was resolved or asked again here.
    const view = config.tensors && config.kv_head_of ? config : attn.resolveView({ d_model: layer.d_model, n_heads: layer.n_heads,
      n_kv_heads: layer.n_kv_heads, d_k: layer.d_k, d_v: layer.d_v, n_q, n_k, batch }).dims; // the layer's sizes, as the engine resolved them
    const shapes = view.tensors;
    if (imported?.attention) {
      // Imported maps alone: there is no layer behind them to export.
      return { tensors: { attention: tensor(shapes.attention, imported.attention) }, sizes: { n_heads: config.n_heads, n_q, n_k, batch },
        labels_q: inputs.labels_q ?? null, labels_k: inputs.labels_k ?? null, masked_rows: [], attentionOnly: true };
    }
    const { d_model, n_heads, n_kv_heads, d_k, d_v, bias } = layer; // as the engine resolved them
    const kv_head_of = view.kv_head_of;
    const run = layer.forward({ ...args, need_weights: true });
    const w = layer.getWeights();
    const key = config.cross ? inputs.key ?? inputs.memory : inputs.query, value = config.cross ? inputs.value ?? inputs.memory : inputs.query;
    // x [.., d_model]·W [d_model, width] (+ b): rows and width from the shapes of x and W.
    const project = (x, xShape, weight, b, [, width]) => {
      const rows = elements(xShape.slice(0, -1));
      return attn.matmul(bias ? { a: withOnes(x, rows, d_model), b: stacked(weight, b), m: rows, k: d_model + 1, n: width }
        : { a: x, b: weight, m: rows, k: d_model, n: width });
    };
    const q = byHead(project(inputs.query, shapes.query, w.wq, w.bq, shapes.wq), shapes.q);
    const k = byHead(project(key, shapes.key, w.wk, w.bk, shapes.wk), shapes.k);
    const v = byHead(project(value, shapes.value, w.wv, w.bv, shapes.wv), shapes.v);
    // Each head's output is its weights (after the mask and any dropout) times its key/value head's V.
    const head_outputs = new Float32Array(elements(shapes.head_outputs));
    const map = elements(shapes.attention.slice(2)), values = elements(shapes.v.slice(2)), out = elements(shapes.head_outputs.slice(2));
    for (let b = 0; b < batch; b++) {
      for (let h = 0; h < n_heads; h++) {
        const a = run.weights.subarray((b * n_heads + h) * map, (b * n_heads + h + 1) * map);
        const kv = (b * n_kv_heads + kv_head_of[h]) * values;
        head_outputs.set(attn.matmul({ a, b: v.subarray(kv, kv + values), m: n_q, k: n_k, n: d_v }), (b * n_heads + h) * out);
      }
    }
    const given = { query: inputs.query, ...(config.cross ? { key, value } : {}), wq: w.wq, wk: w.wk, wv: w.wv, wo: w.wo,
      ...(bias ? { bq: w.bq, bk: w.bk, bv: w.bv, bo: w.bo } : {}), q, k, v, attention: run.weights, head_outputs, output: run.output };
    const tensors = Object.fromEntries(Object.entries(given).map(([name, data]) => [name, tensor(shapes[name], data)]));
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
