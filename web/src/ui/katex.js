// KaTeX for a panel that typesets (equations, derive, query): the module, its stylesheet inside the
// panel's shadow root, and its font faces on the document (faces declared in a shadow root are not used).
// One place, so every panel loads the same three files the same way, and typesets the same way:
// typeset() keeps KaTeX's markup per formula (a redraw with the same sizes, or a step back and forth,
// typesets nothing again) and leaves a box alone when its markup is already the one it shows.

/** Resolves with the katex object once its module and styles are loaded; rejects with the load's error. */
export function loadKatex(host) {
  return Promise.all([host.importVendor('vendor/katex/katex.mjs'), host.loadStyle('vendor/katex/katex.min.css'),
    host.loadDocumentStyle('vendor/katex/fonts.css')]).then(([mod]) => mod.default);
}

const KEPT = 400; // formulas kept per options object: every panel's formulas for a few sizes, a few hundred kB at most
const markupOf = new WeakMap(); // options object → Map(tex → KaTeX's HTML), oldest first
const shown = new WeakMap(); // element → { html, first }: the HTML it was last given here, and the node it began with

/** KaTeX's HTML for `tex` with `options` (one object per panel, kept as it is: it keys the cache). */
function markup(katex, tex, options) {
  let kept = markupOf.get(options);
  if (!kept) markupOf.set(options, (kept = new Map()));
  let html = kept.get(tex);
  if (html === undefined) {
    html = katex.renderToString(tex, options);
    if (kept.size >= KEPT) kept.delete(kept.keys().next().value);
  } else kept.delete(tex); // moved to the newest end below
  kept.set(tex, html);
  return html;
}

/** Typesets `tex` into `el` (its children replaced), unless `el` already shows that very markup. */
export function typeset(katex, el, tex, options) {
  const html = markup(katex, tex, options);
  const was = shown.get(el);
  if (was?.html === html && was.first === el.firstChild && el.firstChild) return; // untouched since: nothing to do
  el.innerHTML = html;
  shown.set(el, { html, first: el.firstChild });
}
