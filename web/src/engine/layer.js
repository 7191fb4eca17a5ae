// MultiHeadAttention, the layer of the engine's API: made, given weights or head patterns, run
// forward and backward, compared and traced in the core module; its KV cache is the labs module's
// (engine/labs.js). Arguments are checked first (checks.js), then one call goes through native.js.
import * as check from './checks.js';
import { record } from './record.js';
import { forwardResultSizes } from './result_sizes.js';
import { codePoints, wordRows } from './words.js';
import {
  LAYER_KEYS, INPUT_KEYS, FORWARD_KEYS, PATTERN_KEYS, PARAM_KEYS, BACKWARD_KEYS, MHA_GRADS, NO_ATTENTION, TRACE_KEYS,
  layerConfig, attentionOptions, traceResult, backwardResults,
} from './options.js';

/** The MultiHeadAttention class of one engine `c` ({ native, raw, defaultBudget, labs }). */
export function layerClass(c) {
  return class MultiHeadAttention extends Layer {
    constructor(config) {
      super(c, config);
    }
  };
}

/**
 * Stages the attention options and copies the inputs: the record fields every layer binding
 * shares (key = value = 0 for self-attention). The core counts the inputs (and a backward pass's
 * grad_output, `more`) and the mask in a pass's memory budget (run_memory, backward_memory, Mask::bytes):
 * inputs over the budget on their own are refused before they are copied (checks.js inputsWithinBudget).
 */
function stage(n, o, x, more = []) {
  check.inputsWithinBudget(x.options.memory_budget, [...(x.self ? [o.query] : [o.query, o.key, o.value]), ...more], x.options.mask);
  n.stageAttentionOptions(x.options);
  const query = n.input('query', o.query);
  const key = x.self ? 0 : n.input('key', o.key), value = x.self ? 0 : n.input('value', o.value);
  return { query, key, value, batch: x.batch, n_q: x.n_q, n_k: x.n_k, memory_budget: x.options.memory_budget,
    head_mask: n.input('head_mask', x.headMask) };
}


/**
 * Multi-head attention layer; call delete() when done to free its wasm memory. `engine`: the engine it
 * lives in, { native, raw, defaultBudget, labs } (layerClass hands it over).
 */
class Layer {
  #c;
  #layer; // the engine's id of this layer, null once deleted
  constructor(engine, config) {
    this.#c = engine;
    const o = check.options('MultiHeadAttention', config, LAYER_KEYS);
    const c = layerConfig(o);
    const seed = check.seed('seed', o.seed);
    const made = this.#c.native.call((n) => n.run('mhaCreate', record(n, { ...c, seed }))).value;
    this.#layer = made.layer;
    const { d_model, n_heads, n_kv_heads, d_k, d_v, bias } = made.dims;
    Object.assign(this, { d_model, n_heads, n_kv_heads, d_k, d_v, bias });
  }

  #live() {
    if (this.#layer === null) throw new Error('this MultiHeadAttention was deleted');
    return this.#layer;
  }

  /**
   * Replaces the parameters (the public name is setWeights, docs/API.md): Float32Arrays, y = x·W + b,
   * W is d_in×d_out row-major.
   */
  setWeights(params) {
    const layer = this.#live();
    const w = check.options('setWeights', params, PARAM_KEYS);
    const sizes = this.#paramSizes();
    const heap = this.#c.native.heap();
    for (const key of PARAM_KEYS) {
      const isBias = key[0] === 'b';
      if (w[key] === undefined || w[key] === null) {
        if (!isBias || this.bias) throw new Error(`setWeights: ${key} is required`);
        w[key] = null;
        continue;
      }
      if (isBias && !this.bias) throw new Error(`setWeights: ${key} was given but this layer was made with bias: false`);
      check.float32(key, w[key], ...sizes[key], heap);
    }
    this.#c.labs.paramsChanged(this);
    this.#c.native.call((n) => n.run('mhaSetWeights', record(n, {
      layer, ...Object.fromEntries(PARAM_KEYS.map((key) => [key, n.input(key, w[key])])),
    })));
  }

  /** [length, dims] of each parameter, W and b (setWeights, and the gradients of backward). */
  #paramSizes() {
    const qk = this.n_heads * this.d_k, v = this.n_heads * this.d_v, d = this.d_model;
    // K and V have n_kv_heads heads (grouped-query attention); named so only when it differs.
    const kk = this.n_kv_heads * this.d_k, kv = this.n_kv_heads * this.d_v;
    const h_kv = this.n_kv_heads === this.n_heads ? 'n_heads' : 'n_kv_heads';
    return { wq: [d * qk, `d_model×(n_heads·d_k) = ${d}×${qk}`], wk: [d * kk, `d_model×(${h_kv}·d_k) = ${d}×${kk}`],
      wv: [d * kv, `d_model×(${h_kv}·d_v) = ${d}×${kv}`], wo: [v * d, `(n_heads·d_v)×d_model = ${v}×${d}`],
      bq: [qk, `n_heads·d_k = ${qk}`], bk: [kk, `${h_kv}·d_k = ${kk}`], bv: [kv, `${h_kv}·d_v = ${kv}`], bo: [d, `d_model = ${d}`] };
  }

  /** The current parameters (public name getWeights), as copies (same layout as setWeights; biases null when off). */
  getWeights() {
    const layer = this.#live();
    return this.#c.native.call((n) => {
      const r = n.run('mhaGetWeights', layer);
      const names = PARAM_KEYS.filter((key) => r.arrays[key]);
      const got = n.arrays(r, Object.fromEntries(names.map((key) => [key, null])));
      return Object.fromEntries(PARAM_KEYS.map((key) => [key, got[key] ?? null]));
    });
  }

  /**
   * The checked inputs of forward and compareHeads (o: the copied options): sizes, arrays,
   * attention options and head_mask.
   */
  #inputs(what, o) {
    const batch = check.integer('batch', o.batch, { fallback: 1 });
    const n_q = check.integer('n_q', o.n_q);
    const self = (o.key === undefined && o.value === undefined) || (o.key === o.query && o.value === o.query);
    if (!self && (o.key === undefined || o.value === undefined)) {
      throw new Error(`${what}: give both key and value (cross-attention) or neither (self-attention)`);
    }
    const n_k = check.integer('n_k', o.n_k, { fallback: self ? n_q : undefined });
    if (self && n_k !== n_q) throw new Error(`self-attention needs n_k = n_q (got n_q ${n_q}, n_k ${n_k})`);
    const d = this.d_model, heap = this.#c.native.heap();
    check.float32('query', o.query, batch * n_q * d, `[batch, n_q, d_model] = [${batch}, ${n_q}, ${d}]`, heap);
    if (!self) {
      check.float32('key', o.key, batch * n_k * d, `[batch, n_k, d_model] = [${batch}, ${n_k}, ${d}]`, heap);
      check.float32('value', o.value, batch * n_k * d, `[batch, n_k, d_model] = [${batch}, ${n_k}, ${d}]`, heap);
    }
    const options = attentionOptions(o, { batch, n_q, n_k }, this.#c.defaultBudget, heap);
    return { batch, n_q, n_k, self, heap, options, headMask: check.headMask(o.head_mask, this.n_heads, heap) };
  }


  /**
   * Runs the layer. query: [batch, n_q, d_model]; key, value: [batch, n_k, d_model], or
   * omitted for self-attention; head_mask: n_heads multipliers of the head outputs before Wᴼ
   * (0 switches a head off). Returns { output, weights, shapes, masked_rows }; with
   * `into: { output?, weights? }` the results are written into those arrays, which are returned.
   */
  forward(input) {
    const layer = this.#live();
    const o = check.options('forward', input, FORWARD_KEYS);
    const x = this.#inputs('forward', o);
    const { batch, n_q, n_k, heap, options } = x;
    const d = this.d_model, h = this.n_heads;
    const into = check.destinations(o.into, forwardResultSizes({ batch, n_q, n_k, d_model: d, n_heads: h }), options.need_weights, heap);
    return this.#c.native.call((n) => {
      // The query's copy in the heap is where the engine writes the output (see mhaForward).
      const fields = stage(n, o, x);
      const r = n.run('mhaForward', record(n, { layer, ...fields, need_weights: options.need_weights }));
      const results = n.arrays(r, options.need_weights ? { output: into.output, weights: into.weights } : { output: into.output });
      return { output: results.output, weights: results.weights ?? null, shapes: r.value.shapes, masked_rows: r.value.masked_rows };
    });
  }

  /**
   * The forward pass and the gradients: forward's arguments and grad_output = ∂L/∂output
   * [batch, n_q, d_model]. Returns { output, grads: { wq, wk, wv, wo, bq, bk, bv, bo, query,
   * key, value }, weights, score_grads, masked_rows }: biases null when off; in self-attention
   * key and value are the gradients through the key and value paths (the input's gradient is
   * query + key + value); with need_weights, weights (as forward) and score_grads = ∂L/∂S of
   * the scaled logits, else null. `into: { output?, weights?, score_grads?, grads?: { ... } }`
   * writes those results into the caller's arrays, as forward's does.
   */
  backward(input) {
    const layer = this.#live();
    const o = check.options('backward', input, BACKWARD_KEYS);
    const x = this.#inputs('backward', o);
    const { batch, n_q, n_k, heap, options } = x;
    const d = this.d_model, h = this.n_heads;
    const { output: [outLength, out], weights: attention } = forwardResultSizes({ batch, n_q, n_k, d_model: d, n_heads: h });
    const kv = `[batch, n_k, d_model] = [${batch}, ${n_k}, ${d}]`;
    check.float32('grad_output', o.grad_output, outLength, out, heap);
    const grads = this.#paramSizes();
    if (!this.bias) for (const b of ['bq', 'bk', 'bv', 'bo']) grads[b] = 'this layer was made with bias: false';
    Object.assign(grads, { query: [outLength, out], key: [batch * n_k * d, kv], value: [batch * n_k * d, kv] });
    const into = check.resultArrays(o.into, {
      output: [outLength, out],
      weights: options.need_weights ? attention : NO_ATTENTION,
      score_grads: options.need_weights ? attention : NO_ATTENTION,
      grads,
    }, heap);
    return this.#c.native.call((n) => {
      const fields = stage(n, o, x, [o.grad_output]);
      const grad_output = n.input('grad_output', o.grad_output);
      const r = n.run('mhaBackward', record(n, { layer, ...fields, grad_output, need_weights: options.need_weights }));
      return backwardResults(n, r, MHA_GRADS, into);
    });
  }

  /**
   * Compares the heads on an input (the keys of forward without dropout, need_weights and
   * into): { heads: [{ entropy, distance, max_weight, mean_max_weight, rows }], max_entropy,
   * divergence and similarity (n_heads × n_heads, row-major), ablation: { output_norm,
   * change (per head), order (heads by change, largest first) } }.
   */
  compareHeads(input) {
    const layer = this.#live();
    const o = check.options('compareHeads', input, INPUT_KEYS);
    const x = this.#inputs('compareHeads', o);
    return this.#c.native.call((n) => {
      return n.run('mhaCompareHeads', record(n, { layer, ...stage(n, o, x) })).value;
    });
  }

  /**
   * Builds heads from named patterns against the words the layer will see:
   * { heads: [{ head, pattern: 'previous' | 'same_word' | 'first_token' | 'uniform' | 'random',
   * strength?, k? }], query_words: [[...]] (one row per batch item, '<pad>'-filled),
   * key_words? (cross-attention), input_seed? }. Returns, per head with a pattern, what it is
   * and the numbers behind it (pairs, omega, kernel_margin, exact, fit_error, ...).
   */
  setHeadPatterns(args) {
    const layer = this.#live();
    const o = check.options('setHeadPatterns', args, PATTERN_KEYS);
    const specs = check.plainArray('heads', o.heads, 'head patterns { head, pattern, strength?, k? }').map((spec, i) => {
      const s = check.options(`heads[${i}]`, spec, ['head', 'pattern', 'strength', 'k']);
      if (typeof s.pattern !== 'string') throw new Error(`heads[${i}].pattern must be a string, got ${check.describe(s.pattern)}`);
      return {
        head: check.integer(`heads[${i}].head`, s.head, { min: 0 }),
        pattern: s.pattern,
        strength: check.number(`heads[${i}].strength`, s.strength, NaN),
        k: check.integer(`heads[${i}].k`, s.k, { fallback: 1 }),
      };
    });
    const query = o.query_words === undefined ? null : wordRows('query_words', o.query_words);
    const key = o.key_words === undefined ? null : wordRows('key_words', o.key_words);
    const inputSeed = check.seed('input_seed', o.input_seed);
    const pairs = new Int32Array(2 * specs.length), strengths = new Float64Array(specs.length);
    specs.forEach((s, i) => {
      pairs[2 * i] = s.head;
      pairs[2 * i + 1] = s.k;
      strengths[i] = s.strength;
    });
    const names = codePoints(specs.map((s) => s.pattern));
    this.#c.labs.paramsChanged(this);
    return this.#c.native.call((n) => n.run('mhaSetHeadPatterns', record(n, {
      layer, heads: n.input('heads', pairs), strengths: n.input('strengths', strengths), names: n.input('names', names),
      query_words: n.input('query_words', query?.codes), batch: query?.rows ?? 0, n_q: query?.n ?? 0,
      key_words: n.input('key_words', key?.codes), key_batch: key?.rows ?? 0, n_k: key?.n ?? 0, input_seed: inputSeed,
    })).value.heads);
  }

  /** Every head's pattern: [{ head, pattern, strength (null: its default), k }]; 'custom' after setWeights. */
  getHeadPatterns() {
    const layer = this.#live();
    return this.#c.native.call((n) => n.run('mhaHeadPatterns', layer).value);
  }

  /**
   * Follows query `query_index` of batch item `item` through head `head` and the layer, with
   * the arguments of forward except into (see the README): { x, q, k, v, scores, logits, max,
   * exp, sum, weights, dropped, head_output, concat, output, masked, logit_scale, keep_scale,
   * kv_head }.
   */
  trace(args) {
    const layer = this.#live();
    const o = check.options('trace', args, TRACE_KEYS);
    const x = this.#inputs('trace', o);
    const item = check.index('item', o.item, x.batch, 'batch', 0);
    const head = check.index('head', o.head, this.n_heads, 'n_heads', 0);
    const query_index = check.index('query_index', o.query_index, x.n_q, 'n_q');
    return this.#c.native.call((n) => {
      const fields = stage(n, o, x);
      const r = n.run('mhaTrace', record(n, { layer, ...fields, item, head, query_index }));
      // ALiBi: bias (n_k, −slope·|i − j|, added to the scaled logits) and slope; null otherwise.
      const alibi = r.arrays.bias ? ['bias'] : [];
      const t = traceResult(n, r, ['x', 'q', 'k', 'v'], ['head_output', 'concat', 'output', ...alibi]);
      return { ...t, bias: t.bias ?? null, slope: r.value.slope ?? null, kv_head: r.value.kv_head };
    });
  }

  /**
   * A promise of a key/value cache for decodeStep: { max_len, memory_budget? } (engine/kv_cache.js).
   * The cache lives in the labs module, which this loads on first use (engine/labs.js).
   */
  async createKVCache(args) {
    this.#live();
    return (await this.#c.labs.load()).createKVCache(this, args);
  }

  /** One token decoded with a cache: { x, cache, scale?, positional?, rope_base? } → { output, weights } (engine/kv_cache.js). */
  decodeStep(args) {
    this.#live();
    return this.#c.labs.decodeStep(this, args);
  }

  /** Frees the wasm memory of this layer and of its KV caches. */
  delete() {
    if (this.#layer !== null) this.#c.labs.layerDeleted(this);
    if (this.#layer !== null) this.#c.raw.mhaDelete(this.#layer);
    this.#layer = null;
  }
}
