// The JavaScript API of the attention engine: loads the SIMD or the baseline wasm module of the core
// and wraps its Embind surface with argument checks; the labs (training, √d_k gradients, FlashAttention,
// linear attention, the KV cache) run in a module of their own, loaded on their first use (labs.js).
// Works unchanged in a page, a Web Worker and Node 20 (the wasm files live in ../../wasm/ relative to
// this file).
//
// Each method reads and checks every option first (checks.js copies what it reads, so each
// value is read once), then makes one call into the engine through native.js, which copies
// the inputs into the wasm heap, runs the binding on plain numbers and copies the results out
// (see the binding pattern in cpp/bindings/embind.cpp, which new bindings must follow). The
// methods live by domain: layer.js (MultiHeadAttention), sdpa.js, analysis.js, inputs.js, labs.js.
import * as check from './checks.js';
import { makeNative } from './native.js';
import { chooseSimd, loadModule } from './load.js';
import { layerClass } from './layer.js';
import { makeSdpaApi } from './sdpa.js';
import { makeAnalysisApi } from './analysis.js';
import { makeInputsApi } from './inputs_api.js';
import { LAB_FUNCTIONS, makeLabs } from './labs.js';

export { provideLoader } from './load.js';

/**
 * Loads the engine. `simd`: true/false forces a module; undefined picks SIMD where the
 * engine supports it. `compiled`: { [absolute URL of a .wasm]: WebAssembly.Module or a Promise
 * of one } that the caller started compiling earlier (the page does so in its <head>); used only
 * for the URL this call loads, and a promise that rejects is ignored (the wasm is fetched again).
 * Resolves to the API object; `isa` says which module runs. The labs' module (the same kind, SIMD
 * or baseline) is loaded from the same folder on a lab function's first call, or by labs().
 */
export async function loadAttention(options = {}) {
  const o = check.options('loadAttention', options, ['simd', 'wasmDir', 'compiled']);
  if (o.compiled !== undefined && (o.compiled === null || typeof o.compiled !== 'object')) {
    throw new Error(`compiled must be an object { [.wasm URL]: WebAssembly.Module or Promise }, got ${o.compiled === null ? 'null' : typeof o.compiled}`);
  }
  const useSimd = chooseSimd(check.boolean('simd', o.simd, undefined));
  // Resolved here, not when the module loads: a module evaluated from a blob: URL (a bundle a
  // notebook hands over) cannot resolve a relative URL, and passes wasmDir as an absolute one.
  const dir = o.wasmDir ? new URL(o.wasmDir, import.meta.url) : new URL('../../wasm/', import.meta.url);
  const kind = useSimd ? 'simd' : 'scalar';
  const raw = await loadModule(`attention_${kind}`, dir, o.compiled);
  return makeApi(raw, useSimd ? 'wasm-simd128' : 'scalar', () => loadModule(`attention_labs_${kind}`, dir, o.compiled), dir);
}

/** The API object over the core's raw module; `loadLabsRaw()` loads the labs' module from `dir`. */
function makeApi(raw, isa, loadLabsRaw, dir) {
  const defaultBudget = raw.defaultMemoryBudget();
  const native = makeNative(raw);
  const labs = makeLabs(loadLabsRaw, dir, defaultBudget);
  const engine = { native, raw, defaultBudget, labs };
  const api = {
    isa,
    MultiHeadAttention: layerClass(engine),
    ...makeSdpaApi(engine),
    ...makeAnalysisApi(engine),
    ...makeInputsApi(engine),
    // The labs: each a promise, resolved once the labs module has run it (loaded on first use).
    ...Object.fromEntries(LAB_FUNCTIONS.map((name) => [name, async (...args) => (await labs.load())[name](...args)])),
    /**
     * A promise of this API with the labs' functions synchronous (as they were before the labs had a
     * module of their own), plus createKVCache(layer, args) and `labs` ({ heapAllocated,
     * stackPointer, kernelIsa } of the labs module): loads the labs module on the first call.
     */
    labs: async () => labsView(await labs.load()),
    /** What labs() resolves to when the labs module is loaded already, else null (and nothing is loaded). */
    labsNow: () => (labs.now() ? labsView(labs.now()) : null),
    /** Whether the labs module is loaded (a lab function or labs() loaded it). */
    get labsLoaded() { return labs.now() !== null; },
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
  let view = null;
  /** The API with the labs' functions of the loaded labs API `l` synchronous (made once). */
  const labsView = (l) => (view ??= Object.freeze({ ...api, ...Object.fromEntries(LAB_FUNCTIONS.map((name) => [name, l[name]])),
    createKVCache: l.createKVCache, labs: Object.freeze({ heapAllocated: l.heapAllocated, stackPointer: l.stackPointer, kernelIsa: l.kernelIsa }) }));
  return api;
}
