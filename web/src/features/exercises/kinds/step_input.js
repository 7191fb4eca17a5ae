// The input of a `step` exercise (issue 36): a faded worked example of one query through a tiny head. The
// head's q, K and V are shown; below them the stages the engine worked out (score, scaled, max, exp, sum,
// weight, output), with "?" where the learner's number goes and "…" where a number is left for them to
// work out (each right answer hides more of the next stage). The numbers come from the session
// (actions.worked: the core's trace, filtered to what this stage may show); this file only draws them.

import * as fmt from '../../../model/format.js';
import { text } from '../../../lesson/panels/exercise_kinds.js';

// The stages' rows in order (each label: exercises.step_row.<name>).
const ROWS = ['scores', 'scaled', 'max', 'exp', 'sum', 'weights', 'output'].map((name) => [name, () => text(`exercises.step_row.${name}`)]);
/** Up to 4 decimals, trailing zeros dropped, a real minus sign. */
const show = (x) => (typeof x === 'number' ? fmt.num(x, 4).replace('-', '−') : x);

/** { field, read() → the typed number, onReveal() → redraws the worked numbers for the next stage }. */
export function stepInput(dom, item, titleId, actions) {
  const { h, fill } = dom;
  const { q, k, v, stages } = item.sequence;
  const n_k = k.length;
  const input = h('input', { type: 'text', name: 'answer', autocomplete: 'off', spellcheck: false, size: 10, inputmode: 'decimal' });
  const ask = h('span', { class: 'ex-step-ask' });
  const where = h('p', { class: 'note ex-step-where', 'aria-live': 'polite' });
  const work = h('div', { class: 'ex-step-work' });
  // The inputs: q, then a row per key with its k and v.
  const inputs = h('div', { class: 'table-wrap', tabindex: '0', role: 'group', 'aria-label': text('exercises.step_inputs') }, h('table', { class: 'numbers ex-step-table' },
    h('caption', {}, `q = (${q.map(show).join(', ')})`),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, text('exercises.step_key_j')), h('th', { scope: 'col' }, 'kⱼ'), h('th', { scope: 'col' }, 'vⱼ'))),
    h('tbody', {}, k.map((row, j) => h('tr', {}, h('th', { scope: 'row' }, String(j)), h('td', {}, `(${row.map(show).join(', ')})`), h('td', {}, `(${v[j].map(show).join(', ')})`))))));

  /** The worked stages up to the asked one: "?" for the asked cell, "…" for one left to the learner. */
  function draw(w) {
    const current = w.stage < w.count ? stages[w.stage] : null;
    where.textContent = current ? text('exercises.step_where', { stage: w.stage + 1, count: w.count }) : text('exercises.step_done', { count: w.count });
    ask.textContent = current ? text('exercises.step_ask', { what: current.label }) : text('exercises.step_practice');
    const cell = (x, asked) => h('td', { class: asked ? 'ex-step-asked' : x === null ? 'ex-step-left' : null }, asked ? '?' : x === null ? '…' : show(x));
    const askedRow = current ? { score: 'scores', scaled: 'scaled', max: 'max', exp: 'exp', sum: 'sum', weight: 'weights', output: 'output' }[current.name] : null;
    // The stages up to the asked one (every one once done), in order.
    const rows = ROWS.filter((_, i) => i <= w.stage).map(([name, label]) => {
      const value = w.rows[name];
      const cells = Array.isArray(value) ? value.map((x, j) => cell(x, name === askedRow && j === current.at))
        : [h('td', { colspan: String(n_k), class: name === askedRow ? 'ex-step-asked' : null }, name === askedRow ? '?' : show(value))];
      return h('tr', { dataset: { row: name } }, h('th', { scope: 'row' }, label()), cells);
    });
    fill(work, h('div', { class: 'table-wrap', tabindex: '0', role: 'group', 'aria-label': text('exercises.step_worked') }, h('table', { class: 'numbers ex-step-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, text('exercises.step_corner')), Array.from({ length: n_k }, (_, j) => h('th', { scope: 'col' }, String(j))))),
      h('tbody', {}, rows))));
  }
  const refresh = () => actions.worked(item.id).then(draw, (err) => { where.textContent = err.message; });
  refresh();
  const field = h('div', { class: 'ex-step', role: 'group', 'aria-labelledby': titleId }, inputs, where, work,
    h('label', {}, ask, ' ', input, ` (${item.toleranceText})`));
  return {
    field,
    read: () => input.value,
    /** After a stage's number is given (right, second try or shown): the next stage's worked numbers. */
    onReveal() {
      input.value = '';
      refresh();
    },
    format: (expected) => show(expected),
  };
}
