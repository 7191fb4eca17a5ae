// The teaching labs in the engine's API, run by a wasm module of their own (attention_labs_simd or
// attention_labs_scalar, cpp/labs/): the training lab, the √d_k gradient lab, FlashAttention's tiles,
// linear attention and decoding with a KV cache. The core module (the first view's) holds none of
// them; this loads the labs' module on a lab's first use, never before.
//
// The two modules have separate heaps. A KV cache belongs to a layer of the core module: the labs
// module holds a copy of that layer (its sizes and weights, copied across through JavaScript when
// the cache is made, and again after the layer's weights changed).
import { makeNative } from './native.js';
import { record } from './record.js';
import { makeTrainingApi } from './training.js';
import { makeKvCacheApi, notACache } from './kv_cache.js';
import { makeEfficientApi } from './efficient.js';

/** The API's functions that run in the labs module: each awaits that module on its first use. */
export const LAB_FUNCTIONS = Object.freeze(['createTrainer', 'trainTasks', 'trainingCost', 'sqrtDkGradients', 'decodeCost',
  'flashAttention', 'linearAttention', 'linearAttentionCost']);
const WEIGHT_KEYS = ['wq', 'wk', 'wv', 'wo', 'bq', 'bk', 'bv', 'bo'];

/**
 * The labs of one engine: `loadRaw()` resolves to the labs' raw Embind module; `defaultBudget`: the
 * core's default memory budget of a call. load() resolves to the synchronous labs API (LAB_FUNCTIONS
 * and createKVCache(layer, args)); the hooks weightsChanged, layerDeleted and decodeStep serve the
 * core's MultiHeadAttention (layer.js).
 */
export function makeLabs(loadRaw, defaultBudget) {
  let session = null; // the loaded module's { api, kv, shadows, native, raw }
  let loading = null;
  const generations = new WeakMap(); // core layer → how many times its weights changed

  function load() {
    if (!loading) {
      loading = loadRaw().then((raw) => {
        session = open(raw, defaultBudget, generations);
        return session.api;
      });
      loading.catch(() => { loading = null; }); // a module that failed to load is tried again on the next use
    }
    return loading;
  }

  return {
    load,
    /** The labs API when the module is loaded already, else null (nothing is loaded). */
    now: () => session?.api ?? null,
    weightsChanged(layer) {
      generations.set(layer, (generations.get(layer) ?? 0) + 1);
      session?.kv.weightsChanged(layer);
    },
    layerDeleted(layer) {
      session?.layerDeleted(layer);
    },
    /** layer.decodeStep: a cache exists only once the labs module is loaded. */
    decodeStep(layer, args) {
      if (!session) notACache(args);
      return session.decodeStep(layer, args);
    },
  };
}

/** The session of a loaded labs module `raw`. */
function open(raw, defaultBudget, generations) {
  const native = makeNative(raw);
  const kv = makeKvCacheApi(native, raw, defaultBudget);
  const shadows = new WeakMap(); // core layer → { id, generation } of its copy in this module

  /** The id of `layer`'s copy in this module, made or brought up to the layer's current weights. */
  function shadowOf(layer) {
    const generation = generations.get(layer) ?? 0;
    let s = shadows.get(layer);
    if (s?.generation === generation) return s.id;
    const weights = layer.getWeights(); // a copy out of the core's heap
    if (!s) {
      const { d_model, n_heads, n_kv_heads, d_k, d_v, bias } = layer;
      const made = native.call((n) => n.run('mhaCreate', record(n, { d_model, n_heads, n_kv_heads, d_k, d_v, bias, seed: 1 }))).value;
      s = { id: made.layer, generation: -1 };
      shadows.set(layer, s);
    }
    native.call((n) => n.run('mhaSetWeights', record(n, {
      layer: s.id, ...Object.fromEntries(WEIGHT_KEYS.map((key) => [key, n.input(key, weights[key])])),
    })));
    s.generation = generation;
    return s.id;
  }

  const api = Object.freeze({
    ...makeTrainingApi(native, raw), // createTrainer, trainTasks, trainingCost, sqrtDkGradients
    ...kv.functions, // decodeCost
    ...makeEfficientApi(native), // flashAttention, linearAttention, linearAttentionCost
    /** layer.createKVCache(args) once the module is loaded: a KV cache of the core's `layer`. */
    createKVCache: (layer, args) => kv.create(layer, () => shadowOf(layer), args),
    /** For leak checks: bytes malloc'd in the labs module, its stack pointer, and its kernel set. */
    heapAllocated: () => raw.heapAllocated(),
    stackPointer: () => raw.stackSave(),
    kernelIsa: () => raw.kernelIsa(),
  });

  return {
    api, kv,
    decodeStep: (layer, args) => kv.decodeStep(layer, () => shadowOf(layer), args),
    layerDeleted(layer) {
      kv.layerDeleted(layer);
      const s = shadows.get(layer);
      if (s) raw.mhaDelete(s.id);
      shadows.delete(layer);
    },
  };
}
