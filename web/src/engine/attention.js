// The JavaScript API of the attention engine: loads the SIMD or the baseline wasm module and
// wraps its Embind surface with argument checks. Works unchanged in a page, a Web Worker and
// Node 20 (the wasm files live in ../../wasm/ relative to this file).
//
// Each method reads and checks every option first (checks.js copies what it reads, so each
// value is read once), then makes one call into the engine through native.js, which copies
// the inputs into the wasm heap, runs the binding on plain numbers and copies the results out
// (see the binding pattern in cpp/bindings/embind.cpp, which new bindings must follow).
import * as check from './checks.js';
import { makeNative } from './native.js';
import { simdSupported } from './probe.js';
import { makeTrainingApi } from './training.js';

const WASM_DIR = new URL('../../wasm/', import.meta.url);
const isNode = typeof process === 'object' && !!process.versions?.node;

/**
 * Loads the engine. `simd`: true/false forces a module; undefined picks SIMD where the
 * engine supports it. Resolves to the API object; `isa` says which module runs.
 */
export async function loadAttention(options = {}) {
  const o = check.options('loadAttention', options, ['simd', 'wasmDir']);
  const wantSimd = check.boolean('simd', o.simd, undefined);
  if (wantSimd === true && !simdSupported()) {
    throw new Error('the SIMD module was requested but this JavaScript engine has no 128-bit wasm SIMD');
  }
  const useSimd = wantSimd ?? simdSupported();
  const dir = o.wasmDir ? new URL(o.wasmDir, WASM_DIR) : WASM_DIR;
  const name = useSimd ? 'attention_simd' : 'attention_scalar';
  const { default: createModule } = await import(new URL(`${name}.mjs`, dir).href);
  const moduleArgs = { locateFile: (file) => new URL(file, dir).href };
  if (isNode) {
    const { readFile } = await import('node:fs/promises');
    moduleArgs.wasmBinary = await readFile(new URL(`${name}.wasm`, dir));
  }
  const raw = await createModule(moduleArgs);
  return makeApi(raw, useSimd ? 'wasm-simd128' : 'scalar');
}

const LAYER_KEYS = ['d_model', 'n_heads', 'd_k', 'd_v', 'bias', 'seed'];
const FORWARD_KEYS = ['query', 'key', 'value', 'batch', 'n_q', 'n_k', 'mask', 'scale', 'dropout', 'training',
  'seed', 'need_weights', 'memory_budget', 'into'];
const WEIGHT_KEYS = ['wq', 'wk', 'wv', 'wo', 'bq', 'bk', 'bv', 'bo'];
const SDPA_KEYS = ['q', 'k', 'v', 'batch', 'n_q', 'n_k', 'd_k', 'd_v', 'mask', 'scale', 'dropout', 'training', 'seed',
  'need_weights', 'memory_budget', 'into'];
// The backward calls take their forward call's arguments and ∂L/∂output.
const BACKWARD_KEYS = [...FORWARD_KEYS, 'grad_output'];
const SDPA_BACKWARD_KEYS = [...SDPA_KEYS, 'grad_output'];
const MHA_GRADS = [...WEIGHT_KEYS, 'query', 'key', 'value'];
const SDPA_GRADS = ['q', 'k', 'v'];
const NO_WEIGHTS = 'need_weights is false; the weights and score gradients are only computed with need_weights: true';

/** The checked sizes of a layer, from an options object already copied by check.options. */
function layerConfig(o) {
  return {
    d_model: check.integer('d_model', o.d_model),
    n_heads: check.integer('n_heads', o.n_heads),
    d_k: check.integer('d_k', o.d_k, { fallback: 0 }),
    d_v: check.integer('d_v', o.d_v, { fallback: 0 }),
    bias: check.boolean('bias', o.bias, true),
  };
}

/** Shared options of attention calls: mask, √d_k scale, dropout, seed, weights, budget. */
function attentionOptions(o, sizes, defaultBudget, heap) {
  const dropout = check.number('dropout', o.dropout, 0);
  // The engine holds p in float32: a value just below 1 would round to 1 there.
  if (dropout < 0 || Math.fround(dropout) >= 1) throw new Error(`dropout must be in [0, 1), got ${dropout}`);
  return {
    mask: check.mask(o.mask, sizes, heap),
    scale: check.boolean('scale', o.scale, true),
    dropout,
    // Dropout is a training-time operation: asking for p > 0 turns training on unless told otherwise.
    training: check.boolean('training', o.training, dropout > 0),
    seed: check.seed('seed', o.seed),
    need_weights: check.boolean('need_weights', o.need_weights, false),
    memory_budget: check.integer('memory_budget', o.memory_budget, { fallback: defaultBudget }),
  };
}

function makeApi(raw, isa) {
  const defaultBudget = raw.defaultMemoryBudget();
  const native = makeNative(raw);

  /** What both SDPA calls check: sizes, the q, k, v arrays, the options. */
  function sdpaSizes(o) {
    const batch = check.integer('batch', o.batch, { fallback: 1 });
    const n_q = check.integer('n_q', o.n_q), n_k = check.integer('n_k', o.n_k);
    const d_k = check.integer('d_k', o.d_k), d_v = check.integer('d_v', o.d_v, { fallback: d_k });
    const heap = native.heap();
    check.float32('q', o.q, batch * n_q * d_k, `[batch, n_q, d_k] = [${batch}, ${n_q}, ${d_k}]`, heap);
    check.float32('k', o.k, batch * n_k * d_k, `[batch, n_k, d_k] = [${batch}, ${n_k}, ${d_k}]`, heap);
    check.float32('v', o.v, batch * n_k * d_v, `[batch, n_k, d_v] = [${batch}, ${n_k}, ${d_v}]`, heap);
    return { batch, n_q, n_k, d_k, d_v, heap, options: attentionOptions(o, { batch, n_q, n_k }, defaultBudget, heap) };
  }

  /**
   * The results of a backward binding, copied out (into the caller's arrays where `into`, from
   * check.resultArrays, names one): { output, grads: { name: array or null }, weights,
   * score_grads, masked_rows }. A gradient the engine did not return (a bias that is off) is null.
   */
  function backwardResults(n, r, gradNames, into) {
    const wanted = { output: into.output ?? null };
    for (const name of gradNames) if (r.arrays[`grads.${name}`]) wanted[`grads.${name}`] = into[`grads.${name}`] ?? null;
    for (const name of ['weights', 'score_grads']) if (r.arrays[name]) wanted[name] = into[name] ?? null;
    const a = n.arrays(r, wanted);
    return {
      output: a.output,
      grads: Object.fromEntries(gradNames.map((name) => [name, a[`grads.${name}`] ?? null])),
      weights: a.weights ?? null,
      score_grads: a.score_grads ?? null,
      masked_rows: r.value.masked_rows,
    };
  }

  /** Multi-head attention layer; call delete() when done to free its wasm memory. */
  class MultiHeadAttention {
    #layer; // the engine's id of this layer, null once deleted
    constructor(config) {
      const o = check.options('MultiHeadAttention', config, LAYER_KEYS);
      const c = layerConfig(o);
      const seed = check.seed('seed', o.seed);
      const made = native.call((n) => n.run('mhaCreate', c.d_model, c.n_heads, c.d_k, c.d_v, c.bias, seed)).value;
      this.#layer = made.layer;
      const { d_model, n_heads, d_k, d_v, bias } = made.dims;
      Object.assign(this, { d_model, n_heads, d_k, d_v, bias });
    }

    #live() {
      if (this.#layer === null) throw new Error('this MultiHeadAttention was deleted');
      return this.#layer;
    }

    /** Replaces the weights: Float32Arrays, y = x·W + b, W is d_in×d_out row-major. */
    setWeights(weights) {
      const layer = this.#live();
      const w = check.options('setWeights', weights, WEIGHT_KEYS);
      const qk = this.n_heads * this.d_k, v = this.n_heads * this.d_v, d = this.d_model;
      const sizes = { wq: [d * qk, `d_model×(n_heads·d_k) = ${d}×${qk}`], wk: [d * qk, `d_model×(n_heads·d_k) = ${d}×${qk}`],
        wv: [d * v, `d_model×(n_heads·d_v) = ${d}×${v}`], wo: [v * d, `(n_heads·d_v)×d_model = ${v}×${d}`],
        bq: [qk, `n_heads·d_k = ${qk}`], bk: [qk, `n_heads·d_k = ${qk}`], bv: [v, `n_heads·d_v = ${v}`], bo: [d, `d_model = ${d}`] };
      const heap = native.heap();
      for (const key of WEIGHT_KEYS) {
        const isBias = key[0] === 'b';
        if (w[key] === undefined || w[key] === null) {
          if (!isBias || this.bias) throw new Error(`setWeights: ${key} is required`);
          w[key] = null;
          continue;
        }
        if (isBias && !this.bias) throw new Error(`setWeights: ${key} was given but this layer was made with bias: false`);
        check.float32(key, w[key], ...sizes[key], heap);
      }
      native.call((n) => n.run('mhaSetWeights', layer, ...WEIGHT_KEYS.map((key) => n.input(key, w[key]))));
    }

    /** The current weights, as copies (same layout as setWeights; biases null when off). */
    getWeights() {
      const layer = this.#live();
      return native.call((n) => {
        const r = n.run('mhaGetWeights', layer);
        const names = WEIGHT_KEYS.filter((key) => r.arrays[key]);
        const got = n.arrays(r, Object.fromEntries(names.map((key) => [key, null])));
        return Object.fromEntries(WEIGHT_KEYS.map((key) => [key, got[key] ?? null]));
      });
    }

    /**
     * Runs the layer. query: [batch, n_q, d_model]; key, value: [batch, n_k, d_model], or
     * omitted for self-attention. Returns { output, weights, shapes, masked_rows }; with
     * `into: { output?, weights? }` the results are written into those arrays, which are returned.
     */
    forward(input) {
      const layer = this.#live();
      const o = check.options('forward', input, FORWARD_KEYS);
      const { batch, n_q, n_k, self, heap, options } = this.#sizes('forward', o);
      const d = this.d_model, h = this.n_heads;
      const into = check.destinations(o.into, {
        output: [batch * n_q * d, `[batch, n_q, d_model] = [${batch}, ${n_q}, ${d}]`],
        weights: [batch * h * n_q * n_k, `[batch, n_heads, n_q, n_k] = [${batch}, ${h}, ${n_q}, ${n_k}]`],
      }, options.need_weights, heap);
      return native.call((n) => {
        n.stageAttentionOptions(options);
        // The query's copy in the heap is where the engine writes the output (see mhaForward).
        const q = n.input('query', o.query);
        const k = self ? 0 : n.input('key', o.key), v = self ? 0 : n.input('value', o.value);
        const r = n.run('mhaForward', layer, q, k, v, batch, n_q, n_k, options.need_weights, options.memory_budget);
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
      const { batch, n_q, n_k, self, heap, options } = this.#sizes('backward', o);
      const d = this.d_model, h = this.n_heads, qk = h * this.d_k, v = h * this.d_v;
      const out = `[batch, n_q, d_model] = [${batch}, ${n_q}, ${d}]`, kv = `[batch, n_k, d_model] = [${batch}, ${n_k}, ${d}]`;
      check.float32('grad_output', o.grad_output, batch * n_q * d, out, heap);
      const noBias = 'this layer was made with bias: false';
      const attention = [batch * h * n_q * n_k, `[batch, n_heads, n_q, n_k] = [${batch}, ${h}, ${n_q}, ${n_k}]`];
      const into = check.resultArrays(o.into, {
        output: [batch * n_q * d, out],
        weights: options.need_weights ? attention : NO_WEIGHTS,
        score_grads: options.need_weights ? attention : NO_WEIGHTS,
        grads: {
          wq: [d * qk, `d_model×(n_heads·d_k) = ${d}×${qk}`], wk: [d * qk, `d_model×(n_heads·d_k) = ${d}×${qk}`],
          wv: [d * v, `d_model×(n_heads·d_v) = ${d}×${v}`], wo: [v * d, `(n_heads·d_v)×d_model = ${v}×${d}`],
          bq: this.bias ? [qk, `n_heads·d_k = ${qk}`] : noBias, bk: this.bias ? [qk, `n_heads·d_k = ${qk}`] : noBias,
          bv: this.bias ? [v, `n_heads·d_v = ${v}`] : noBias, bo: this.bias ? [d, `d_model = ${d}`] : noBias,
          query: [batch * n_q * d, out], key: [batch * n_k * d, kv], value: [batch * n_k * d, kv],
        },
      }, heap);
      return native.call((n) => {
        n.stageAttentionOptions(options);
        const q = n.input('query', o.query);
        const k = self ? 0 : n.input('key', o.key), vi = self ? 0 : n.input('value', o.value);
        const g = n.input('grad_output', o.grad_output);
        const r = n.run('mhaBackward', layer, q, k, vi, g, batch, n_q, n_k, options.need_weights, options.memory_budget);
        return backwardResults(n, r, MHA_GRADS, into);
      });
    }

    /** What forward and backward check alike: sizes, self or cross, the inputs, the options. */
    #sizes(what, o) {
      const batch = check.integer('batch', o.batch, { fallback: 1 });
      const n_q = check.integer('n_q', o.n_q);
      const self = (o.key === undefined && o.value === undefined) || (o.key === o.query && o.value === o.query);
      if (!self && (o.key === undefined || o.value === undefined)) {
        throw new Error(`${what}: give both key and value (cross-attention) or neither (self-attention)`);
      }
      const n_k = check.integer('n_k', o.n_k, { fallback: self ? n_q : undefined });
      if (self && n_k !== n_q) throw new Error(`self-attention needs n_k = n_q (got n_q ${n_q}, n_k ${n_k})`);
      const d = this.d_model, heap = native.heap();
      check.float32('query', o.query, batch * n_q * d, `[batch, n_q, d_model] = [${batch}, ${n_q}, ${d}]`, heap);
      if (!self) {
        check.float32('key', o.key, batch * n_k * d, `[batch, n_k, d_model] = [${batch}, ${n_k}, ${d}]`, heap);
        check.float32('value', o.value, batch * n_k * d, `[batch, n_k, d_model] = [${batch}, ${n_k}, ${d}]`, heap);
      }
      return { batch, n_q, n_k, self, heap, options: attentionOptions(o, { batch, n_q, n_k }, defaultBudget, heap) };
    }

    /** Frees the wasm memory of this layer. */
    delete() {
      if (this.#layer !== null) raw.mhaDelete(this.#layer);
      this.#layer = null;
    }
  }

  return {
    isa,
    MultiHeadAttention,
    ...makeTrainingApi(native, raw), // createTrainer, sqrtDkGradients, trainTasks

    /**
     * softmax(Q·Kᵀ/√d_k [mask]) [dropout] · V over [batch, n, d] arrays, no projections;
     * `into: { output?, weights? }` as for forward.
     */
    scaledDotProductAttention(args) {
      const o = check.options('scaledDotProductAttention', args, SDPA_KEYS);
      const { batch, n_q, n_k, d_k, d_v, heap, options } = sdpaSizes(o);
      const into = check.destinations(o.into, {
        output: [batch * n_q * d_v, `[batch, n_q, d_v] = [${batch}, ${n_q}, ${d_v}]`],
        weights: [batch * n_q * n_k, `[batch, n_q, n_k] = [${batch}, ${n_q}, ${n_k}]`],
      }, options.need_weights, heap);
      return native.call((n) => {
        n.stageAttentionOptions(options);
        const q = n.input('q', o.q), k = n.input('k', o.k), v = n.input('v', o.v);
        const r = n.run('scaledDotProductAttention', q, k, v, batch, n_q, n_k, d_k, d_v, options.need_weights,
          options.memory_budget);
        const results = n.arrays(r, options.need_weights ? { output: into.output, weights: into.weights } : { output: into.output });
        return { output: results.output, weights: results.weights ?? null, masked_rows: r.value.masked_rows };
      });
    },

    /**
     * The forward pass and the gradients of scaledDotProductAttention: its arguments and
     * grad_output [batch, n_q, d_v]. Returns { output, grads: { q, k, v }, weights, score_grads,
     * masked_rows }, as mha.backward; `into: { output?, weights?, score_grads?, grads?: { q?, k?, v? } }`.
     */
    scaledDotProductAttentionBackward(args) {
      const o = check.options('scaledDotProductAttentionBackward', args, SDPA_BACKWARD_KEYS);
      const { batch, n_q, n_k, d_k, d_v, heap, options } = sdpaSizes(o);
      const out = `[batch, n_q, d_v] = [${batch}, ${n_q}, ${d_v}]`;
      check.float32('grad_output', o.grad_output, batch * n_q * d_v, out, heap);
      const attention = [batch * n_q * n_k, `[batch, n_q, n_k] = [${batch}, ${n_q}, ${n_k}]`];
      const into = check.resultArrays(o.into, {
        output: [batch * n_q * d_v, out],
        weights: options.need_weights ? attention : NO_WEIGHTS,
        score_grads: options.need_weights ? attention : NO_WEIGHTS,
        grads: {
          q: [batch * n_q * d_k, `[batch, n_q, d_k] = [${batch}, ${n_q}, ${d_k}]`],
          k: [batch * n_k * d_k, `[batch, n_k, d_k] = [${batch}, ${n_k}, ${d_k}]`],
          v: [batch * n_k * d_v, `[batch, n_k, d_v] = [${batch}, ${n_k}, ${d_v}]`],
        },
      }, heap);
      return native.call((n) => {
        n.stageAttentionOptions(options);
        const q = n.input('q', o.q), k = n.input('k', o.k), v = n.input('v', o.v), g = n.input('grad_output', o.grad_output);
        const r = n.run('scaledDotProductAttentionBackward', q, k, v, g, batch, n_q, n_k, d_k, d_v, options.need_weights,
          options.memory_budget);
        return backwardResults(n, r, SDPA_GRADS, into);
      });
    },

    /**
     * Shapes, parameters, FLOPs (the lesson's count and the exact one) and memory; allocates
     * nothing. `n` for self-attention, or `n_q` and `n_k`; `attention: 'self' | 'cross'` says
     * which is costed (cross-attention holds a key and a value input of its own). Default:
     * 'self' unless n_k is given.
     */
    analyze(args) {
      const o = check.options('analyze', args, [...LAYER_KEYS.filter((k) => k !== 'seed'), 'batch', 'n', 'n_q', 'n_k',
        'need_weights', 'scale', 'n_kv_heads', 'attention']);
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
      const kvHeads = check.integer('n_kv_heads', o.n_kv_heads, { fallback: 0, min: 0 });
      return native.call((x) => x.run('analyze', c.d_model, c.n_heads, c.d_k, c.d_v, c.bias, batch, n_q, n_k, needWeights,
        scale, kvHeads, attention === 'self').value);
    },

    /** Sinusoidal positional encoding, Float32Array [n, d_model]. */
    positionalEncoding(args) {
      const o = check.options('positionalEncoding', args, ['n', 'd_model']);
      const n = check.integer('n', o.n), d_model = check.integer('d_model', o.d_model);
      return native.call((x) => x.arrays(x.run('positionalEncoding', n, d_model), { encoding: null }).encoding);
    },

    /** Measured properties of the encoding: bounds, distinct positions, the rotation for offset k. */
    positionalProperties(args) {
      const o = check.options('positionalProperties', args, ['n', 'd_model', 'k']);
      const n = check.integer('n', o.n), d_model = check.integer('d_model', o.d_model);
      const k = check.integer('k', o.k, { fallback: 1 });
      return native.call((x) => x.run('positionalProperties', n, d_model, k).value);
    },

    /** Why √d_k: variance of q·k and softmax sharpness with and without the scale. */
    sqrtDkStats(args) {
      const o = check.options('sqrtDkStats', args, ['d_k', 'n_k', 'samples', 'seed']);
      const d_k = check.integer('d_k', o.d_k), n_k = check.integer('n_k', o.n_k, { fallback: 64 });
      const samples = check.integer('samples', o.samples, { fallback: 200 }), seed = check.seed('seed', o.seed);
      return native.call((x) => x.run('sqrtDkStats', d_k, n_k, samples, seed).value);
    },

    /** The lesson's worked examples E1, E2, E3, P1, P4, each figure recomputed with ok against LESSON.md. */
    lessonExamples: () => native.call((x) => x.run('lessonExamples').value),
    /** The model table (Transformer base, BERT, GPT-2, GPT-3, LLaMA). */
    modelPresets: () => native.call((x) => x.run('modelPresets').value),

    /** C (m×n) = A (m×k) · B (k×n), row-major, with this module's matmul kernel. */
    matmul(args) {
      const o = check.options('matmul', args, ['a', 'b', 'm', 'k', 'n']);
      const m = check.integer('m', o.m), k = check.integer('k', o.k), n = check.integer('n', o.n);
      const heap = native.heap();
      check.float32('a', o.a, m * k, `m×k = ${m}×${k}`, heap);
      check.float32('b', o.b, k * n, `k×n = ${k}×${n}`, heap);
      return native.call((x) => x.arrays(x.run('matmul', x.input('a', o.a), x.input('b', o.b), m, k, n), { c: null }).c);
    },

    /** Size of the wasm memory in bytes (it grows, never shrinks). */
    memoryBytes: () => native.heap().byteLength,
    /** Bytes currently allocated by malloc inside the module (for leak checks). */
    heapAllocated: () => raw.heapAllocated(),
    /** The wasm stack pointer (for leak checks: the same before and after any call, failed or not). */
    stackPointer: () => raw.stackSave(),
    /** The default memory budget of one call, in bytes. */
    defaultMemoryBudget: defaultBudget,
    /** What the kernels were compiled for, as the module itself reports it. */
    kernelIsa: () => raw.kernelIsa(),
  };
}
