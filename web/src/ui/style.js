// A stylesheet a panel brings with it (a lazy feature's features/<name>/style.css, see features/lazy.js):
// added to the adopted stylesheets of the shadow root the panel lives in, after the playground's shared
// one, so its rules stay inside that playground and cascade as if they followed the shared rules.

const sheets = new WeakMap(); // document → Map(css text → its CSSStyleSheet), shared by every playground

/** Adds `css` to the root `node` lives in (a shadow root, else its document), once per root. */
export function adoptStyle(node, css) {
  const doc = node.ownerDocument;
  const root = node.getRootNode();
  const target = 'adoptedStyleSheets' in root ? root : doc;
  if (!sheets.has(doc)) sheets.set(doc, new Map());
  const known = sheets.get(doc);
  if (!known.has(css)) {
    const sheet = new doc.defaultView.CSSStyleSheet();
    sheet.replaceSync(css);
    known.set(css, sheet);
  }
  const sheet = known.get(css);
  if (!target.adoptedStyleSheets.includes(sheet)) target.adoptedStyleSheets = [...target.adoptedStyleSheets, sheet];
}
