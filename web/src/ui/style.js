// A feature's own stylesheet (features/<name>/style.css, bundled as text with its panel): the panel
// adds it to the shadow root it lives in, after the playground's shared stylesheet, so its rules stay
// inside the playground (scoped as the shared ones are) and a lazy panel's CSS is loaded with it.

const sheets = new WeakMap(); // document → Map(css → its CSSStyleSheet), shared by every playground

/** Adds `css` to the adopted stylesheets of the root `node` lives in (once per root). */
export function useStyle(node, css) {
  const root = node.getRootNode();
  const doc = node.ownerDocument;
  if (!sheets.has(doc)) sheets.set(doc, new Map());
  const known = sheets.get(doc);
  if (!known.has(css)) {
    const sheet = new doc.defaultView.CSSStyleSheet();
    sheet.replaceSync(css);
    known.set(css, sheet);
  }
  const sheet = known.get(css);
  const target = 'adoptedStyleSheets' in root ? root : doc;
  if (!target.adoptedStyleSheets.includes(sheet)) target.adoptedStyleSheets = [...target.adoptedStyleSheets, sheet];
}
