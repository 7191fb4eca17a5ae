// Tiny DOM helpers shared by the panels, bound to one document: a playground may live in a page, a
// shadow root or a notebook cell, so nothing here reaches for the global `document`.

import { text } from '../lesson/panels/common.js';

/**
 * The helpers for `doc`: h('p', { class: 'note', dataset: { x: 1 } }, 'text', child) builds an element
 * (attributes starting with "on" become listeners; null/false attributes and children are skipped),
 * fill(el, ...children) replaces children, table(head, rows) builds a table, math(label) sets the lesson's notation,
 * tableWrap({ label }, table) puts a table in a named box that scrolls sideways.
 */
export function createDom(doc) {
  function h(tag, attrs = {}, ...children) {
    const el = doc.createElement(tag);
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
      el.append(typeof child === 'object' && 'nodeType' in child ? child : doc.createTextNode(String(child)));
    }
  }

  function fill(el, ...children) {
    el.replaceChildren();
    append(el, children);
    return el;
  }

  function table(head, rows, attrs = {}) {
    return h('table', attrs,
      h('thead', {}, h('tr', {}, head.map((cell) => h('th', { scope: 'col' }, cell)))),
      h('tbody', {}, rows.map((row) => h('tr', row.attrs ?? {}, (row.cells ?? row).map((cell, i) =>
        i === 0 ? h('th', { scope: 'row' }, cell) : h('td', {}, cell))))));
  }

  function math(label) {
    const out = [];
    const text = String(label);
    let at = 0;
    for (const m of text.matchAll(NOTATION)) {
      const [whole, letter, before = '', name] = m;
      const start = m.index + before.length;
      if (start > at) out.push(text.slice(at, start));
      if (letter) out.push(h('sup', {}, SUPERSCRIPTS[letter]));
      else {
        const cut = name.indexOf('_');
        out.push(name.slice(0, cut), h('sub', {}, name.slice(cut + 1).replace(/[{}]/g, '')));
      }
      at = m.index + whole.length;
    }
    if (at < text.length) out.push(text.slice(at));
    return h('span', { class: 'mathy' }, out);
  }

  /**
   * A box that scrolls a wide table sideways: focusable, so the keyboard can scroll it, and so named
   * (a group, not a landmark: two playgrounds may show the same table). `label` names it; without one,
   * the name is read from the header cells of the table it holds. A box filled later needs a label.
   */
  function tableWrap({ label = null, id = null } = {}, ...children) {
    const box = h('div', { class: 'table-wrap', id, tabindex: '0', role: 'group' }, children);
    const head = box.querySelector('thead tr');
    const name = label ?? (head ? text('common.table_of', { columns: [...head.children].map((cell) => cell.textContent.trim()).join(', ') }) : null);
    if (!name) throw new Error('tableWrap: a box with no table header yet needs a label');
    box.setAttribute('aria-label', name);
    return box;
  }

  return { h, fill, table, math, tableWrap };
}

// The engine writes W with modifier letters (Wᴽ, Wᴷ, Wⱽ, Wᴼ) and subscripts with "_" (Q_i, d_k):
// shown as real superscripts and subscripts, they read like the lesson's formulas.
const SUPERSCRIPTS = { 'ᴽ': 'Q', 'ᴷ': 'K', 'ⱽ': 'V', 'ᴼ': 'O' };
// What becomes a subscript: after one letter, the whole rest of the name (d_model, n_kv_heads: n with
// "kv_heads" below, not n_kv followed by "_heads"); after a longer word, only a short index (head_i, W_12)
// or a braced one, so names from code such as copy_previous stay as written. A name starts after a
// character that cannot be part of it (matched, not looked behind: Safari before 16.4 has no lookbehind).
const NOTATION = /([ᴽᴷⱽᴼ])|(^|[^A-Za-z0-9_])((?:[A-Za-z]_[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*|[A-Za-z]+_\{[^}]*\}|[A-Za-z]{2,}_[A-Za-z0-9]{1,2})(?![A-Za-z0-9_]))/gu;

/** Sets `el`'s text unless it already reads so: a same text written again would still be laid out again. */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/** Sets `el`'s attribute unless it already has that value: each write, even of the same value, is a change the page handles. */
export function setAttr(el, name, value) {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

/** The element that has focus inside `node`'s tree (a shadow root keeps its own). */
export function focusedIn(node) {
  return node.getRootNode?.().activeElement ?? null;
}
