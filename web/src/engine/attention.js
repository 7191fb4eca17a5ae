// The JavaScript API of the attention engine: loads the SIMD or the baseline wasm module and
// wraps its Embind surface with argument checks. Works unchanged in a page, a Web Worker and
// Node 20 (the wasm files live in ../../wasm/ relative to this file).
//
// Each method reads and checks every option first (checks.js copies what it reads, so each
// value is read once), then makes one call into the engine through native.js, which copies
// the inputs into the wasm heap, runs the binding on plain numbers and copies the results out
// (see the binding pattern in cpp/bindings/embind.cpp, which new bindings must follow).
import * as check from './checks.js';
import { Int32ArrayOf, Uint8ArrayOf, lengthOf } from './intrinsics.js';
import { makeNative } from './native.js';
import { record } from './record.js';
import { forwardResultSizes } from './result_sizes.js';
import { simdSupported } from './probe.js';
import { codePoints, wordRows } from './words.js';
import { makeTrainingApi } from './training.js';
import { makeKvCacheApi } from './kv_cache.js';
import { makeEfficientApi } from './efficient.js';

const isNode = typeof process === 'object' && !!process.versions?.node;
const providedLoaders = new Map(); // module name → its loader's factory, carried inside a bundle

/**
 * Hands loadAttention a module's loader that the calling bundle carries inside itself
 * (engine/bundled_loader.js), so it is not imported by URL. `name`: 'attention_simd' or
 * 'attention_scalar'; `createModule`: that loader's default export, from the same build as the wasm.
 */
export function provideLoader(name, createModule) {
  if (name !== 'attention_simd' && name !== 'attention_scalar') throw new Error(`provideLoader: no module named '${name}'`);
  if (typeof createModule !== 'function') throw new Error(`provideLoader: the loader of ${name} must be a function`);
  providedLoaders.set(name, createModule);
}

/**
 * Loads the engine. `simd`: true/false forces a module; undefined picks SIMD where the
 * engine supports it. `compiled`: { [absolute URL of a .wasm]: WebAssembly.Module or a Promise
 * of one } that the caller started compiling earlier (the page does so in its <head>); used only
 * for the URL this call loads, and a promise that rejects is ignored (the wasm is fetched again).
 * Resolves to the API object; `isa` says which module runs.
 */
export async function loadAttention(options = {}) {
  const o = check.options('loadAttention', options, ['simd', 'wasmDir', 'compiled']);
  if (o.compiled !== undefined && (o.compiled === null || typeof o.compiled !== 'object')) {
    throw new Error(`compiled must be an object { [.wasm URL]: WebAssembly.Module or Promise }, got ${o.compiled === null ? 'null' : typeof o.compiled}`);
  }
  const wantSimd = check.boolean('simd', o.simd, undefined);
  if (wantSimd === true && !simdSupported()) {
    throw new Error('the SIMD module was requested but this JavaScript engine has no 128-bit wasm SIMD');
  }
  const useSimd = wantSimd ?? simdSupported();
  // Resolved here, not when the module loads: a module evaluated from a blob: URL (a bundle a
  // notebook hands over) cannot resolve a relative URL, and passes wasmDir as an absolute one.
  const dir = o.wasmDir ? new URL(o.wasmDir, import.meta.url) : new URL('../../wasm/', import.meta.url);
  const name = useSimd ? 'attention_simd' : 'attention_scalar';
  // The wasm is fetched and compiled while its loader is imported (not after, as the loader would):
  // on a first visit these two are most of the wait for the engine.
  const wasmUrl = new URL(`${name}.wasm`, dir);
  const early = o.compiled && Object.hasOwn(o.compiled, wasmUrl.href) ? o.compiled[wasmUrl.href] : undefined;
  const compiling = early === undefined ? compileWasm(wasmUrl) : Promise.resolve(early).then((module) => {
    if (!(module instanceof WebAssembly.Module)) throw new Error('not a WebAssembly.Module');
    return module;
  }).catch(() => compileWasm(wasmUrl)); // the early compile failed: this one reports why
  compiling.catch(() => {}); // awaited below; an import that fails first must not leave it unhandled
  const loader = providedLoaders.has(name) ? { default: providedLoaders.get(name) } : import(new URL(`${name}.mjs`, dir).href);
  const [{ default: createModule }, wasmModule] = await Promise.all([loader, compiling]);
  let instantiateFailed;
  const failure = new Promise((_, reject) => { instantiateFailed = reject; });
  const raw = await Promise.race([failure, createModule({
    locateFile: (file) => new URL(file, dir).href,
    // The loader's hook for a module compiled elsewhere: it gives the imports, we give the instance.
    instantiateWasm(imports, receiveInstance) {
      WebAssembly.instantiate(wasmModule, imports).then((instance) => receiveInstance(instance, wasmModule), (err) => {
        // The loader may be inside a bundle (provideLoader) and the wasm from a folder of another build.
        instantiateFailed(new Error(`${name}.wasm from ${dir.href} does not fit this module's loader (are they from different builds?): ${err.message}`));
      });
      return {}; // the exports arrive later, through receiveInstance
    },
  })]);
  return makeApi(raw, useSimd ? 'wasm-simd128' : 'scalar');
}

/** Fetches and compiles the engine's wasm (streaming where the server says application/wasm). */
async function compileWasm(url) {
  const file = url.pathname.split('/').pop();
  if (isNode) {
    const { readFile } = await import('node:fs/promises');
    let bytes;
    try {
      bytes = await readFile(url);
    } catch (err) {
      throw new Error(`${file} could not be read from ${url.href}: ${err.code ?? err.message}`);
    }
    return WebAssembly.compile(bytes).catch((err) => {
      throw new Error(`${file} from ${url.href} is not a WebAssembly module this engine can compile: ${err.message}`);
    });
  }
  let response;
  try {
    response = await fetch(url.href, { credentials: 'same-origin' }); // the credentials mode of index.html's early fetch
  } catch (err) {
    throw new Error(`${file} could not be fetched from ${url.href}: ${err.message}`);
  }
  if (!response.ok) throw new Error(`${file} could not be fetched from ${url.href}: HTTP ${response.status}`);
  try {
    if (typeof WebAssembly.compileStreaming === 'function' && /^application\/wasm\b/.test(response.headers.get('content-type') ?? '')) {
      return await WebAssembly.compileStreaming(response);
    }
    return await WebAssembly.compile(await response.arrayBuffer()); // a server that sends another type
  } catch (err) {
    // e.g. a sign-in page or a site's fallback page served in its place
    throw new Error(`${file} from ${url.href} is not a WebAssembly module this browser can compile: ${err.message}`);
  }
}

const LAYER_KEYS = ['d_model', 'n_heads', 'n_kv_heads', 'd_k', 'd_v', 'bias', 'seed'];
// window and stride go with mask 'sliding' and 'strided'; positional ('none' | 'rope' | 'alibi') and
// rope_base act on the layer's logits; head_offset and layer_heads place a layer's heads in a larger
// layer, for ALiBi's slopes (the worker pool's workers each hold some of the heads).
const INPUT_KEYS = ['query', 'key', 'value', 'batch', 'n_q', 'n_k', 'mask', 'window', 'stride', 'scale', 'head_mask',
  'memory_budget', 'positional', 'rope_base', 'head_offset', 'layer_heads'];
const FORWARD_KEYS = [...INPUT_KEYS, 'dropout', 'training', 'seed', 'need_weights', 'into'];
const PATTERN_KEYS = ['heads', 'query_words', 'key_words', 'input_seed'];
const WEIGHT_KEYS = ['wq', 'wk', 'wv', 'wo', 'bq', 'bk', 'bv', 'bo'];
// The backward calls take their forward call's arguments and ∂L/∂output.
const BACKWARD_KEYS = [...FORWARD_KEYS, 'grad_output'];
const MHA_GRADS = [...WEIGHT_KEYS, 'query', 'key', 'value'];
const SDPA_GRADS = ['q', 'k', 'v'];
const NO_WEIGHTS = 'need_weights is false; the weights and score gradients are only computed with need_weights: true';
const SDPA_KEYS = ['q', 'k', 'v', 'batch', 'n_q', 'n_k', 'd_k', 'd_v', 'mask', 'window', 'stride', 'scale', 'dropout', 'training', 'seed',
  'need_weights', 'memory_budget', 'into'];
const SDPA_BACKWARD_KEYS = [...SDPA_KEYS, 'grad_output'];
// A trace takes the arguments of its forward call (need_weights changes nothing: the trace
// always holds its one row of weights), never `into`, plus the indices of the row it follows.
const TRACE_KEYS = [...FORWARD_KEYS.filter((k) => k !== 'into'), 'item', 'head', 'query_index'];
// traceAttention has no `query` input array, so it also takes the row's index as `query`.
const TRACE_SDPA_KEYS = [...SDPA_KEYS.filter((k) => k !== 'into'), 'item', 'query_index', 'query'];
// The arrays of a traced row of one head (the binding's names).
const ROW_ARRAYS = ['scores', 'logits', 'exp', 'weights', 'dropped'];
const VIEW_KEYS = ['d_model', 'n_heads', 'n_kv_heads', 'd_k', 'd_v', 'n_q', 'n_k', 'batch', 'mask', 'window', 'stride', 'positional', 'rope_base'];
const POSITIONAL = ['none', 'rope', 'alibi'];

/**
 * The mask of a view: { causal, padding: Int32Array or null }. Only the form is checked here
 * (whole numbers that fit the engine's int32 input); the count per batch item and the range
 * 0..n_k are the engine's rules (resolveView).
 */
function viewMask(value, sparse = {}) {
  if (value === 'sliding' || value === 'strided' || sparse.window !== undefined || sparse.stride !== undefined) {
    const m = check.mask(value, {}, undefined, sparse);
    return { causal: false, padding: null, window: m.window, stride: m.stride };
  }
  if (value === undefined || value === 'none') return { causal: false, padding: null };
  if (value === 'causal') return { causal: true, padding: null };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`mask must be 'none', 'causal' or { causal?, padding? }, got ${check.describe(value)}`);
  }
  const m = check.options('mask', value, ['causal', 'padding']);
  const causal = check.boolean('mask.causal', m.causal, false);
  if (m.padding === undefined) return { causal, padding: null };
  const lengths = check.plainArray('mask.padding', m.padding, 'key lengths, one per batch item');
  const padding = new Int32ArrayOf(lengths.length);
  lengths.forEach((len, b) => { padding[b] = check.integer(`mask.padding[${b}]`, len, { min: -(2 ** 31) }); });
  return { causal, padding };
}

/**
 * The checked sizes of a layer, from an options object already copied by check.options: the
 * fields of the engine's record. n_kv_heads: any whole number when given (the engine names what
 * is wrong with 0, a non-divisor or more than n_heads); undefined (absent) when not given, which
 * the record leaves out: n_heads.
 */
function layerConfig(o) {
  return {
    d_model: check.integer('d_model', o.d_model),
    n_heads: check.integer('n_heads', o.n_heads),
    d_k: check.integer('d_k', o.d_k, { fallback: 0 }),
    d_v: check.integer('d_v', o.d_v, { fallback: 0 }),
    bias: check.boolean('bias', o.bias, true),
    n_kv_heads: o.n_kv_heads === undefined ? undefined : check.integer('n_kv_heads', o.n_kv_heads, { min: -(2 ** 31) }),
  };
}

/** Shared options of attention calls: mask, √d_k scale, dropout, seed, weights, budget. */
function attentionOptions(o, sizes, defaultBudget, heap) {
  const dropout = check.number('dropout', o.dropout, 0);
  // The engine holds p in float32: a value just below 1 would round to 1 there.
  if (dropout < 0 || Math.fround(dropout) >= 1) throw new Error(`dropout must be in [0, 1), got ${dropout}`);
  return {
    mask: check.mask(o.mask, sizes, heap, { window: o.window, stride: o.stride }),
    scale: check.boolean('scale', o.scale, true),
    dropout,
    // Dropout is a training-time operation: asking for p > 0 turns training on unless told otherwise.
    training: check.boolean('training', o.training, dropout > 0),
    seed: check.seed('seed', o.seed),
    need_weights: check.boolean('need_weights', o.need_weights, false),
    memory_budget: check.integer('memory_budget', o.memory_budget, { fallback: defaultBudget }),
    // The layer's calls only (scaledDotProductAttention's keys have none of these): defaults there.
    positional: POSITIONAL.indexOf(check.choice('positional', o.positional, POSITIONAL, 'none')),
    // Absent stays absent: the core takes 10000 with RoPE and refuses a base given with another method.
    rope_base: check.number('rope_base', o.rope_base),
    head_offset: check.integer('head_offset', o.head_offset, { min: 0, fallback: 0 }),
    layer_heads: check.integer('layer_heads', o.layer_heads, { min: 0, fallback: 0 }),
  };
}

/** The checked input of scaled dot-product attention (or its trace): sizes, q, k, v, options. */
function sdpaInput(o, defaultBudget, heap) {
  const batch = check.integer('batch', o.batch, { fallback: 1 });
  const n_q = check.integer('n_q', o.n_q), n_k = check.integer('n_k', o.n_k);
  const d_k = check.integer('d_k', o.d_k), d_v = check.integer('d_v', o.d_v, { fallback: d_k });
  check.float32('q', o.q, batch * n_q * d_k, `[batch, n_q, d_k] = [${batch}, ${n_q}, ${d_k}]`, heap);
  check.float32('k', o.k, batch * n_k * d_k, `[batch, n_k, d_k] = [${batch}, ${n_k}, ${d_k}]`, heap);
  check.float32('v', o.v, batch * n_k * d_v, `[batch, n_k, d_v] = [${batch}, ${n_k}, ${d_v}]`, heap);
  return { batch, n_q, n_k, d_k, d_v, options: attentionOptions(o, { batch, n_q, n_k }, defaultBudget, heap) };
}

/**
 * A trace's result from its envelope, in the order of the computation: the arrays `before`,
 * the row's steps (dropped as a Uint8Array), the arrays `after`, then the flags and factors.
 * Every array is a new one.
 */
function traceResult(n, r, before, after) {
  const a = n.arrays(r, Object.fromEntries([...before, ...ROW_ARRAYS, ...after].map((name) => [name, null])));
  const dropped = new Uint8ArrayOf(a.dropped.length);
  for (let j = 0; j < dropped.length; j++) dropped[j] = a.dropped[j];
  const pick = (names) => Object.fromEntries(names.map((name) => [name, a[name]]));
  const { max, sum, masked, logit_scale, keep_scale } = r.value;
  return { ...pick(before), scores: a.scores, logits: a.logits, max, exp: a.exp, sum, weights: a.weights, dropped,
    ...pick(after), masked, logit_scale, keep_scale };
}

/** Stages scaled dot-product attention's options and copies q, k and v into the call. */
function stageSdpa(n, o, options) {
  n.stageAttentionOptions(options);
  return { q: n.input('q', o.q), k: n.input('k', o.k), v: n.input('v', o.v) };
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

function makeApi(raw, isa) {
  const defaultBudget = raw.defaultMemoryBudget();
  const native = makeNative(raw);
  const kv = makeKvCacheApi(native, raw, defaultBudget); // createKVCache, decodeStep (engine/kv_cache.js)

  /** Multi-head attention layer; call delete() when done to free its wasm memory. */
  class MultiHeadAttention {
    #layer; // the engine's id of this layer, null once deleted
    constructor(config) {
      const o = check.options('MultiHeadAttention', config, LAYER_KEYS);
      const c = layerConfig(o);
      const seed = check.seed('seed', o.seed);
      const made = native.call((n) => n.run('mhaCreate', record(n, { ...c, seed }))).value;
      this.#layer = made.layer;
      const { d_model, n_heads, n_kv_heads, d_k, d_v, bias } = made.dims;
      Object.assign(this, { d_model, n_heads, n_kv_heads, d_k, d_v, bias });
    }

    #live() {
      if (this.#layer === null) throw new Error('this MultiHeadAttention was deleted');
      return this.#layer;
    }

    /** Replaces the weights: Float32Arrays, y = x·W + b, W is d_in×d_out row-major. */
    setWeights(weights) {
      const layer = this.#live();
      const w = check.options('setWeights', weights, WEIGHT_KEYS);
      const sizes = this.#weightSizes();
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
      kv.weightsChanged(this);
      native.call((n) => n.run('mhaSetWeights', record(n, {
        layer, ...Object.fromEntries(WEIGHT_KEYS.map((key) => [key, n.input(key, w[key])])),
      })));
    }

    /** [length, dims] of each weight and bias (setWeights, and the gradients of backward). */
    #weightSizes() {
      const qk = this.n_heads * this.d_k, v = this.n_heads * this.d_v, d = this.d_model;
      // K and V have n_kv_heads heads (grouped-query attention); named so only when it differs.
      const kk = this.n_kv_heads * this.d_k, kv = this.n_kv_heads * this.d_v;
      const h_kv = this.n_kv_heads === this.n_heads ? 'n_heads' : 'n_kv_heads';
      return { wq: [d * qk, `d_model×(n_heads·d_k) = ${d}×${qk}`], wk: [d * kk, `d_model×(${h_kv}·d_k) = ${d}×${kk}`],
        wv: [d * kv, `d_model×(${h_kv}·d_v) = ${d}×${kv}`], wo: [v * d, `(n_heads·d_v)×d_model = ${v}×${d}`],
        bq: [qk, `n_heads·d_k = ${qk}`], bk: [kk, `${h_kv}·d_k = ${kk}`], bv: [kv, `${h_kv}·d_v = ${kv}`], bo: [d, `d_model = ${d}`] };
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
      const d = this.d_model, heap = native.heap();
      check.float32('query', o.query, batch * n_q * d, `[batch, n_q, d_model] = [${batch}, ${n_q}, ${d}]`, heap);
      if (!self) {
        check.float32('key', o.key, batch * n_k * d, `[batch, n_k, d_model] = [${batch}, ${n_k}, ${d}]`, heap);
        check.float32('value', o.value, batch * n_k * d, `[batch, n_k, d_model] = [${batch}, ${n_k}, ${d}]`, heap);
      }
      const options = attentionOptions(o, { batch, n_q, n_k }, defaultBudget, heap);
      return { batch, n_q, n_k, self, heap, options, headMask: check.headMask(o.head_mask, this.n_heads, heap) };
    }

    /**
     * Stages the attention options and copies the inputs: the record fields every layer binding
     * shares (key = value = 0 for self-attention).
     */
    static #stage(n, o, x) {
      n.stageAttentionOptions(x.options);
      const query = n.input('query', o.query);
      const key = x.self ? 0 : n.input('key', o.key), value = x.self ? 0 : n.input('value', o.value);
      return { query, key, value, batch: x.batch, n_q: x.n_q, n_k: x.n_k, memory_budget: x.options.memory_budget,
        head_mask: n.input('head_mask', x.headMask) };
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
      return native.call((n) => {
        // The query's copy in the heap is where the engine writes the output (see mhaForward).
        const fields = MultiHeadAttention.#stage(n, o, x);
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
      const grads = this.#weightSizes();
      if (!this.bias) for (const b of ['bq', 'bk', 'bv', 'bo']) grads[b] = 'this layer was made with bias: false';
      Object.assign(grads, { query: [outLength, out], key: [batch * n_k * d, kv], value: [batch * n_k * d, kv] });
      const into = check.resultArrays(o.into, {
        output: [outLength, out],
        weights: options.need_weights ? attention : NO_WEIGHTS,
        score_grads: options.need_weights ? attention : NO_WEIGHTS,
        grads,
      }, heap);
      return native.call((n) => {
        const fields = MultiHeadAttention.#stage(n, o, x);
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
      return native.call((n) => {
        return n.run('mhaCompareHeads', record(n, { layer, ...MultiHeadAttention.#stage(n, o, x) })).value;
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
      kv.weightsChanged(this);
      return native.call((n) => n.run('mhaSetHeadPatterns', record(n, {
        layer, heads: n.input('heads', pairs), strengths: n.input('strengths', strengths), names: n.input('names', names),
        query_words: n.input('query_words', query?.codes), batch: query?.rows ?? 0, n_q: query?.n ?? 0,
        key_words: n.input('key_words', key?.codes), key_batch: key?.rows ?? 0, n_k: key?.n ?? 0, input_seed: inputSeed,
      })).value.heads);
    }

    /** Every head's pattern: [{ head, pattern, strength (null: its default), k }]; 'custom' after setWeights. */
    getHeadPatterns() {
      const layer = this.#live();
      return native.call((n) => n.run('mhaHeadPatterns', layer).value);
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
      return native.call((n) => {
        const fields = MultiHeadAttention.#stage(n, o, x);
        const r = n.run('mhaTrace', record(n, { layer, ...fields, item, head, query_index }));
        // ALiBi: bias (n_k, −slope·|i − j|, added to the scaled logits) and slope; null otherwise.
        const alibi = r.arrays.bias ? ['bias'] : [];
        const t = traceResult(n, r, ['x', 'q', 'k', 'v'], ['head_output', 'concat', 'output', ...alibi]);
        return { ...t, bias: t.bias ?? null, slope: r.value.slope ?? null, kv_head: r.value.kv_head };
      });
    }

    /** A key/value cache for decodeStep: { max_len, memory_budget? } (engine/kv_cache.js). */
    createKVCache(args) {
      return kv.create(this, this.#live(), args);
    }

    /** One token decoded with a cache: { x, cache, scale?, positional?, rope_base? } → { output, weights } (engine/kv_cache.js). */
    decodeStep(args) {
      return kv.decodeStep(this, this.#live(), args);
    }

    /** Frees the wasm memory of this layer and of its KV caches. */
    delete() {
      if (this.#layer !== null) kv.layerDeleted(this);
      if (this.#layer !== null) raw.mhaDelete(this.#layer);
      this.#layer = null;
    }
  }

  return {
    isa,
    MultiHeadAttention,
    ...makeTrainingApi(native, raw), // createTrainer, sqrtDkGradients, trainTasks
    ...kv.functions, // decodeCost
    ...makeEfficientApi(native), // flashAttention, linearAttention, linearAttentionCost

    /**
     * softmax(Q·Kᵀ/√d_k [mask]) [dropout] · V over [batch, n, d] arrays, no projections;
     * `into: { output?, weights? }` as for forward.
     */
    scaledDotProductAttention(args) {
      const o = check.options('scaledDotProductAttention', args, SDPA_KEYS);
      const heap = native.heap();
      const { batch, n_q, n_k, d_k, d_v, options } = sdpaInput(o, defaultBudget, heap);
      const into = check.destinations(o.into, {
        output: [batch * n_q * d_v, `[batch, n_q, d_v] = [${batch}, ${n_q}, ${d_v}]`],
        weights: [batch * n_q * n_k, `[batch, n_q, n_k] = [${batch}, ${n_q}, ${n_k}]`],
      }, options.need_weights, heap);
      return native.call((n) => {
        const { q, k, v } = stageSdpa(n, o, options);
        const r = n.run('scaledDotProductAttention', record(n, { q, k, v, batch, n_q, n_k, d_k, d_v,
          need_weights: options.need_weights, memory_budget: options.memory_budget }));
        const results = n.arrays(r, options.need_weights ? { output: into.output, weights: into.weights } : { output: into.output });
        return { output: results.output, weights: results.weights ?? null, masked_rows: r.value.masked_rows };
      });
    },

    /**
     * Follows query `query_index` of batch item `item` through scaledDotProductAttention (its
     * arguments): { q, k, v, scores, logits, max, exp, sum, weights, dropped, output, masked,
     * logit_scale, keep_scale }.
     */
    traceAttention(args) {
      const o = check.options('traceAttention', args, TRACE_SDPA_KEYS);
      const { batch, n_q, n_k, d_k, d_v, options } = sdpaInput(o, defaultBudget, native.heap());
      const item = check.index('item', o.item, batch, 'batch', 0);
      if (o.query !== undefined && o.query_index !== undefined) {
        throw new Error('traceAttention: give the query row as query or as query_index, not both');
      }
      const query_index = o.query !== undefined ? check.index('query', o.query, n_q, 'n_q')
        : check.index('query_index', o.query_index, n_q, 'n_q');
      return native.call((n) => {
        const { q, k, v } = stageSdpa(n, o, options);
        const r = n.run('traceAttention', record(n, { q, k, v, batch, n_q, n_k, d_k, d_v,
          memory_budget: options.memory_budget, item, query_index }));
        return traceResult(n, r, ['q', 'k', 'v'], ['output']);
      });
    },

    /**
     * The forward pass and the gradients of scaledDotProductAttention: its arguments and
     * grad_output [batch, n_q, d_v]. Returns { output, grads: { q, k, v }, weights, score_grads,
     * masked_rows }, as mha.backward; `into: { output?, weights?, score_grads?, grads?: { q?, k?, v? } }`.
     */
    scaledDotProductAttentionBackward(args) {
      const o = check.options('scaledDotProductAttentionBackward', args, SDPA_BACKWARD_KEYS);
      const heap = native.heap();
      const { batch, n_q, n_k, d_k, d_v, options } = sdpaInput(o, defaultBudget, heap);
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
        const q = n.input('q', o.q), k = n.input('k', o.k), v = n.input('v', o.v);
        const grad_output = n.input('grad_output', o.grad_output);
        const r = n.run('scaledDotProductAttentionBackward', record(n, { q, k, v, grad_output, batch, n_q, n_k, d_k, d_v,
          need_weights: options.need_weights, memory_budget: options.memory_budget }));
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
     * The page's random inputs: Float32Array of `count` N(0, 1) values of the engine's seeded
     * stream (the generator of the word embeddings), { seed, count }.
     */
    randomNormal(args) {
      const o = check.options('randomNormal', args, ['seed', 'count']);
      const seed = check.seed('seed', o.seed), count = check.integer('count', o.count, { min: 0 });
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

    /**
     * Token inputs as the page makes them, Float32Array [batch, n, d_model]: each word's seeded
     * embedding (lower-cased, seeded by `seed`) plus the sinusoidal positional encoding.
     * words: one array of strings per batch item, all of the same length ('<pad>'-filled).
     */
    embedTokens(args) {
      const o = check.options('embedTokens', args, ['words', 'd_model', 'seed']);
      const words = wordRows('words', o.words);
      const d_model = check.integer('d_model', o.d_model), seed = check.seed('seed', o.seed);
      return native.call((x) => x.arrays(x.run('embedTokens', record(x, { words: x.input('words', words.codes),
        batch: words.rows, n: words.n, d_model, seed })), { tokens: null }).tokens);
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

    /** ALiBi's slope of each head of a layer of n_heads heads ({ n_heads }), as the layer uses them. */
    alibiSlopes(args) {
      const o = check.options('alibiSlopes', args, ['n_heads']);
      const n_heads = check.integer('n_heads', o.n_heads);
      if (n_heads > 65536) throw new Error(`n_heads is too large (${n_heads}); alibiSlopes takes up to 65,536`);
      return native.call((x) => x.run('alibiSlopes', n_heads).value);
    },

    /**
     * RoPE's logits of one query vector q placed at each of `positions` against one key vector k
     * at position − offset: { q, k (Float32Array of d_k, even), offset? (0), positions (whole
     * numbers ≥ offset), rope_base? (the core's default), scale? (true: divided by √d_k) } → numbers, which
     * depend on the offset only.
     */
    ropeLogits(args) {
      const o = check.options('ropeLogits', args, ['q', 'k', 'offset', 'positions', 'rope_base', 'scale']);
      const heap = native.heap();
      check.float32('q', o.q, undefined, 'd_k', heap);
      const d_k = lengthOf(o.q);
      check.float32('k', o.k, d_k, `d_k = ${d_k}`, heap);
      const offset = check.integer('offset', o.offset, { min: 0, fallback: 0 });
      const list = check.plainArray('positions', o.positions, 'whole numbers');
      if (list.length > 4096) throw new Error(`positions has ${list.length} entries; ropeLogits takes up to 4,096`);
      const positions = new Int32ArrayOf(list.length);
      list.forEach((p, i) => { positions[i] = check.integer(`positions[${i}]`, p, { min: offset }); });
      const rope_base = check.number('rope_base', o.rope_base), scale = check.boolean('scale', o.scale, true);
      return native.call((x) => x.run('ropeLogits', record(x, { q: x.input('q', o.q), k: x.input('k', o.k), offset,
        positions: x.input('positions', positions), rope_base, scale })).value);
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
      return native.call((x) => x.arrays(x.run('matmul', record(x, { a: x.input('a', o.a), b: x.input('b', o.b), m, k, n })),
        { c: null }).c);
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
