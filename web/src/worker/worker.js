// The module worker where every forward pass, the n-sweep and the SIMD peak run, so the page never
// freezes. It keeps the last result and sends the page only what one batch item's heatmaps need.

import { loadAttention } from '../engine/attention.js';
import { LayerCache, ResultBuffers, runForward, timeAtLength } from '../model/job.js';
import { poolHeads, maskGrid } from '../model/pool.js';
import { measurePeak } from '../perf/peak.js';

let attn = null;
const cache = new LayerCache();
const buffers = new ResultBuffers(); // the last run's result arrays, refilled by a run of the same sizes
let last = null; // { config, result } of the last run, for switching the batch item shown

/** What the heatmaps of batch item b need: pooled weights, mask, labels, the output's first rows. */
function itemView(b) {
  const { config, result } = last;
  const { n_heads, n_q, n_k, d_model } = config;
  const per = n_heads * n_q * n_k;
  const weights = result.weights.subarray(b * per, (b + 1) * per);
  const pooled = poolHeads(weights, n_heads, n_q, n_k);
  const data = pooled.data === weights ? weights.slice() : pooled.data;
  const rowsShown = Math.min(n_q, 4), colsShown = Math.min(d_model, 8);
  const output_rows = [];
  for (let i = 0; i < rowsShown; i++) {
    const at = (b * n_q + i) * d_model;
    output_rows.push(Array.from(result.output.subarray(at, at + colsShown)));
  }
  let item_sum = 0;
  for (let k = b * n_q * d_model; k < (b + 1) * n_q * d_model; k++) item_sum += result.output[k];
  return {
    b, ...pooled, data,
    masked: maskGrid(config, b, n_q, n_k, pooled.rowStep, pooled.colStep),
    labels_q: result.labels_q?.[b] ?? null, labels_k: result.labels_k?.[b] ?? null,
    output_rows, item_sum,
    masked_rows: result.masked_rows.filter((m) => m.batch === b).map((m) => m.query),
  };
}

const handlers = {
  async init({ simd }) {
    attn = await loadAttention(simd === undefined ? {} : { simd });
    // One tiny pass first, so the first timing a learner sees is not V8 compiling the kernels.
    const warm = new attn.MultiHeadAttention({ d_model: 16, n_heads: 2, seed: 1 });
    warm.forward({ query: new Float32Array(8 * 16).fill(0.5), batch: 1, n_q: 8, need_weights: true });
    warm.delete();
    return { isa: attn.isa, kernelIsa: attn.kernelIsa() };
  },

  run({ id, config }) {
    const t0 = performance.now();
    last = null;
    const result = runForward(attn, config, {
      cache, buffers, onProgress: (p) => postMessage({ type: 'progress', id, ...p }),
    });
    let sum = 0;
    for (let k = 0; k < result.output.length; k++) sum += result.output[k];
    last = { config, result };
    const item = itemView(Math.min(config.item, config.batch - 1));
    // worker_ms: the whole request (inputs, weights, forward, summaries), for the load-time budget.
    return { isa: attn.isa, timings: { ...result.timings, worker_ms: performance.now() - t0 }, output_sum: sum, masked_rows: result.masked_rows.length, item };
  },

  item({ b }) {
    if (!last) throw new Error('no result to show yet: run first');
    if (!(b >= 0 && b < last.config.batch)) throw new Error(`batch item ${b} is outside 0..${last.config.batch - 1}`);
    return { item: itemView(b) };
  },

  /**
   * Runs after the first result is on screen: V8 first runs wasm from a quick baseline compiler and
   * optimises a function only once it is hot, so a few medium passes here make later timings
   * reflect the kernels rather than the compiler. Then measures the f32x4 peak.
   */
  async peak() {
    const warm = new attn.MultiHeadAttention({ d_model: 128, n_heads: 4, seed: 1 });
    const query = new Float32Array(128 * 128).fill(0.25);
    const until = performance.now() + 150;
    for (let k = 0; k < 20 && performance.now() < until; k++) warm.forward({ query, batch: 1, n_q: 128, need_weights: true });
    warm.delete();
    return { peak: await measurePeak() };
  },

  /** Time of one forward pass for each n in `ns` (self-attention, this d_model and n_heads). */
  sweep({ id, layer, ns }) {
    const sweepCache = new LayerCache();
    const mha = sweepCache.get(attn, { ...layer, seed: 1 });
    const points = [];
    try {
      for (const [k, n] of ns.entries()) {
        postMessage({ type: 'progress', id, done: k, total: ns.length, phase: `n = ${n.toLocaleString('en-US')}` });
        const ms = timeAtLength(mha, layer.d_model, n);
        const flops = attn.analyze({ ...layer, n }).flops.exact_flops;
        points.push({ n, ms, flops });
      }
    } finally {
      sweepCache.clear();
    }
    return { points, isa: attn.isa };
  },
};

self.onmessage = async ({ data }) => {
  const { type, id } = data;
  try {
    if (!handlers[type]) throw new Error(`unknown request '${type}'`);
    if (type !== 'init' && !attn) throw new Error('the engine is not loaded yet');
    const reply = await handlers[type](data);
    postMessage({ type: 'done', id, ...reply });
  } catch (err) {
    postMessage({ type: 'error', id, message: String(err?.message ?? err) });
  }
};
