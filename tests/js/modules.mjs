// Loads both wasm modules once per test file, so each test can run against SIMD and baseline.
// Each module's WebAssembly.Memory is kept as well, caught as the module is instantiated: the
// API hides it, and the tests need it to make the heap views that the API must refuse. `modules`
// are the engines with their labs loaded (attn.labs(): the labs' functions synchronous, their
// module's heapAllocated() as attn.labs.heapAllocated()); `cores` the same engines as loadAttention
// gives them (the labs' functions return promises, their module loaded on the first one).
import { loadAttention } from '../../web/src/engine/attention.js';

async function load(simd) {
  const instantiate = WebAssembly.instantiate;
  let memory = null;
  WebAssembly.instantiate = async (...args) => {
    const result = await instantiate.apply(WebAssembly, args);
    memory = Object.values((result.instance ?? result).exports).find((e) => e instanceof WebAssembly.Memory);
    return result;
  };
  try {
    const core = await loadAttention({ simd });
    if (!memory) throw new Error('the wasm memory of the module was not seen at instantiation');
    WebAssembly.instantiate = instantiate; // the labs module's memory is its own
    return { attn: await core.labs(), core, memory };
  } finally {
    WebAssembly.instantiate = instantiate;
  }
}

const simd = await load(true), scalar = await load(false);

export const modules = { simd: simd.attn, scalar: scalar.attn };
export const cores = { simd: simd.core, scalar: scalar.core };
/** The WebAssembly.Memory of each module (its .buffer is the current heap). */
export const wasmMemories = { simd: simd.memory, scalar: scalar.memory };
