// Loads one of the engine's wasm modules: the core's (attention_simd / attention_scalar, the first
// view's) or the labs' (attention_labs_simd / attention_labs_scalar, loaded on a lab's first use,
// engine/labs.js). Both are probed the same way (SIMD where WebAssembly.validate says so, else the
// baseline), fetched and compiled while their loader is imported, in a page, a Web Worker and Node 20.
import { simdSupported } from './probe.js';
import { WASM_VERSIONS } from './wasm_versions.js';

const isNode = typeof process === 'object' && !!process.versions?.node;
const MODULES = ['attention_simd', 'attention_scalar', 'attention_labs_simd', 'attention_labs_scalar'];
const providedLoaders = new Map(); // module name → its loader's factory, carried inside a bundle

/**
 * Hands the engine a module's loader that the calling bundle carries inside itself
 * (engine/bundled_loader.js), so it is not imported by URL. `name`: one of MODULES;
 * `createModule`: that loader's default export, from the same build as the wasm.
 */
export function provideLoader(name, createModule) {
  if (!MODULES.includes(name)) throw new Error(`provideLoader: no module named '${name}'`);
  if (typeof createModule !== 'function') throw new Error(`provideLoader: the loader of ${name} must be a function`);
  providedLoaders.set(name, createModule);
}

/**
 * Whether to run SIMD: `wantSimd` true/false forces it (true throws where the engine has none);
 * undefined picks SIMD where the engine supports it.
 */
export function chooseSimd(wantSimd) {
  if (wantSimd === true && !simdSupported()) {
    throw new Error('the SIMD module was requested but this JavaScript engine has no 128-bit wasm SIMD');
  }
  return wantSimd ?? simdSupported();
}

/**
 * The raw Embind module `name` from the folder `dir` (a URL). `compiled`: { [absolute URL of a
 * .wasm]: WebAssembly.Module or a Promise of one } compiled earlier by the caller; used only for
 * this module's URL, and a promise that rejects is ignored (the wasm is fetched again).
 */
export async function loadModule(name, dir, compiled) {
  // The wasm is fetched and compiled while its loader is imported (not after, as the loader would):
  // on a first visit these two are most of the wait for the engine.
  const wasmUrl = new URL(`${name}.wasm`, dir);
  const early = compiled && Object.hasOwn(compiled, wasmUrl.href) ? compiled[wasmUrl.href] : undefined;
  const compiling = early === undefined ? compileWasm(wasmUrl, name) : Promise.resolve(early).then((module) => {
    if (!(module instanceof WebAssembly.Module)) throw new Error('not a WebAssembly.Module');
    return module;
  }).catch(() => compileWasm(wasmUrl, name)); // the early compile failed: this one reports why
  compiling.catch(() => {}); // awaited below; an import that fails first must not leave it unhandled
  const loader = providedLoaders.has(name) ? { default: providedLoaders.get(name) } : import(new URL(`${name}.mjs`, dir).href);
  const [{ default: createModule }, wasmModule] = await Promise.all([loader, compiling]);
  let instantiateFailed;
  const failure = new Promise((_, reject) => { instantiateFailed = reject; });
  return Promise.race([failure, createModule({
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
}

/**
 * The URL to fetch module `name` from: over http(s), with its content version when the bundle carries
 * one (wasm_versions.js), so that a server may let browsers keep it; any other URL (file:, blob:) as it is.
 */
export function versionedUrl(url, name) {
  const version = WASM_VERSIONS[name]; // name: one of MODULES
  return version && /^https?:$/.test(url.protocol) ? new URL(`?v=${version}`, url) : url;
}

/** Fetches and compiles module `name`'s wasm file from `url` (streaming where the server says application/wasm). */
async function compileWasm(wasmUrl, name) {
  const url = versionedUrl(wasmUrl, name);
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
