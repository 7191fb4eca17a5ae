// The labs' side of the engine once their wasm module is loaded (labs.js loads this file with it, never
// the first view): the training lab, the √d_k gradient lab, FlashAttention's tiles, linear attention,
// the KV cache and the lesson's worked examples over the labs module's raw Embind object, and the copy of
// a core layer that a KV cache needs.
import * as check from './checks.js';
import { makeNative } from './native.js';
import { record } from './record.js';
import { makeTrainingApi } from './trainer_api.js';
import { makeKVCacheApi } from './kv_cache.js';
import { makeEfficientApi } from './efficient.js';

const PARAM_KEYS = ['wq', 'wk', 'wv', 'wo', 'bq', 'bk', 'bv', 'bo'];

/** The session of a loaded labs module `raw`. */
export function open(raw, defaultBudget, generations) {
  const native = makeNative(raw);
  const kv = makeKVCacheApi(native, raw, defaultBudget);
  const shadows = new WeakMap(); // core layer → { id, generation } of its copy in this module

  /** The id of `layer`'s copy in this module, made or brought up to the layer's current parameters. */
  function shadowOf(layer) {
    const generation = generations.get(layer) ?? 0;
    let s = shadows.get(layer);
    if (s?.generation === generation) return s.id;
    const params = layer.getWeights(); // a copy out of the core's heap
    if (!s) {
      const { d_model, n_heads, n_kv_heads, d_k, d_v, bias } = layer;
      const made = native.call((n) => n.run('mhaCreate', record(n, { d_model, n_heads, n_kv_heads, d_k, d_v, bias, seed: 1 }))).value;
      s = { id: made.layer, generation: -1 };
      shadows.set(layer, s);
    }
    native.call((n) => n.run('mhaSetWeights', record(n, {
      layer: s.id, ...Object.fromEntries(PARAM_KEYS.map((key) => [key, n.input(key, params[key])])),
    })));
    s.generation = generation;
    return s.id;
  }

  const api = Object.freeze({
    ...makeTrainingApi(native, raw), // createTrainer, trainTasks, trainingCost, sqrtDkGradients
    ...kv.functions, // decodeCost
    ...makeEfficientApi(native), // flashAttention, linearAttention, linearAttentionCost
    /** The lesson's worked examples E1, E2, E3, P1, P4, each figure recomputed with ok against LESSON.md. */
    lessonExamples: (...args) => {
      check.noOptions('lessonExamples', args);
      return native.call((x) => x.run('lessonExamples').value);
    },
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
