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
    else if (key === 'style' && typeof value === 'object') Object.assign(el.style, value);
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

/** Reads a CSS custom property of the page (colours for canvas drawing follow the theme). */
export function cssVar(name, el = document.documentElement) {
  return getComputedStyle(el).getPropertyValue(name).trim();
}
