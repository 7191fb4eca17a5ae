// Efficient attention in the JavaScript API: flashAttention (FlashAttention one tile at a time, with
// the traced row's online-softmax state and the slow-memory model), linearAttention (φ = elu + 1) and
// linearAttentionCost (FLOPs against softmax attention and the crossover n). The maths is the core's (cpp/labs/flash.h, linear_attention.h); this file checks
// arguments and calls the binding of cpp/bindings/efficient.cpp through native.js, in the pattern
// embind.cpp describes.
import * as check from './checks.js';
import { record } from './record.js';

// The binding efficientCall(call, record) of cpp/bindings/efficient.cpp serves the three calls.
const CALL = { flashAttention: 0, linearAttention: 1, linearAttentionCost: 2 };

const SIZE_KEYS = ['batch', 'n_q', 'n_k', 'd_k', 'd_v'];
// query/key/value as the issue names them; q/k/v as scaledDotProductAttention takes them.
const INPUT_KEYS = ['query', 'key', 'value', 'q', 'k', 'v', ...SIZE_KEYS];
const FLASH_KEYS = [...INPUT_KEYS, 'mask', 'scale', 'block_q', 'block_k', 'sram', 'trace'];
const LINEAR_KEYS = [...INPUT_KEYS, 'causal'];

// The fields of one key block of the trace, in the engine's order (cpp/labs/flash.h, FlashTileField).
const TILE_FIELDS = ['key_start', 'key_end', 'm', 'l', 'm_prev', 'rescale', 'block_max', 'block_sum', 'visible', 'skipped'];
// Names and formulas of the IO model's terms, in the engine's order (flash.h, FlashIo). Text only: the
// counts are the engine's.
const IO_TERMS = {
  standard: [['read Q and K for S = α·Q·Kᵀ', 'batch·(n_q + n_k)·d_k'], ['write S (n_q × n_k)', 'batch·n_q·n_k'],
    ['read S, write P = softmax(S)', '2·batch·n_q·n_k'], ['read P and V for O = P·V', 'batch·(n_q·n_k + n_k·d_v)'],
    ['write O', 'batch·n_q·d_v']],
  tiled: [['read Q once, one B_r-row block at a time', 'batch·n_q·d_k'],
    ['read K and V once per query block', 'batch·⌈n_q/B_r⌉·n_k·(d_k + d_v)'],
    ['write O once, one block at a time', 'batch·n_q·d_v']],
};
const CAUSAL_KV_TERM = ['read K and V: each query block reads only the key blocks it does not skip', 'batch·Σ_query blocks keys_read·(d_k + d_v)'];
const ORDERS = { standard: 'Θ(n·d + n²)', tiled: 'Θ(n²·d²/M)' };
// Names and formulas of linearAttentionCost's terms, in the engine's order (linear_attention.h).
const FLOP_TERMS = {
  softmax: [['logits α·q_i·k_j', '2·P·d_k'], ['scale, exp, sum and divide (the softmax)', '4·P'], ['weighted sum of values', '2·P·d_v']],
  linear: [['φ = elu + 1 of queries and keys', '2·n·d_k'], ['S = Σ_j φ(k_j)·v_jᵀ', '2·n·d_k·d_v'], ['z = Σ_j φ(k_j)', 'n·d_k'],
    ['numerators φ(q_i)ᵀ·S', '2·n·d_k·d_v'], ['denominators φ(q_i)ᵀ·z', '2·n·d_k'], ['divide', 'n·d_v']],
};

/** The engine's io record with each term named: { ..., standard: { terms, reads, writes, total, order, order_value }, tiled }. */
function namedIo(io, causal) {
  const side = (name) => {
    const s = io[name];
    const labels = name === 'tiled' && causal ? [IO_TERMS.tiled[0], CAUSAL_KV_TERM, IO_TERMS.tiled[2]] : IO_TERMS[name];
    return { terms: labels.map(([what, formula], x) => ({ what, formula, reads: s.reads[x], writes: s.writes[x] })),
      reads: s.read_total, writes: s.write_total, total: s.total, order: ORDERS[name], order_value: s.order_value };
  };
  return { ...io, standard: side('standard'), tiled: side('tiled') };
}

/** One input array given as `name` (or its short form `short`), not both. */
function pick(what, o, name, short) {
  if (o[name] !== undefined && o[short] !== undefined) throw new Error(`${what}: give ${name} or ${short}, not both`);
  return o[name] !== undefined ? [name, o[name]] : [short, o[short]];
}

/** Sizes and the three checked Float32Arrays of a [batch, n, d] attention input. */
function attentionInput(what, o, heap) {
  const batch = check.integer('batch', o.batch, { fallback: 1 });
  const n_q = check.integer('n_q', o.n_q), n_k = check.integer('n_k', o.n_k);
  const d_k = check.integer('d_k', o.d_k), d_v = check.integer('d_v', o.d_v, { fallback: d_k });
  const arrays = {};
  for (const [name, short, rows, rowName, width, widthName] of [['query', 'q', n_q, 'n_q', d_k, 'd_k'],
    ['key', 'k', n_k, 'n_k', d_k, 'd_k'], ['value', 'v', n_k, 'n_k', d_v, 'd_v']]) {
    const [given, value] = pick(what, o, name, short);
    if (value === undefined) throw new Error(`${what}: ${name} is required (a Float32Array [batch, ${rowName}, ${widthName}])`);
    arrays[name] = check.float32(given, value, batch * rows * width, `[batch, ${rowName}, ${widthName}] = [${batch}, ${rows}, ${width}]`, heap);
  }
  return { batch, n_q, n_k, d_k, d_v, ...arrays };
}

/** The mask of the efficient calls: 'none' or 'causal' only. */
const causalMask = (value) => check.choice('mask', value, ['none', 'causal'], 'none') === 'causal';

/** Block sizes (0 = the default for sram, which only the engine's record knows) and sram (absent: the engine's default M). */
function tiling(o) {
  return {
    block_q: check.integer('block_q', o.block_q, { fallback: 0 }),
    block_k: check.integer('block_k', o.block_k, { fallback: 0 }),
    sram: o.sram === undefined ? undefined : check.integer('sram', o.sram),
  };
}

/** The API's efficient-attention methods over the call wrapper `native` (native.js). */
export function makeEfficientApi(native) {
  return {
    /**
     * FlashAttention's forward pass, tile by tile: { query, key, value, n_q, n_k, d_k, d_v = d_k,
     * batch = 1, mask = 'none' | 'causal', scale = true, block_q (B_r), block_k (B_c), sram (M, the
     * on-chip memory in elements; absent: the engine's default, which io.sram reports), trace: { item = 0, query_index } }. block_q and
     * block_k default to the paper's choice for M: B_c = ⌊M/(4·max(d_k, d_v))⌋, B_r = min(B_c,
     * max(d_k, d_v)), each at most the sequence. → { output [batch, n_q, d_v], tiles, io }: `tiles`
     * follows the traced row through every key block in order ([] without `trace`), including the
     * blocks a causal mask hides from it, whose state is unchanged; `io` models the slow-memory
     * traffic of the standard and the tiled algorithm.
     */
    flashAttention(args) {
      const o = check.options('flashAttention', args, FLASH_KEYS);
      const x = attentionInput('flashAttention', o, native.heap());
      const causal = causalMask(o.mask);
      const scale = check.boolean('scale', o.scale, true);
      const t = tiling(o);
      let item = 0, query_index = -1;
      if (o.trace !== undefined) {
        const tr = check.options('trace', o.trace, ['item', 'query_index']);
        item = check.index('trace.item', tr.item, x.batch, 'batch', 0);
        query_index = check.index('trace.query_index', tr.query_index, x.n_q, 'n_q');
      }
      return native.call((n) => {
        const r = n.run('efficientCall', CALL.flashAttention, record(n, {
          query: n.input('query', x.query), key: n.input('key', x.key), value: n.input('value', x.value),
          batch: x.batch, n_q: x.n_q, n_k: x.n_k, d_k: x.d_k, d_v: x.d_v, causal, scale, ...t, item, query_index,
        }));
        const a = n.arrays(r, { output: null, tile_o: null });
        const { stats, logits } = r.value, F = TILE_FIELDS.length;
        const tiles = [];
        for (let t = 0; t < stats.length / F; t++) {
          const tile = {};
          TILE_FIELDS.forEach((name, f) => { tile[name] = stats[t * F + f]; });
          tile.skipped = tile.skipped === 1;
          tile.o = Array.from(a.tile_o.subarray(t * x.d_v, (t + 1) * x.d_v));
          tile.logits = logits.slice(tile.key_start, tile.key_end);
          tiles.push(tile);
        }
        return { output: a.output, tiles, io: namedIo(r.value.io, causal) };
      });
    },

    /**
     * Linear attention with φ(x) = elu(x) + 1: { query, key, value, n_q, n_k, d_k, d_v = d_k, batch = 1,
     * causal = false } → { output [batch, n_q, d_v] }; output_i = φ(q_i)ᵀ·Σ_j φ(k_j)·v_jᵀ / φ(q_i)ᵀ·Σ_j
     * φ(k_j), the sums over j ≤ i when causal (which needs n_q = n_k).
     */
    linearAttention(args) {
      const o = check.options('linearAttention', args, LINEAR_KEYS);
      const x = attentionInput('linearAttention', o, native.heap());
      const causal = check.boolean('causal', o.causal, false);
      if (causal && x.n_q !== x.n_k) {
        throw new Error(`linearAttention: causal sums over keys j ≤ i, so it needs n_q = n_k (got n_q ${x.n_q}, n_k ${x.n_k})`);
      }
      return native.call((n) => {
        const r = n.run('efficientCall', CALL.linearAttention, record(n, {
          query: n.input('query', x.query), key: n.input('key', x.key), value: n.input('value', x.value),
          batch: x.batch, n_q: x.n_q, n_k: x.n_k, d_k: x.d_k, d_v: x.d_v, causal,
        }));
        return { output: n.arrays(r, { output: null }).output };
      });
    },

    /**
     * FLOPs of one head at n_q = n_k = n: { n, d_k, d_v = d_k, causal = false } → { softmax: { terms:
     * [{ what, formula, flops }], total, order }, linear: { … }, pairs (what P stands for), crossover_n
     * (the smallest n at which linear attention takes fewer FLOPs), ratio (softmax / linear at this n) }.
     * A multiply-add counts 2 FLOPs, exp, elu and a division 1; causal softmax attention computes only
     * the visible pairs.
     */
    linearAttentionCost(args) {
      const o = check.options('linearAttentionCost', args, ['n', 'd_k', 'd_v', 'causal']);
      const n = check.integer('n', o.n), d_k = check.integer('d_k', o.d_k), d_v = check.integer('d_v', o.d_v, { fallback: d_k });
      const causal = check.boolean('causal', o.causal, false);
      const c = native.call((x) => x.run('efficientCall', CALL.linearAttentionCost, record(x, { n, d_k, d_v, causal })).value);
      const side = (name, total, order) => ({ terms: FLOP_TERMS[name].map(([what, formula], x) => ({ what, formula, flops: c[name][x] })),
        total, order });
      return { softmax: side('softmax', c.softmax_total, 'O(n²·d)'), linear: side('linear', c.linear_total, 'O(n·d_k·d_v)'),
        pairs: causal ? 'P = n(n+1)/2 visible pairs' : 'P = n² pairs', crossover_n: c.crossover_n, ratio: c.ratio };
    },
  };
}
