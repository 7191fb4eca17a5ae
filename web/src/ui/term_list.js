// A term list: the symbols a panel uses, each a button whose meaning (lesson data: lesson/panels/term_list.js)
// shows on hover, on keyboard focus and on a tap (a tap or Enter pins it; a second one, Escape or
// leaving it hides it). The meaning is the button's description (aria-describedby), so a screen reader
// reads it with the symbol.

import { text } from '../lesson/panels/term_list.js';

let made = 0; // ids unique in any root (a playground's ids live in its shadow root; two lists never clash)

/** dom: the playground's helpers; keys: term keys (term.<key> in lesson/panels/term_list.js). Returns the list element. */
export function termList(dom, keys) {
  const { h } = dom;
  const items = keys.map((key) => {
    const id = `term-def-${++made}`;
    const tip = h('span', { class: 'term-def', role: 'tooltip', id, hidden: true }, dom.math(text(`term.${key}.means`)));
    const button = h('button', { type: 'button', class: 'term', 'aria-describedby': id, 'aria-expanded': 'false', dataset: { term: key } },
      dom.math(text(`term.${key}`)));
    let pinned = false, hovered = false;
    const sync = () => {
      const open = pinned || hovered || button.matches(':focus-visible');
      tip.hidden = !open;
      button.setAttribute('aria-expanded', String(open));
    };
    button.addEventListener('pointerenter', (e) => { if (e.pointerType === 'mouse') { hovered = true; sync(); } });
    button.addEventListener('pointerleave', (e) => { if (e.pointerType === 'mouse') { hovered = false; sync(); } });
    button.addEventListener('focus', sync);
    button.addEventListener('blur', () => { pinned = false; sync(); });
    button.addEventListener('click', () => { pinned = !pinned; sync(); });
    button.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape' || tip.hidden) return;
      pinned = hovered = false;
      tip.hidden = true;
      button.setAttribute('aria-expanded', 'false');
      e.stopPropagation();
    });
    return h('li', {}, button, tip);
  });
  return h('div', { class: 'terms' }, h('span', { class: 'terms-heading', 'aria-hidden': 'true' }, text('terms.heading')),
    h('ul', { 'aria-label': text('terms.label') }, items));
}
