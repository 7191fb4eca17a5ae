// The DOM a playground lives in: its shadow root with the shared stylesheet, the theme (light, dark or
// auto → data-scheme on the wrapper), one section per feature (features/index.js) around the run bar, and what
// panels get from their host: theme colours, stylesheets, vendored modules, resize watching.

import css from './styles.css';
import { FEATURES } from '../features/index.js';
import { createDom } from '../ui/dom.js';
import { text } from '../lesson/panels/playground.js';

const sheets = new WeakMap(); // document → its CSSStyleSheet (one per document, shared by every playground)
function sheetFor(doc) {
  if (!sheets.has(doc)) {
    const sheet = new doc.defaultView.CSSStyleSheet();
    sheet.replaceSync(css);
    sheets.set(doc, sheet);
  }
  return sheets.get(doc);
}

/**
 * Builds the shell in `root` (an element, which gets a shadow root, or a shadow root). base: the asset
 * folder (vendored files are found there); layout: 'page' (sticky inputs and run bar) or 'embedded'.
 * Returns { doc, win, shadow, dom, wrapper, results, sections (name → { spec, section, body, error }),
 * host (for panels), setTheme(theme), destroy() }.
 */
export function createShell(root, { base, layout }) {
  const doc = root.ownerDocument;
  const win = doc.defaultView;
  const shadow = root instanceof win.ShadowRoot ? root : (root.shadowRoot ?? root.attachShadow({ mode: 'open' }));
  const sheet = sheetFor(doc);
  shadow.adoptedStyleSheets = [...shadow.adoptedStyleSheets.filter((s) => s !== sheet), sheet];
  const dom = createDom(doc);
  const { h } = dom;
  const cleanups = [];

  const wrapper = h('div', { class: `ap${layout === 'page' ? ' page' : ''}` });
  const results = h('div', { class: 'results', tabindex: '-1' });
  const sections = new Map();
  for (const spec of FEATURES) {
    const titleId = `${spec.name}-title`;
    const body = h('div', { class: 'panel-body' });
    const error = h('p', { class: 'panel-error', role: 'alert', hidden: true });
    // A section, not an aside, for the inputs too: a complementary landmark must not sit inside the
    // playground's own region. Each is named by its title (and the playground's name when there are
    // several on the page: applyNames below).
    const section = h('section',
      { class: `panel${spec.area === 'side' ? ' controls' : ''}`, id: `panel-${spec.name}`, dataset: { panel: spec.name, landmark: spec.title }, 'aria-labelledby': titleId, hidden: true },
      h('h2', { id: titleId }, spec.title), error, body);
    sections.set(spec.name, { spec, section, body, error, panel: null });
  }
  const area = (name) => [...sections.values()].filter((s) => s.spec.area === name).map((s) => s.section);
  results.append(...area('main'),
    h('div', { class: 'panel-grid' }, h('div', { class: 'panel-col' }, area('left')), h('div', { class: 'panel-col' }, area('right'))));
  const skip = h('button', { type: 'button', class: 'skip', onclick: () => results.focus() }, text('playground.skip'));
  const layoutBox = h('div', { class: 'layout' }, area('side'), results, area('after')); // 'after': panels after the results (focus order), placed by the stylesheet
  wrapper.append(skip, layoutBox);
  shadow.append(wrapper);

  // ---- names: the playground is one region named by the author's `label`, and its landmarks carry
  // that name too when the page holds several playgrounds (axe: landmark-unique, region) ----
  const live = liveShells(doc);
  const me = { name: '' };
  live.add(me);
  let authorLabel = '';
  function applyNames() {
    const taken = new Set([...live].filter((s) => s !== me && s.name).map((s) => s.name));
    const base = authorLabel || text('playground.name');
    let name = base;
    for (let i = 2; taken.has(name); i++) name = `${base} ${i}`;
    me.name = name;
    wrapper.setAttribute('role', 'region');
    wrapper.setAttribute('aria-label', name);
    // One playground, unnamed by its author: its landmarks are named by their titles alone.
    const suffix = authorLabel || name !== base ? ` (${name})` : '';
    for (const el of shadow.querySelectorAll('[data-landmark]')) {
      if (el.hasAttribute('aria-labelledby')) el.removeAttribute('aria-labelledby');
      el.setAttribute('aria-label', `${el.dataset.landmark}${suffix}`);
    }
  }

  // ---- theme: 'auto' follows the system, and changes with it ----
  const schemeListeners = new Set();
  const dark = win.matchMedia('(prefers-color-scheme: dark)');
  let theme = 'light';
  function applyScheme() {
    const scheme = theme === 'auto' ? (dark.matches ? 'dark' : 'light') : theme;
    if (wrapper.dataset.scheme === scheme) return;
    wrapper.dataset.scheme = scheme;
    themeVars = {};
    for (const fn of schemeListeners) fn(scheme);
  }
  dark.addEventListener('change', applyScheme);
  cleanups.push(() => dark.removeEventListener('change', applyScheme));

  // The theme's variables, read once per scheme: they are set on .ap by the scheme alone (styles.css), and each
  // read of the computed style after a panel's DOM changed would make the page recalculate its style.
  let themeVars = {};
  const host = {
    win,
    /** A colour (or any variable) of the theme, for drawing on canvases. */
    // ('' while the playground is out of the document: read again on the next call)
    cssVar: (name) => (themeVars[name] ||= win.getComputedStyle(wrapper).getPropertyValue(name).trim()),
    /** Adds a stylesheet inside this playground (once). */
    loadStyle: (path) => addStylesheet(shadow, new URL(path, base).href, h),
    /** Adds a stylesheet to the document itself (font faces do not work inside a shadow root). */
    loadDocumentStyle: (path) => addStylesheet(doc.head, new URL(path, base).href, h),
    importVendor: (path) => import(new URL(path, base).href),
    onSchemeChange: (fn) => { schemeListeners.add(fn); return () => schemeListeners.delete(fn); },
    observeResize(el, fn) {
      const observer = new win.ResizeObserver(fn);
      observer.observe(el);
      cleanups.push(() => observer.disconnect());
      return observer;
    },
    scrollToResults: () => results.scrollIntoView({ behavior: 'smooth', block: 'start' }),
  };

  return {
    doc, win, shadow, dom, wrapper, results, sections, host, layout: layoutBox,
    /** The author's name for this playground ('' = "Attention playground", numbered when taken); names every landmark again. */
    setLabel(label) {
      authorLabel = String(label ?? '').trim();
      me.name = '';
      applyNames();
    },
    /** 'light', 'dark' or 'auto'. */
    setTheme(next) {
      theme = next;
      applyScheme();
    },
    destroy() {
      live.delete(me);
      for (const fn of cleanups.splice(0)) fn();
      schemeListeners.clear();
      wrapper.remove();
      shadow.adoptedStyleSheets = shadow.adoptedStyleSheets.filter((s) => s !== sheet);
    },
  };
}

const shellsOf = new WeakMap(); // document → the names of its live playgrounds (two must not share one)
function liveShells(doc) {
  if (!shellsOf.has(doc)) shellsOf.set(doc, new Set());
  return shellsOf.get(doc);
}

/** Adds <link rel=stylesheet href> to `parent` once; resolves when it has loaded. */
function addStylesheet(parent, href, h) {
  const existing = [...parent.querySelectorAll('link[rel="stylesheet"]')].find((l) => l.href === href);
  if (existing) return existing.loaded ?? Promise.resolve();
  const link = h('link', { rel: 'stylesheet', href });
  link.loaded = new Promise((resolve, reject) => {
    link.addEventListener('load', () => resolve());
    link.addEventListener('error', () => reject(new Error(`could not load ${href}`)));
  });
  parent.append(link);
  return link.loaded;
}
