// Decoding with a key/value cache in the JavaScript API: mha.createKVCache({ max_len }) and
// mha.decodeStep({ x, cache }) (methods of MultiHeadAttention, layer.js, run in the labs module, labs.js), and
// attn.decodeCost(...), the cache's bytes and the FLOPs of a step against recomputing the prefix.
// The maths is the core's (cpp/labs/kv_cache.h); this file checks arguments and calls the bindings
// of cpp/bindings/kv_cache.cpp through native.js, in the pattern embind.cpp describes.
//
// A cache belongs to the layer that made it and to that layer's parameters when it was filled: it is
// freed with the layer, and a step after setWeights or setHeadPatterns is refused until clear()
// (its keys and values would be the old parameters').
import * as check from './checks.js';
import { STEP_KEYS, notACache } from './kv_step.js';
import { record } from './record.js';

const CREATE_KEYS = ['max_len', 'memory_budget'];
const COST_KEYS = ['d_model', 'n_heads', 'n_kv_heads', 'd_k', 'd_v', 'bias', 't', 'n_layers', 'scale'];
const POSITIONAL = ['none', 'rope', 'alibi']; // the binding's 0, 1, 2
const OP = { create: 0, decode: 1, read: 2, clear: 3, cost: 4 }; // the binding's operations
// The binding's values, in its order (a JSON array costs the module less than named fields).
const CACHE_FIELDS = ['length', 'max_len', 'bytes', 'bytes_used', 'bytes_per_token', 'id'];
const COST_FIELDS = ['t', 'n_layers', 'cache_bytes_per_token', 'cache_bytes', 'model_cache_bytes', 'mha_model_cache_bytes',
  'step_flops', 'step_projection_flops', 'step_attention_flops', 'recompute_flops', 'recompute_projection_flops',
  'recompute_attention_flops', 'speedup', 'total_flops', 'total_recompute_flops', 'model_step_flops', 'model_recompute_flops'];
const DIMS = ['d_model', 'n_heads', 'n_kv_heads', 'd_k', 'd_v'];
const named = (names, values) => Object.fromEntries(names.map((name, i) => [name, values[i]]));

/**
 * The cache methods over the module `raw` and its call wrapper `native` (native.js), for the
 * MultiHeadAttention class of layer.js (through labs.js), which hands each method the layer object and
 * idOf(), the id of that layer's copy in this module (asked for once the arguments are checked).
 */
export function makeKVCacheApi(native, raw, defaultBudget) {
  const layers = new WeakMap(); // layer object → { caches: Set of cache states, generation }
  const states = new WeakMap(); // KVCache → its state { id, layer, generation, info }
  const layerState = (layer) => {
    if (!layers.has(layer)) layers.set(layer, { caches: new Set(), generation: 0 });
    return layers.get(layer);
  };

  /** Runs an operation of the kvCache binding in the call `n` and names its numbers. */
  const run = (n, op, fields) => {
    const r = n.run('kvCache', record(n, { op: OP[op], ...fields }));
    return { r, info: named(CACHE_FIELDS, r.value) };
  };

  function free(s) {
    if (s.id === null) return;
    raw.kvCacheDelete(s.id);
    s.id = null;
    layerState(s.layer).caches.delete(s);
  }

  /**
   * The keys and values of the tokens a layer has decoded so far, for one sequence (batch 1).
   * Made by mha.createKVCache({ max_len }); its storage for max_len tokens is allocated at once.
   */
  class KVCache {
    constructor(s) {
      states.set(this, s);
      Object.defineProperties(this, {
        n_kv_heads: { value: s.layer.n_kv_heads, enumerable: true },
        d_k: { value: s.layer.d_k, enumerable: true },
        d_v: { value: s.layer.d_v, enumerable: true },
      });
    }

    /** Tokens cached: the next token's position. */
    get length() { return states.get(this).info.length; }
    /** The most tokens it can hold. */
    get max_len() { return states.get(this).info.max_len; }
    /** Bytes held in the wasm heap (max_len tokens' K and V, float32): 0 once deleted. */
    get bytes() { const s = states.get(this); return s.id === null ? 0 : s.info.bytes; }
    /** Bytes of the tokens cached so far: length × bytes_per_token. */
    get bytes_used() { const s = states.get(this); return s.id === null ? 0 : s.info.bytes_used; }
    /** n_kv_heads·(d_k + d_v)·4: what each token adds (grouped-query attention divides it). */
    get bytes_per_token() { return states.get(this).info.bytes_per_token; }
    /** True once delete() (or the layer's delete()) freed it. */
    get deleted() { return states.get(this).id === null; }

    /**
     * Copies of the cached rows: { keys [n_kv_heads, length, d_k], values [n_kv_heads, length,
     * d_v] } (the layout of PyTorch's caches, one block per key/value head).
     */
    read() {
      const s = live(this);
      return native.call((n) => {
        const { r, info } = run(n, 'read', { cache: s.id });
        s.info = info;
        return n.arrays(r, { keys: null, values: null });
      });
    }

    /** Forgets every token (a new sequence; also after the layer's parameters changed). Keeps the memory. */
    clear() {
      const s = live(this);
      s.info = native.call((n) => run(n, 'clear', { cache: s.id }).info);
      s.generation = layerState(s.layer).generation;
    }

    /** Frees its wasm memory (the layer's delete() frees its caches too). */
    delete() {
      free(states.get(this));
    }
  }

  function live(cache) {
    const s = states.get(cache);
    if (s.id === null) throw new Error('this KV cache was deleted');
    return s;
  }

  return {
    /** mha.createKVCache({ max_len, memory_budget? }) for the layer object `layer` (its copy's id: idOf()). */
    create(layer, idOf, args) {
      const o = check.options('createKVCache', args, CREATE_KEYS);
      // Any whole number: the engine names what is wrong with 0 or more than its limit.
      const max_len = check.integer('max_len', o.max_len, { min: -(2 ** 31) });
      const memory_budget = check.integer('memory_budget', o.memory_budget, { fallback: defaultBudget });
      const id = idOf();
      const info = native.call((n) => run(n, 'create', { layer: id, max_len, memory_budget }).info);
      const s = { id: info.id, layer, generation: layerState(layer).generation, info };
      layerState(layer).caches.add(s);
      return new KVCache(s);
    },

    /**
     * mha.decodeStep({ x, cache, scale = true, positional = 'none', rope_base = 10000 (RoPE only) }): the new
     * token x (d_model floats) attends to every cached token and itself, its K and V are appended.
     * → { output (d_model floats, after Wᴼ), weights (n_heads × t, head h's row at h·t, t = cache.length) }.
     */
    decodeStep(layer, idOf, args) {
      const o = check.options('decodeStep', args, STEP_KEYS);
      const s = states.get(o.cache);
      if (s === undefined) notACache(args);
      if (s.id === null) throw new Error('this KV cache was deleted');
      if (s.layer !== layer) {
        throw new Error('this KV cache was made by another layer: a cache holds the keys and values of the layer that made it (layer.createKVCache)');
      }
      const mine = layerState(layer);
      if (s.info.length > 0 && s.generation !== mine.generation) {
        throw new Error('the layer\'s weights changed (setWeights or setHeadPatterns) after this KV cache was filled: its keys and values are the old weights\'; call cache.clear() to start the sequence again');
      }
      const d = layer.d_model;
      check.float32('x', o.x, d, `one token: d_model = ${d}`, native.heap());
      const scale = check.boolean('scale', o.scale, true);
      const positional = check.choice('positional', o.positional, POSITIONAL, 'none');
      const rope_base = check.number('rope_base', o.rope_base); // absent: the core's 10000 (RoPE only)
      const id = idOf();
      return native.call((n) => {
        const x = n.input('x', o.x);
        const { r, info } = run(n, 'decode', { layer: id, cache: s.id, x, scale, positional: POSITIONAL.indexOf(positional), rope_base });
        const out = n.arrays(r, { output: null, weights: null });
        s.info = info;
        s.generation = mine.generation;
        return { output: out.output, weights: out.weights };
      });
    },

    /** The layer's parameters changed: its filled caches are stale. */
    paramsChanged(layer) {
      layerState(layer).generation++;
    },

    /** The layer is being deleted: its caches go with it. */
    layerDeleted(layer) {
      for (const s of [...layerState(layer).caches]) free(s);
    },

    /** Functions of the API object: decodeCost. */
    functions: { decodeCost: (args) => decodeCost(native, args) },
  };
}

/**
 * What decoding costs at step t (the t-th token, which sees t keys), from the sizes alone:
 * { dims, t, n_layers, cache_bytes_per_token, cache_bytes (one layer, t tokens),
 * model_cache_bytes (n_layers), mha_model_cache_bytes, step_flops, step_projection_flops,
 * step_attention_flops, recompute_flops (the causal pass over all t tokens again), its two
 * parts, speedup, total_flops and total_recompute_flops (tokens 1 … t), model_step_flops,
 * model_recompute_flops }. Attention layers only.
 */
function decodeCost(native, args) {
  const o = check.options('decodeCost', args, COST_KEYS);
  const fields = {
    d_model: check.integer('d_model', o.d_model),
    n_heads: check.integer('n_heads', o.n_heads),
    d_k: check.integer('d_k', o.d_k, { fallback: 0 }),
    d_v: check.integer('d_v', o.d_v, { fallback: 0 }),
    bias: check.boolean('bias', o.bias, true),
    n_kv_heads: o.n_kv_heads === undefined ? undefined : check.integer('n_kv_heads', o.n_kv_heads, { min: -(2 ** 31) }),
    t: check.integer('t', o.t, { min: -(2 ** 31) }),
    n_layers: check.integer('n_layers', o.n_layers, { min: -(2 ** 31), fallback: 1 }),
    scale: check.boolean('scale', o.scale, true),
  };
  const values = native.call((n) => n.run('kvCache', record(n, { op: OP.cost, ...fields })).value);
  return { dims: named(DIMS, values), ...named(COST_FIELDS, values.slice(DIMS.length)) };
}
