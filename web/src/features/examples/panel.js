// The lesson's worked examples (E1, E2, E3, P1, P4), recomputed by the engine (the labs' module, loaded
// when this panel first has an engine) and checked against the lesson's figures; a click loads an example
// into the inputs.

import { exampleChanges, presetValue } from '../../model/presets.js';
import * as fmt from '../../model/format.js';
import { text } from '../../lesson/panels/examples.js';

export function create(body, { dom, host, actions }) {
  const { h, fill, math } = dom;
  let readOnly = false;
  fill(body, h('p', { class: 'placeholder' }, text('examples.waiting_engine')));
  let done = false;

  let latest = null;
  function update(view) {
    latest = view;
    const { engine } = view;
    if (readOnly !== view.readOnly) {
      readOnly = view.readOnly;
      for (const button of body.querySelectorAll('button.load')) button.hidden = readOnly;
    }
    if (done || !engine) return;
    done = true;
    engine.lessonExamples().then(show, (err) => {
      // Said once, and asked again only when the learner says so (a redraw that asked would fetch the labs again on every edit).
      const again = h('button', { type: 'button', class: 'secondary small', onclick: () => { done = false; fill(body, h('p', { class: 'placeholder' }, text('examples.waiting_engine'))); update(latest); } }, text('examples.try_again'));
      fill(body, h('p', { class: 'placeholder', role: 'alert' }, text('examples.could_not_compute', { message: String(err?.message ?? err) }), ' ', again));
    });
  }

  function show(examples) {
    const allOk = examples.every((ex) => ex.figures.every((f) => f.ok));
    fill(body,
      h('p', { class: 'lead' }, text('examples.each_figure_below_was'),
        allOk ? text('examples.all_them_match') : text('examples.some_do_not_match')),
      // One column that may shrink below a card's widest table (which scrolls inside its own box): a plain
      // grid column would grow to that table and push the page sideways on a phone.
      h('div', { class: 'examples', style: { gridTemplateColumns: 'minmax(0, 1fr)' } }, examples.map(card)));
  }

  function card(ex) {
    const ok = ex.figures.every((f) => f.ok);
    const c = ex.config;
    const config = [`d_model = ${fmt.int(c.d_model)}`, `h = ${c.n_heads}`, c.n ? `n = ${fmt.int(c.n)}` : null,
      c.batch > 1 ? `batch = ${c.batch}` : null, c.bias ? null : text('examples.no_biases')].filter(Boolean).join(', ');
    const rows = ex.figures.map((f) => {
      const info = f.expected === '';
      // A figure the lesson never prints (E3's exact count): checked against our own count, shown as
      // computed, never under the lesson's name (in_lesson: the engine's worked examples say which).
      const ours = !info && f.in_lesson === false;
      const mark = info ? h('span', { class: 'mark info', title: text('examples.not_lesson_shown_comparison') }, text('examples.info'))
        : !f.ok ? h('span', { class: 'mark bad', 'aria-label': text('examples.does_not_match') }, '✗')
          : ours ? h('span', { class: 'mark ok', 'aria-label': text('examples.agrees_our_count') }, '✓')
            : h('span', { class: 'mark ok', 'aria-label': text('examples.matches_lesson') }, '✓');
      // The label says so under the figure's name (it wraps there; a wider mark would widen the table on a phone).
      const label = ours ? [math(f.label), h('span', { class: 'sub-note' }, text('examples.computed_not_lesson'))] : math(f.label);
      return h('tr', { class: info || ours ? 'info-row' : '', dataset: { source: info ? 'info' : ours ? 'computed' : 'lesson' } },
        h('th', { scope: 'row' }, label), h('td', {}, info || ours ? '—' : f.expected), h('td', { class: 'computed' }, f.computed), h('td', {}, mark));
    });
    const load = () => {
      actions.load(exampleChanges(ex), presetValue('example', ex.id));
      host.scrollToResults();
    };
    return h('article', { class: `example ${ok ? 'ok' : 'bad'}`, dataset: { example: ex.id, ok: ok ? '1' : '0' } },
      h('header', {},
        h('h3', {}, h('span', { class: 'example-id' }, ex.id), ` ${ex.title}`),
        h('span', { class: `badge ${ok ? 'ok' : 'bad'}` }, ok ? text('examples.matches_lesson_2') : text('examples.mismatch'))),
      h('p', { class: 'config' }, config),
      dom.tableWrap({}, h('table', { class: 'figures' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, text('examples.figure')), h('th', { scope: 'col' }, text('examples.lesson')), h('th', { scope: 'col' }, text('examples.computed')),
          h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, text('examples.check'))))),
        h('tbody', {}, rows))),
      ex.note ? h('p', { class: `note${ex.id === 'E3' ? ' callout' : ''}` }, ex.note) : null,
      h('button', { type: 'button', class: 'secondary load', onclick: load, hidden: readOnly }, text('examples.load_into_inputs', { id: ex.id })));
  }

  return { update };
}
