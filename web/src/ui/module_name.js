// The learner's name of a wasm module (an `isa`), for the run bar and the panels that name the module.

const MODULE_NAMES = { 'wasm-simd128': 'WebAssembly SIMD (128-bit)', scalar: 'WebAssembly baseline (no SIMD)' };

export const moduleName = (isa) => MODULE_NAMES[isa] ?? isa;
