// Runs inside the generated ES module loader before it looks at its environment. Under
// Node 20 the ES module output has no require or __dirname; define them from the module's
// own URL (_scriptDir) and read the .wasm that sits next to the .mjs, so the same pair of
// files loads unchanged in a browser, a worker and Node, from any working directory.
if (typeof process === 'object' && process.versions && process.versions.node &&
    typeof process.getBuiltinModule === 'function' && typeof _scriptDir === 'string' &&
    _scriptDir.indexOf('file:') === 0) {
  var __filename = process.getBuiltinModule('url').fileURLToPath(_scriptDir);
  var __dirname = process.getBuiltinModule('path').dirname(__filename);
  var require = process.getBuiltinModule('module').createRequire(__filename);
  // (not when the caller compiles the wasm itself and hands it over through instantiateWasm)
  if (!Module['wasmBinary'] && !Module['instantiateWasm']) {
    Module['wasmBinary'] = process.getBuiltinModule('fs').readFileSync(__filename.replace(/\.mjs$/, '.wasm'));
  }
}
