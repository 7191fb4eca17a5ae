// Each wasm module's content version (a short hash of the file), written in here by
// scripts/make_dist.mjs when it bundles: the engine then asks for `<module>.wasm?v=<version>` over
// http(s), a URL whose bytes never change, which a server may let browsers keep without asking again
// (scripts/serve.mjs does). Empty when the sources run as they are (Node, the tests' own pages): each
// module is then asked for by its name alone.
export const WASM_VERSIONS = Object.freeze({});
