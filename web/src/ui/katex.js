// KaTeX for a panel that typesets (equations, derive, query): the module, its stylesheet inside the
// panel's shadow root, and its font faces on the document (faces declared in a shadow root are not used).
// One place, so every panel loads the same three files the same way.

/** Resolves with the katex object once its module and styles are loaded; rejects with the load's error. */
export function loadKatex(host) {
  return Promise.all([host.importVendor('vendor/katex/katex.mjs'), host.loadStyle('vendor/katex/katex.min.css'),
    host.loadDocumentStyle('vendor/katex/fonts.css')]).then(([mod]) => mod.default);
}
