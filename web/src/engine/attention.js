// The JavaScript API of the attention engine: loads the SIMD or the baseline wasm module and
// wraps its Embind surface with argument checks. Works unchanged in a page, a Web Worker and
// Node 20 (the wasm files live in ../../wasm/ relative to this file).
import * as check from './checks.js';
import { simdSupported } from './probe.js';

const WASM_DIR = new URL('../../wasm/', import.meta.url);
const isNode = typeof process === 'object' && !!process.versions?.node;

/**
 * Loads the engine. `simd`: true/false forces a module; undefined picks SIMD where the
 * engine supports it. Resolves to the API object; `isa` says which module runs.
 */
export async function loadAttention(options = {}) {
  check.checkOptions('loadAttention', options, ['simd', 'wasmDir']);
  const wantSimd = check.boolean('simd', options.simd, undefined);
  if (wantSimd === true && !simdSupported()) {
    throw new Error('the SIMD module was requested but this JavaScript engine has no 128-bit wasm SIMD');
  }
  const useSimd = wantSimd ?? simdSupported();
  const dir = options.wasmDir ? new URL(options.wasmDir, WASM_DIR) : WASM_DIR;
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
// backward takes forward's arguments and ∂L/∂output; its results are new arrays (no `into`).
const BACKWARD_KEYS = [...FORWARD_KEYS.filter((k) => k !== 'into'), 'grad_output'];
const SDPA_KEYS = ['q', 'k', 'v', 'batch', 'n_q', 'n_k', 'd_k', 'd_v', 'mask', 'scale', 'dropout', 'training', 'seed',
  'need_weights', 'memory_budget', 'into'];
const SDPA_BACKWARD_KEYS = [...SDPA_KEYS.filter((k) => k !== 'into'), 'grad_output'];

function layerConfig(what, config) {
  check.checkOptions(what, config, LAYER_KEYS);
  return {
    d_model: check.integer('d_model', config.d_model),
    n_heads: check.integer('n_heads', config.n_heads),
    d_k: check.integer('d_k', config.d_k, { fallback: 0 }),
    d_v: check.integer('d_v', config.d_v, { fallback: 0 }),
    bias: check.boolean('bias', config.bias, true),
    seed: check.seed('seed', config.seed),
  };
}

/** Shared options of attention calls: mask, √d_k scale, dropout, seed, weights, budget. */
function attentionOptions(o, sizes, defaultBudget) {
  const dropout = check.number('dropout', o.dropout, 0);
  // The engine holds p in float32: a value just below 1 would round to 1 there.
  if (dropout < 0 || Math.fround(dropout) >= 1) throw new Error(`dropout must be in [0, 1), got ${dropout}`);
  return {
    mask: check.mask(o.mask, sizes),
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

  /** The checks of both SDPA calls: sizes, the q, k, v arrays, options. */
  function sdpaInput(what, o, keys) {
    check.checkOptions(what, o, keys);
    const batch = check.integer('batch', o.batch, { fallback: 1 });
    const n_q = check.integer('n_q', o.n_q), n_k = check.integer('n_k', o.n_k);
    const d_k = check.integer('d_k', o.d_k), d_v = check.integer('d_v', o.d_v, { fallback: d_k });
    check.float32('q', o.q, batch * n_q * d_k, `[batch, n_q, d_k] = [${batch}, ${n_q}, ${d_k}]`);
    check.float32('k', o.k, batch * n_k * d_k, `[batch, n_k, d_k] = [${batch}, ${n_k}, ${d_k}]`);
    check.float32('v', o.v, batch * n_k * d_v, `[batch, n_k, d_v] = [${batch}, ${n_k}, ${d_v}]`);
    return { batch, n_q, n_k, d_k, d_v, options: attentionOptions(o, { batch, n_q, n_k }, defaultBudget) };
  }

  /** Multi-head attention layer; call delete() when done to free its wasm memory. */
  class MultiHeadAttention {
    #layer;
    constructor(config) {
      this.#layer = new raw.MhaLayer(layerConfig('MultiHeadAttention', config));
      const dims = this.#layer.dims();
      Object.assign(this, { d_model: dims.d_model, n_heads: dims.n_heads, d_k: dims.d_k, d_v: dims.d_v, bias: dims.bias });
    }

    #live() {
      if (!this.#layer) throw new Error('this MultiHeadAttention was deleted');
      return this.#layer;
    }

    /** Replaces the weights: Float32Arrays, y = x·W + b, W is d_in×d_out row-major. */
    setWeights(weights) {
      const layer = this.#live();
      check.checkOptions('setWeights', weights, WEIGHT_KEYS);
      const qk = this.n_heads * this.d_k, v = this.n_heads * this.d_v, d = this.d_model;
      const sizes = { wq: [d * qk, `d_model×(n_heads·d_k) = ${d}×${qk}`], wk: [d * qk, `d_model×(n_heads·d_k) = ${d}×${qk}`],
        wv: [d * v, `d_model×(n_heads·d_v) = ${d}×${v}`], wo: [v * d, `(n_heads·d_v)×d_model = ${v}×${d}`],
        bq: [qk, `n_heads·d_k = ${qk}`], bk: [qk, `n_heads·d_k = ${qk}`], bv: [v, `n_heads·d_v = ${v}`], bo: [d, `d_model = ${d}`] };
      for (const key of WEIGHT_KEYS) {
        const isBias = key[0] === 'b';
        if (weights[key] === undefined || weights[key] === null) {
          if (!isBias || this.bias) throw new Error(`setWeights: ${key} is required`);
          continue;
        }
        if (isBias && !this.bias) throw new Error(`setWeights: ${key} was given but this layer was made with bias: false`);
        check.float32(key, weights[key], ...sizes[key]);
      }
      layer.setWeights(weights);
    }

    /** The current weights, as copies (same layout as setWeights; biases null when off). */
    getWeights() {
      return this.#live().getWeights();
    }

    /**
     * Runs the layer. query: [batch, n_q, d_model]; key, value: [batch, n_k, d_model], or
     * omitted for self-attention. Returns { output, weights, shapes, masked_rows }; with
     * `into: { output?, weights? }` the results are written into those arrays, which are returned.
     */
    forward(input) {
      const layer = this.#live();
      const { batch, n_q, n_k, self, options } = this.#input('forward', input, FORWARD_KEYS);
      const d = this.d_model, h = this.n_heads;
      const into = check.destinations(input.into, {
        output: [batch * n_q * d, `[batch, n_q, d_model] = [${batch}, ${n_q}, ${d}]`],
        weights: [batch * h * n_q * n_k, `[batch, n_heads, n_q, n_k] = [${batch}, ${h}, ${n_q}, ${n_k}]`],
      }, options.need_weights, raw.HEAP8.buffer);
      return layer.forward(input.query, self ? null : input.key, self ? null : input.value, batch, n_q, n_k, options,
        into.output, into.weights);
    }

    /**
     * Gradients: forward's arguments (but `into`) and grad_output = ∂L/∂output [batch, n_q, d_model].
     * Returns { output, grads: { wq, wk, wv, wo, bq, bk, bv, bo, query, key, value }, weights,
     * score_grads, masked_rows }: biases null when off; in self-attention key and value are the
     * gradients through the key and value paths (the input's gradient is query + key + value);
     * with need_weights, weights (as forward) and score_grads = ∂L/∂(scaled logits) per head.
     */
    backward(input) {
      const layer = this.#live();
      const { batch, n_q, n_k, self, options } = this.#input('backward', input, BACKWARD_KEYS);
      const d = this.d_model;
      check.float32('grad_output', input.grad_output, batch * n_q * d, `[batch, n_q, d_model] = [${batch}, ${n_q}, ${d}]`);
      return layer.backward(input.query, self ? null : input.key, self ? null : input.value, input.grad_output, batch, n_q,
        n_k, options);
    }

    /** The checks forward and backward share: sizes, self or cross, input arrays, options. */
    #input(what, input, keys) {
      check.checkOptions(what, input, keys);
      const batch = check.integer('batch', input.batch, { fallback: 1 });
      const n_q = check.integer('n_q', input.n_q);
      const self = (input.key === undefined && input.value === undefined) ||
        (input.key === input.query && input.value === input.query);
      if (!self && (input.key === undefined || input.value === undefined)) {
        throw new Error(`${what}: give both key and value (cross-attention) or neither (self-attention)`);
      }
      const n_k = check.integer('n_k', input.n_k, { fallback: self ? n_q : undefined });
      if (self && n_k !== n_q) throw new Error(`self-attention needs n_k = n_q (got n_q ${n_q}, n_k ${n_k})`);
      const d = this.d_model;
      check.float32('query', input.query, batch * n_q * d, `[batch, n_q, d_model] = [${batch}, ${n_q}, ${d}]`);
      if (!self) {
        check.float32('key', input.key, batch * n_k * d, `[batch, n_k, d_model] = [${batch}, ${n_k}, ${d}]`);
        check.float32('value', input.value, batch * n_k * d, `[batch, n_k, d_model] = [${batch}, ${n_k}, ${d}]`);
      }
      return { batch, n_q, n_k, self, options: attentionOptions(input, { batch, n_q, n_k }, defaultBudget) };
    }

    /** Frees the wasm memory of this layer. */
    delete() {
      if (this.#layer) this.#layer.delete();
      this.#layer = null;
    }
  }

  return {
    isa,
    MultiHeadAttention,

    /**
     * softmax(Q·Kᵀ/√d_k [mask]) [dropout] · V over [batch, n, d] arrays, no projections;
     * `into: { output?, weights? }` as for forward.
     */
    scaledDotProductAttention(o) {
      const { batch, n_q, n_k, d_k, d_v, options } = sdpaInput('scaledDotProductAttention', o, SDPA_KEYS);
      const into = check.destinations(o.into, {
        output: [batch * n_q * d_v, `[batch, n_q, d_v] = [${batch}, ${n_q}, ${d_v}]`],
        weights: [batch * n_q * n_k, `[batch, n_q, n_k] = [${batch}, ${n_q}, ${n_k}]`],
      }, options.need_weights, raw.HEAP8.buffer);
      return raw.scaledDotProductAttention(o.q, o.k, o.v, batch, n_q, n_k, d_k, d_v, options, into.output, into.weights);
    },

    /**
     * Gradients of scaledDotProductAttention: its arguments (but `into`) and grad_output
     * [batch, n_q, d_v]. Returns { output, grads: { q, k, v }, weights, score_grads, masked_rows }.
     */
    scaledDotProductAttentionBackward(o) {
      const { batch, n_q, n_k, d_k, d_v, options } = sdpaInput('scaledDotProductAttentionBackward', o, SDPA_BACKWARD_KEYS);
      check.float32('grad_output', o.grad_output, batch * n_q * d_v, `[batch, n_q, d_v] = [${batch}, ${n_q}, ${d_v}]`);
      return raw.scaledDotProductAttentionBackward(o.q, o.k, o.v, o.grad_output, batch, n_q, n_k, d_k, d_v, options);
    },

    /** Shapes, parameters, FLOPs (the lesson's count and the exact one) and memory; allocates nothing. */
    analyze(o) {
      check.checkOptions('analyze', o, [...LAYER_KEYS.filter((k) => k !== 'seed'), 'batch', 'n', 'n_q', 'n_k',
        'need_weights', 'scale', 'n_kv_heads']);
      const config = layerConfig('analyze', { d_model: o.d_model, n_heads: o.n_heads, d_k: o.d_k, d_v: o.d_v, bias: o.bias });
      const n = check.integer('n', o.n, { fallback: 0, min: 0 });
      const n_q = check.integer('n_q', o.n_q, { fallback: n || undefined });
      const n_k = check.integer('n_k', o.n_k, { fallback: n || n_q });
      return raw.analyze(config, check.integer('batch', o.batch, { fallback: 1 }), n_q, n_k,
        check.boolean('need_weights', o.need_weights, true), check.boolean('scale', o.scale, true),
        check.integer('n_kv_heads', o.n_kv_heads, { fallback: 0, min: 0 }));
    },

    /** Sinusoidal positional encoding, Float32Array [n, d_model]. */
    positionalEncoding(o) {
      check.checkOptions('positionalEncoding', o, ['n', 'd_model']);
      return raw.positionalEncoding(check.integer('n', o.n), check.integer('d_model', o.d_model));
    },

    /** Measured properties of the encoding: bounds, distinct positions, the rotation for offset k. */
    positionalProperties(o) {
      check.checkOptions('positionalProperties', o, ['n', 'd_model', 'k']);
      return raw.positionalProperties(check.integer('n', o.n), check.integer('d_model', o.d_model),
        check.integer('k', o.k, { fallback: 1 }));
    },

    /** Why √d_k: variance of q·k and softmax sharpness with and without the scale. */
    sqrtDkStats(o) {
      check.checkOptions('sqrtDkStats', o, ['d_k', 'n_k', 'samples', 'seed']);
      return raw.sqrtDkStats(check.integer('d_k', o.d_k), check.integer('n_k', o.n_k, { fallback: 64 }),
        check.integer('samples', o.samples, { fallback: 200 }), check.seed('seed', o.seed));
    },

    /** The lesson's worked examples E1, E2, E3, P1, P4, each figure recomputed with ok against LESSON.md. */
    lessonExamples: () => raw.lessonExamples(),
    /** The model table (Transformer base, BERT, GPT-2, GPT-3, LLaMA). */
    modelPresets: () => raw.modelPresets(),

    /** C (m×n) = A (m×k) · B (k×n), row-major, with this module's matmul kernel. */
    matmul(o) {
      check.checkOptions('matmul', o, ['a', 'b', 'm', 'k', 'n']);
      const m = check.integer('m', o.m), k = check.integer('k', o.k), n = check.integer('n', o.n);
      check.float32('a', o.a, m * k, `m×k = ${m}×${k}`);
      check.float32('b', o.b, k * n, `k×n = ${k}×${n}`);
      return raw.matmul(o.a, o.b, m, k, n);
    },

    /** Size of the wasm memory in bytes (it grows, never shrinks). */
    memoryBytes: () => raw.HEAP8.buffer.byteLength,
    /** Bytes currently allocated by malloc inside the module (for leak checks). */
    heapAllocated: () => raw.heapAllocated(),
    /** The default memory budget of one call, in bytes. */
    defaultMemoryBudget: defaultBudget,
    /** What the kernels were compiled for, as the module itself reports it. */
    kernelIsa: () => raw.kernelIsa(),
  };
}
