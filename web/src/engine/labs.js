// The teaching labs in the engine's API, run by a wasm module of their own (attention_labs_simd or
// attention_labs_scalar, cpp/labs/): the training lab, the √d_k gradient lab, FlashAttention's tiles,
// linear attention, decoding with a KV cache and the lesson's worked examples recomputed. The core module
// (the first view's) holds none of them; this loads the labs' module on a lab's first use, never before.
//
// The two modules have separate heaps. A KV cache belongs to a layer of the core module: the labs
// module holds a copy of that layer (its sizes and parameters, copied across through JavaScript when
// the cache is made, and again after the layer's parameters changed).
//
// The labs' JavaScript (labs_session.js and what it imports) is loaded with the labs' wasm, never by the
// first view: a built dist/ has it as wasm/labs_session.js beside the labs' module (scripts/make_dist.mjs),
// the source tree (Node, tests) in this folder.
import { notACache } from './kv_step.js';

/** The API's functions that run in the labs module: each awaits that module on its first use. */
export const LAB_FUNCTIONS = Object.freeze(['createTrainer', 'trainTasks', 'trainingCost', 'sqrtDkGradients', 'decodeCost',
  'flashAttention', 'linearAttention', 'linearAttentionCost', 'lessonExamples']);

/**
 * The labs of one engine: `loadRaw()` resolves to the labs' raw Embind module, `dir` is the folder
 * (a URL) of the wasm modules, where a built dist/ keeps labs_session.js; `defaultBudget`: the
 * core's default memory budget of a call. load() resolves to the synchronous labs API (LAB_FUNCTIONS
 * and createKVCache(layer, args)); the hooks paramsChanged, layerDeleted and decodeStep serve the
 * core's MultiHeadAttention (layer.js).
 */
export function makeLabs(loadRaw, dir, defaultBudget) {
  let session = null; // the loaded module's { api, kv, shadows, native, raw }
  let loading = null;
  const generations = new WeakMap(); // core layer → how many times its parameters changed

  function load() {
    if (!loading) {
      loading = Promise.all([loadRaw(), loadSession(dir)]).then(([raw, { open }]) => {
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
    paramsChanged(layer) {
      generations.set(layer, (generations.get(layer) ?? 0) + 1);
      session?.kv.paramsChanged(layer);
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

/**
 * The labs' JavaScript: wasm/labs_session.js beside a built dist/'s modules, else (the source tree has
 * none there) this folder's labs_session.js. The URLs are computed, so a bundler leaves them to run time.
 */
async function loadSession(dir) {
  const built = new URL('labs_session.js', dir).href, source = new URL('./labs_session.js', import.meta.url).href;
  try {
    return await import(built);
  } catch (builtErr) {
    try {
      return await import(source);
    } catch {
      throw new Error(`the labs' code could not be loaded from ${built}: ${builtErr.message}`);
    }
  }
}
