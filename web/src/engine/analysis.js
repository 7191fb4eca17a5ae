// The engine's answers about a configuration, computing no attention: analyze (shapes, parameters,
// FLOPs, memory), resolveView (the page's view checked by the core's rules), maskGrid (a heatmap's
// masked cells), headMetrics (per-head numbers of given weights) and randomNormal (the page's inputs).
import * as check from './checks.js';
import { Int32ArrayOf, Uint8ArrayOf } from './intrinsics.js';
import { record } from './record.js';
import { LAYER_KEYS, VIEW_KEYS, POSITIONAL, layerConfig, viewMask } from './options.js';

/** The elements of a tensor of `shape` (a list of whole numbers ≥ 0), checked as a count is. */
function elementsOf(shape) {
  const dims = check.plainArray('shape', shape, 'whole numbers');
  const count = dims.reduce((n, d, i) => n * check.integer(`shape[${i}]`, d, { min: 0 }), 1);
  return check.integer('shape\'s element count', count, { min: 0 });
}

/** analyze, resolveView, maskGrid, randomNormal and headMetrics over `native` (native.js). */
export function makeAnalysisApi({ native, defaultBudget }) {
  return {
    /**
     * Shapes, parameters, FLOPs (the lesson's count and the exact one) and memory; allocates
     * nothing. `n` for self-attention, or `n_q` and `n_k`; `attention: 'self' | 'cross'` says
     * which is costed (cross-attention holds a key and a value input of its own). Default:
     * 'self' unless n_k is given.
     */
    analyze(args) {
      const o = check.options('analyze', args, [...LAYER_KEYS.filter((k) => k !== 'seed'), 'batch', 'n', 'n_q', 'n_k',
        'need_weights', 'scale', 'attention', 'n_layers', 'mask', 'window', 'stride']);
      const c = layerConfig(o);
      if (o.n !== undefined && (o.n_q !== undefined || o.n_k !== undefined)) {
        throw new Error('analyze: give n (self-attention, n_q = n_k = n) or n_q and n_k, not both');
      }
      const attention = check.choice('attention', o.attention, ['self', 'cross'], o.n_k === undefined ? 'self' : 'cross');
      const n = check.integer('n', o.n, { fallback: 0, min: 0 });
      const n_q = check.integer('n_q', o.n_q, { fallback: n || undefined });
      const n_k = check.integer('n_k', o.n_k, { fallback: n || n_q });
      if (attention === 'self' && n_k !== n_q) {
        throw new Error(`self-attention needs n_k = n_q (got n_q ${n_q}, n_k ${n_k}); say attention: 'cross' for separate keys`);
      }
      const batch = check.integer('batch', o.batch, { fallback: 1 });
      const needWeights = check.boolean('need_weights', o.need_weights, true), scale = check.boolean('scale', o.scale, true);
      const layers = check.integer('n_layers', o.n_layers, { fallback: 1 });
      // The mask's visible pairs (result.sparse): 'none', 'causal', 'sliding' or 'strided' only.
      const mask = check.mask(o.mask, { batch, n_q, n_k }, undefined, { window: o.window, stride: o.stride });
      if (mask.padding || mask.matrix) throw new Error("analyze: mask must be 'none', 'causal', 'sliding' or 'strided'");
      return native.call((x) => x.run('analyze', record(x, { ...c, batch, n_q, n_k, need_weights: needWeights, scale,
        n_layers: layers, self_attention: attention === 'self', causal: mask.causal ? 1 : 0, window: mask.window,
        stride: mask.stride })).value);
    },

    /**
     * The engine's rules for a view of the playground, checked in one call: { d_model, n_heads,
     * n_kv_heads?, d_k?, d_v?, n_q, n_k? (n_q), batch? (1), mask? ('none' | 'causal' |
     * { causal?, padding?: [key length per batch item] }), positional? ('none'), rope_base? (the
     * core's default) }. Numbers are passed as given, so the engine says what is wrong with 0, 1.5,
     * NaN or 2^40; with positional 'rope' it checks d_k is even and the base above 1. Returns { ok: true,
     * dims: { d_model, n_heads, n_kv_heads, d_k, d_v, n_q, n_k, batch, rope_base (with rope), kv_head_of } } (kv_head_of[h]: the key/value
     * head query head h reads) or { ok: false, field, message } naming the first bad field. Throws
     * only for an unknown option.
     */
    resolveView(args) {
      const o = check.options('resolveView', args, VIEW_KEYS);
      const fields = { batch: 1 };
      for (const name of ['d_model', 'n_heads', 'n_kv_heads', 'd_k', 'd_v', 'batch', 'n_q', 'n_k']) {
        const value = o[name];
        if (value === undefined) {
          if (['d_model', 'n_heads', 'n_q'].includes(name)) return { ok: false, field: name, message: `${name} is required` };
          continue;
        }
        if (typeof value !== 'number') return { ok: false, field: name, message: `${name} must be a number, got ${check.describe(value)}` };
        fields[name] = value;
      }
      fields.n_k ??= fields.n_q;
      let mask;
      try {
        mask = viewMask(o.mask, { window: o.window, stride: o.stride });
        // The positional method's rules of the sizes are the core's too (RoPE: an even d_k, a base above 1).
        const positional = check.choice('positional', o.positional, POSITIONAL, 'none');
        if (positional !== 'none') Object.assign(fields, { positional: POSITIONAL.indexOf(positional), rope_base: check.number('rope_base', o.rope_base) });
      } catch (err) {
        const field = /^(window|stride|positional|rope_base)\b/.exec(err.message)?.[1] ?? 'mask';
        return { ok: false, field, message: err.message };
      }
      return native.call((x) => x.run('resolveView', record(x, { ...fields, causal: mask.causal,
        padding: x.input('mask.padding', mask.padding), window: mask.window, stride: mask.stride })).value);
    },

    /**
     * The masked cells of one batch item's heatmap whose cells average row_step × col_step
     * weights: { mask (as forward's, without a matrix), batch? (1), item? (0), n_q, n_k,
     * row_step? (1), col_step? (1) } → Uint8Array [⌈n_q / row_step⌉ × ⌈n_k / col_step⌉], 1 where
     * every weight of the cell is masked.
     */
    maskGrid(args) {
      const o = check.options('maskGrid', args, ['mask', 'window', 'stride', 'batch', 'item', 'n_q', 'n_k', 'row_step', 'col_step']);
      const batch = check.integer('batch', o.batch, { fallback: 1 });
      const n_q = check.integer('n_q', o.n_q), n_k = check.integer('n_k', o.n_k);
      const mask = check.mask(o.mask, { batch, n_q, n_k }, native.heap(), { window: o.window, stride: o.stride });
      if (mask.matrix) throw new Error('maskGrid: give the mask as causal and padding (a matrix is drawn as it is)');
      const item = check.index('item', o.item, batch, 'batch', 0);
      const row_step = check.integer('row_step', o.row_step, { fallback: 1 });
      const col_step = check.integer('col_step', o.col_step, { fallback: 1 });
      let padding = null;
      if (mask.padding) {
        padding = new Int32ArrayOf(mask.padding.length); // whole numbers in [0, 2^31), checked
        for (let b = 0; b < padding.length; b++) padding[b] = mask.padding[b];
      }
      const cells = native.call((x) => x.arrays(x.run('maskGrid', record(x, { causal: mask.causal,
        padding: x.input('mask.padding', padding), window: mask.window, stride: mask.stride, item, n_q, n_k, row_step,
        col_step })), { grid: null }).grid);
      const grid = new Uint8ArrayOf(cells.length);
      for (let i = 0; i < cells.length; i++) grid[i] = cells[i];
      return grid;
    },

    /**
     * The page's random inputs: Float32Array of N(0, 1) values of the engine's seeded stream (the
     * generator of the word embeddings), { seed, count } or { seed, shape } (a tensor of that shape,
     * [n_q, d_k] for instance: the engine counts its elements).
     */
    randomNormal(args) {
      const o = check.options('randomNormal', args, ['seed', 'count', 'shape']);
      const seed = check.seed('seed', o.seed);
      if ((o.count === undefined) === (o.shape === undefined)) throw new Error('randomNormal: give count or shape (one of them)');
      const count = o.shape === undefined ? check.integer('count', o.count, { min: 0 }) : elementsOf(o.shape);
      return native.call((x) => x.arrays(x.run('randomNormal', seed, count), { values: null }).values);
    },

    /**
     * Per-head metrics of attention weights [batch, n_heads, n_q, n_k] (rows summing to 1, or 0
     * when fully masked): { heads: [{ entropy, distance, max_weight, mean_max_weight, rows }],
     * max_entropy, divergence, similarity }, as compareHeads without the ablation.
     */
    headMetrics(args) {
      const o = check.options('headMetrics', args, ['weights', 'batch', 'n_heads', 'n_q', 'n_k']);
      const batch = check.integer('batch', o.batch, { fallback: 1 }), n_heads = check.integer('n_heads', o.n_heads);
      const n_q = check.integer('n_q', o.n_q), n_k = check.integer('n_k', o.n_k);
      check.float32('weights', o.weights, batch * n_heads * n_q * n_k,
        `[batch, n_heads, n_q, n_k] = [${batch}, ${n_heads}, ${n_q}, ${n_k}]`, native.heap());
      return native.call((x) => x.run('headMetrics', record(x, { weights: x.input('weights', o.weights), batch, n_heads, n_q,
        n_k })).value);
    },
  };
}
