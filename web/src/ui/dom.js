// Tiny DOM helpers shared by the panels: build elements declaratively, replace children, toggle.

/**
 * h('p', { class: 'note', dataset: { x: 1 } }, 'text', child) → element.
 * Attributes starting with "on" become listeners; null/false attributes and children are skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'style' && typeof value === 'object') {
      for (const [prop, v] of Object.entries(value)) el.style.setProperty(prop.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), v);
    }
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else if (key in el && typeof value !== 'string') el[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces every child of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A table from a header row and body rows (cells are strings or nodes). */
export function table(head, rows, attrs = {}) {
  return h('table', attrs,
    h('thead', {}, h('tr', {}, head.map((cell) => h('th', { scope: 'col' }, cell)))),
    h('tbody', {}, rows.map((row) => h('tr', row.attrs ?? {}, (row.cells ?? row).map((cell, i) =>
      i === 0 ? h('th', { scope: 'row' }, cell) : h('td', {}, cell))))));
}

/** Adds a stylesheet once (vendored CSS is loaded with the panel that needs it, not up front). */
export function loadStylesheet(href) {
  const url = new URL(href, document.baseURI).href;
  const existing = [...document.querySelectorAll('link[rel="stylesheet"]')].find((l) => l.href === url);
  if (existing) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const link = h('link', { rel: 'stylesheet', href: url });
    link.addEventListener('load', () => resolve());
    link.addEventListener('error', () => reject(new Error(`could not load ${href}`)));
    document.head.append(link);
  });
}

/** Reads a CSS custom property of the page (colours for canvas drawing follow the theme). */
export function cssVar(name, el = document.documentElement) {
  return getComputedStyle(el).getPropertyValue(name).trim();
}

// The engine writes W with modifier letters (Wᴽ, Wᴷ, Wⱽ, Wᴼ) and subscripts with "_" (Q_i, d_k):
// shown as real superscripts and subscripts, they read like the lesson's formulas.
const SUPERSCRIPTS = { 'ᴽ': 'Q', 'ᴷ': 'K', 'ⱽ': 'V', 'ᴼ': 'O' };

/** A label in the lesson's notation as nodes: "W_iᴽ" → W<sub>i</sub><sup>Q</sup>. */
export function math(label) {
  const out = [];
  for (const part of String(label).split(/([A-Za-z]+_(?:\{[^}]*\}|[A-Za-z0-9]+)|[ᴽᴷⱽᴼ])/u)) {
    if (!part) continue;
    if (SUPERSCRIPTS[part]) out.push(h('sup', {}, SUPERSCRIPTS[part]));
    else if (/^[A-Za-z]+_/.test(part)) {
      const [base, sub] = [part.slice(0, part.indexOf('_')), part.slice(part.indexOf('_') + 1).replace(/[{}]/g, '')];
      out.push(base, h('sub', {}, sub));
    } else out.push(part);
  }
  return h('span', { class: 'mathy' }, out);
}
