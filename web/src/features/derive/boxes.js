// The derivation's matrices drawn to scale: one box per tensor of an equation, its height the rows and its
// width the columns (one scale per equation, so a product reads as (n × a)(a × b) = (n × b)), coloured as
// the tensor's symbol in the formula. Sizes come from the analysis (stages.js); this only draws.

import * as fmt from '../../model/format.js';
import { text } from '../../lesson/panels/derive.js';

/** The longest side a box is drawn at (px), and the shortest (a side of 1 still shows). */
const LONGEST = 56, SHORTEST = 5;
/** Beyond this many heads, Concat's picture shows the first ones and how many more. */
const MAX_PIECES = 12;

/** A side of `n` on a scale where `largest` takes `longest` px. */
const side = (n, largest, longest = LONGEST) => Math.max(SHORTEST, Math.round((longest * n) / largest));
/** Concat's picture is one wide row of heads: drawn wider, so each head's piece stays visible. */
const CONCAT_LONGEST = 160;

/** A tensor's name as the page writes it (W_iᴽ: the lesson's data), set as the lesson's notation by dom.math. */
const plain = (name) => text(`derive.label.${name}`);

/** One box: a tensor, its size drawn and written. */
function box({ h, math }, name, [rows, cols], largest, suffix = '', longest = LONGEST) {
  const label = text('derive.box', { name: plain(name) + suffix, rows: fmt.int(rows), cols: fmt.int(cols) });
  return h('figure', { class: `derive-box t-${name}`, dataset: { tensor: name, rows, cols, transposed: suffix ? '1' : '0' } },
    h('span', { class: 'derive-rect', 'aria-hidden': 'true', style: { width: `${side(cols, largest, longest)}px`, height: `${side(rows, largest, longest)}px` } }),
    h('figcaption', {}, math(label)));
}

/** An equation's boxes: the terms with × between them, then = and the result. */
export function productBoxes(dom, eq, sizes) {
  const { h } = dom;
  const names = [...eq.terms, eq.result];
  const largest = Math.max(...names.flatMap((n) => sizes[n]));
  const parts = [];
  eq.terms.forEach((n, i) => {
    if (i) parts.push(h('span', { class: 'derive-op', 'aria-hidden': 'true' }, '·'));
    const transposed = eq.form === 'scores' && n === 'Ki'; // the scores multiply by K_iᵀ
    parts.push(box(dom, n, transposed ? [...sizes[n]].reverse() : sizes[n], largest, transposed ? 'ᵀ' : ''));
  });
  parts.push(h('span', { class: 'derive-op', 'aria-hidden': 'true' }, '='), box(dom, eq.result, sizes[eq.result], largest));
  return parts;
}

/** Concat's picture: the heads' outputs side by side (the first MAX_PIECES), then = Concat. */
export function concatBoxes(dom, sizes, n_heads) {
  const { h, math } = dom;
  const largest = Math.max(...sizes.concat);
  const shown = Math.min(n_heads, MAX_PIECES);
  const pieces = Array.from({ length: shown }, (_, k) => h('span', { class: 'derive-rect t-head', dataset: { head: k },
    style: { width: `${side(sizes.head[1], largest, CONCAT_LONGEST)}px`, height: `${side(sizes.head[0], largest, CONCAT_LONGEST)}px` } }));
  const rest = n_heads > shown ? h('span', { class: 'derive-more' }, text('derive.more_heads', { count: fmt.int(n_heads - shown) })) : null;
  return [h('figure', { class: 'derive-box derive-pieces t-head', dataset: { tensor: 'head', rows: sizes.head[0], cols: sizes.head[1], count: n_heads } },
    h('span', { class: 'derive-row', 'aria-hidden': 'true' }, pieces, rest),
    h('figcaption', {}, math(`${fmt.int(n_heads)} × ${text('derive.box', { name: plain('head'), rows: fmt.int(sizes.head[0]), cols: fmt.int(sizes.head[1]) })}`))),
  h('span', { class: 'derive-op', 'aria-hidden': 'true' }, '='), box(dom, 'concat', sizes.concat, largest, '', CONCAT_LONGEST)];
}
