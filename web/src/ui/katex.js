// KaTeX for a panel that typesets (equations, derive, query): the module, its stylesheet inside the
// panel's shadow root, and its font faces on the document (faces declared in a shadow root are not used).
// One place, so every panel loads the same three files the same way, and typesets the same way:
// typeset() keeps KaTeX's markup per formula (a redraw with the same sizes, or a step back and forth,
// typesets nothing again) and leaves a box alone when its markup is already the one it shows.

// The faces nearly every formula is set in: letters (KaTeX_Math, italic) and digits, operators and brackets
// (KaTeX_Main). A browser fetches a face only once text needs it, so a formula typeset before they arrive
// is first laid out in a fallback font, wider or narrower, and jumps when they land (under load, a box at
// 1280 px showed a scroll bar for a moment). Waiting for these two first gives the formula its real width
// from its first frame. Rarer faces (large delimiters, blackboard bold) still load on first use.
const FACES = ['1em KaTeX_Main', 'italic 1em KaTeX_Math'];

/** Resolves with the katex object once its module, styles and main faces are loaded; rejects with the load's error. */
export function loadKatex(host) {
  const faces = host.loadDocumentStyle('vendor/katex/fonts.css').then(() => {
    const fonts = globalThis.document?.fonts;
    // A face that fails to load is reported by the page as a failed request; the formulas are then set in
    // the fallback font rather than not at all.
    return fonts && Promise.all(FACES.map((face) => fonts.load(face))).catch(() => {});
  });
  return Promise.all([host.importVendor('vendor/katex/katex.mjs'), host.loadStyle('vendor/katex/katex.min.css'), faces])
    .then(([mod]) => mod.default);
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
