// The input of a `design` exercise (issue 36): a whole-number field per setting the learner chooses (e.g.
// the query q = (a, b) of a 2-d head; arrows or the spinner step them). After Check the row the engine
// computed for the learner's setting is drawn, one bar per key with its weight, so they see what their
// head does.

import { text } from '../../../lesson/panels/exercise_kinds.js';
import { keyLabels } from './sketch.js';

/** { field, read() → the record, onReveal(reveal), format(expected) }. */
export function designInput(dom, item, titleId) {
  const { h, fill } = dom;
  const { fields, keys, candidates } = item.design;
  const inputs = fields.map((f) => h('input', { type: 'number', name: `design-${f.name}`, min: String(f.min), max: String(f.max), step: '1', value: '0', inputmode: 'numeric', size: 3 }));
  const row = h('div', { class: 'ex-design-row', 'aria-live': 'polite' });
  const field = h('div', { class: 'ex-design', role: 'group', 'aria-labelledby': titleId },
    h('div', { class: 'ex-design-fields' }, fields.map((f, i) => h('label', {}, `${f.name} `, inputs[i]))), row);
  return {
    field,
    read: () => Object.fromEntries(fields.map((f, i) => [f.name, inputs[i].value.trim() === '' ? '' : Number(inputs[i].value)])),
    onReveal(r) {
      const at = candidates.findIndex((c) => fields.every((f) => c[f.name] === r.answer?.[f.name]));
      if (at < 0 || !r.weights) return;
      const weights = r.weights.slice(at * keys.length, (at + 1) * keys.length);
      fill(row,
        h('p', { class: 'note' }, text('exercises.design_your_row')),
        h('div', { class: 'ex-design-bars' }, weights.map((w, j) => h('span', { class: 'ex-design-bar', title: `${keys[j]}: ${w.toFixed(3)}` },
          h('span', { class: 'ex-design-fill', style: `height: ${Math.round(w * 100)}%` }),
          h('span', { class: 'ex-design-value' }, w.toFixed(2))))),
        keyLabels(h, keys));
    },
    // The engine's record is one of those that work: said so, so a learner whose own one was right is not puzzled.
    format: (expected) => (expected ? text('exercises.design_one_answer', { value: `(${fields.map((f) => String(expected[f.name]).replace('-', '−')).join(', ')})` }) : '—'),
  };
}
