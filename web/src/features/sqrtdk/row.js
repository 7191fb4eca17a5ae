// One query's softmax row at the live d_k, as the √d_k checkbox of the inputs leaves it: a seeded q and
// KEYS keys with N(0, 1) components traced by the engine with and without the scale (handler.js).
// The row the checkbox picks is drawn as solid bars, the other as outlines, so unticking the box shows
// the row sharpen. Every number is the engine's; this file lays them out.

import * as fmt from '../../model/format.js';
import { text } from '../../lesson/panels/sqrtdk.js';

const KEYS = 8;

/** The row's view: { element, update(actions, config) }. */
export function createRow(dom) {
  const { h, fill } = dom;
  const bars = h('div', { class: 'sq-bars', id: 'sqrtdk-row', role: 'img' });
  const note = h('p', { class: 'note', id: 'sqrtdk-row-note', 'aria-live': 'polite' });
  const title = h('h3', { class: 'sq-row-title' });
  const element = h('figure', { class: 'sq-row' }, h('figcaption', {}, title), bars, note);
  let lastKey = '', asked = '', pending = null, rows = null;

  function update(actions, c) {
    const key = JSON.stringify([c.d_k, c.scale, c.input_seed]);
    if (key === lastKey || !actions?.sqrtDkRow) return;
    lastKey = key;
    const want = JSON.stringify([c.d_k, c.input_seed]);
    if (want === asked && rows) { draw(c); return; }
    asked = want;
    const mine = pending = actions.sqrtDkRow({ d_k: c.d_k, keys: KEYS, seed: c.input_seed });
    mine.then((r) => { if (mine === pending) { rows = { on: r.scaled, off: r.unscaled }; draw(c); } },
      (err) => {
        if (mine !== pending) return;
        asked = lastKey = ''; // asked again on the next update
        fill(note, text('sqrtdk.row_not_computed', { message: err.message }));
        bars.replaceChildren();
      });
  }

  function draw(c) {
    const shown = c.scale ? rows.on : rows.off, other = c.scale ? rows.off : rows.on;
    const top = (w) => w.reduce((best, x, j) => (x > w[best] ? j : best), 0);
    const sizes = { d_k: fmt.int(c.d_k), keys: KEYS };
    fill(title, dom.math(c.scale ? text('sqrtdk.row_title_scaled', sizes) : text('sqrtdk.row_title_unscaled', sizes)));
    fill(bars, Array.from(shown.weights, (w, j) => h('span', { class: 'sq-bar', dataset: { key: j, weight: w } },
      h('span', { class: 'sq-other', style: { height: `${(100 * other.weights[j]).toFixed(1)}%` } }),
      h('span', { class: `sq-fill ${c.scale ? 'cool' : 'warm'}`, style: { height: `${(100 * w).toFixed(1)}%` } }),
      h('span', { class: 'sq-label' }, fmt.num(w, 2)))));
    bars.setAttribute('aria-label', text('sqrtdk.row_spoken', { weights: Array.from(shown.weights, (w) => fmt.num(w, 2)).join(', ') }));
    const j = top(shown.weights), jo = top(other.weights);
    const now = { key: j + 1, weight: fmt.percent(shown.weights[j]) }, then = { key: jo + 1, weight: fmt.percent(other.weights[jo]) };
    fill(note, dom.math(text('sqrtdk.row_scores', { low: fmt.num(Math.min(...shown.scores), 1), high: fmt.num(Math.max(...shown.scores), 1), d_k: fmt.int(c.d_k) }) +
      (c.scale ? text('sqrtdk.row_now_scaled', now) : text('sqrtdk.row_now_unscaled', now)) +
      (c.scale ? text('sqrtdk.row_other_unscaled', then) : text('sqrtdk.row_other_scaled', then))));
  }

  return { element, update };
}
