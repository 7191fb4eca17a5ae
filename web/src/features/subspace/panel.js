// "Why several heads?" (the lesson's fifth objective): the subspace argument in plain words, and the result
// that shows it: one head against two on a task needing two places at once, trained by the core. The
// figures shown first are the lesson's record (lesson/chapters/heads/subspace_result.js, written by the same
// handler); "Train both here" computes them again in the worker. This file only asks and draws.

import * as fmt from '../../model/format.js';
import { text } from '../../lesson/panels/subspace.js';
import { SUBSPACE_RESULT } from '../../lesson/chapters/heads/subspace_result.js';
export { requests } from './requests.js'; // what this panel may ask the compute for (its ctx.actions)

/** About how long the two runs take in a tab (measured: 2–5 s on a shared 2-core machine). */
const SECONDS = 5;

/** The head reading `relation` most, with its weight. */
function reader(run, relation) {
  let head = 0;
  run.focus.forEach((f, k) => { if (f[relation] > run.focus[head][relation]) head = k; });
  return { head, weight: run.focus[head][relation] };
}

/** The sentences under the table, from the runs' figures. */
export function resultWords(runs) {
  const one = runs.find((r) => r.n_heads === 1), two = runs.find((r) => r.n_heads === 2);
  const out = [];
  if (one) {
    out.push(text('subspace.one_head', { accuracy: fmt.percent(one.accuracy), first: fmt.percent(one.focus[0].first),
      first_right: fmt.percent(one.slot_accuracy.first), previous_right: fmt.percent(one.slot_accuracy.previous) }));
  }
  if (two) {
    const a = reader(two, 'previous'), b = reader(two, 'first');
    out.push(a.head !== b.head && a.weight >= 0.8 && b.weight >= 0.8
      ? text('subspace.two_heads', { accuracy: fmt.percent(two.accuracy), a: a.head + 1, a_weight: fmt.percent(a.weight), b: b.head + 1, b_weight: fmt.percent(b.weight) })
      : text('subspace.two_heads_mixed', { accuracy: fmt.percent(two.accuracy) }));
  }
  return out;
}

export function create(body, { dom, actions }) {
  const { h, fill, table } = dom;
  const s = SUBSPACE_RESULT.settings;
  const source = h('p', { class: 'note', id: 'subspace-source' });
  const figures = h('div', { id: 'subspace-figures' });
  const words = h('div', { id: 'subspace-words' });
  const status = h('p', { class: 'note', id: 'subspace-status', 'aria-live': 'polite' });
  const train = h('button', { type: 'button', class: 'secondary', id: 'subspace-train' }, text('subspace.train', { seconds: SECONDS }));
  fill(body,
    h('p', { class: 'lead' }, dom.math(text('subspace.argument_1'))),
    h('p', {}, dom.math(text('subspace.argument_2'))),
    h('p', { class: 'note' }, dom.math(text('subspace.task', { d_model: s.d_model, steps: fmt.int(s.steps), samples: fmt.int(s.samples) }))),
    figures, words, source, h('div', { class: 'button-row' }, train), status);

  function show(result, measured) {
    const rows = result.runs.map((r) => ({
      attrs: { dataset: { heads: r.n_heads, accuracy: r.accuracy } },
      cells: [dom.math(text('subspace.model', { n_heads: r.n_heads, part: r.n_heads === 1 ? '' : 's', d_k: r.d_k })), fmt.percent(r.accuracy),
        fmt.percent(r.slot_accuracy.previous), fmt.percent(r.slot_accuracy.first)],
    }));
    // Where each head looks is said under the table (resultWords), which keeps the table narrow enough for a phone.
    fill(figures, dom.tableWrap({}, table([text('subspace.col_model'), text('subspace.col_accuracy'), text('subspace.col_previous'),
      text('subspace.col_first')], rows, { class: 'cost subspace', id: 'subspace-table' })));
    fill(words, resultWords(result.runs).map((line) => h('p', { class: 'note' }, dom.math(line))));
    source.textContent = measured ? text('subspace.measured', { isa: result.isa ?? '' }) : text('subspace.recorded', { isa: result.isa ?? '' });
    body.dataset.measured = measured ? '1' : '0';
  }
  show(SUBSPACE_RESULT, false);

  train.addEventListener('click', () => {
    train.disabled = true;
    status.textContent = text('subspace.starting');
    actions.subspaceTrain({}, (p) => {
      if (p?.total) status.textContent = text('subspace.training', { n_heads: p.n_heads, done: fmt.int(p.done), total: fmt.int(p.total) });
    }).then((result) => {
      status.textContent = '';
      show(result, true);
    }, (err) => {
      status.textContent = text('subspace.failed', { message: err?.message ?? String(err) });
    }).finally(() => { train.disabled = false; });
  });

  return { update() {} };
}
