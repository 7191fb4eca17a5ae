import { text } from '../../lesson/panels/exercises.js';
// "Predict, then reveal": the chapter's exercises, one card each, one card shown at a time behind a
// stepper ("Exercise 2 of 4", previous/next, a status mark per exercise) so a chapter stays short: the prompt (numbers from the live
// layer), an input for its kind (a number, a shape, a choice, or a cell picked on a small map), a Check
// button, and the reveal (right or not, the core's answer, the explanation with its numbers). The answer
// goes through the playground's exercise session (lesson/exercises/session.js), the path a host's
// answer(id, value) takes too; this file only draws and reads the learner's input.

import { sketchInput } from './kinds/sketch.js';
import { designInput } from './kinds/design.js';

export { requests } from './requests.js'; // what this panel may ask the compute for (the session asks it)
// The exercises' prompts and reveals (their text is most of their code) come with this panel's code
// (panels.js): the session (service.js) loads them from here, so the first view's bundle holds only their ids.
export { EXERCISES } from '../../lesson/exercises/catalogue.js';

const MAX_GRID_SIDE = 16; // a bigger layer gets the asked row only, and the index typed in
const MAX_ROW_CELLS = 64; // a longer row is not drawn at all: the key's index is typed

export function create(body, { dom, actions }) {
  const { h, fill } = dom;
  // Prompts and explanations name Wᴽ, d_k and d_model: dom.math() shows them as the lesson writes them.
  const mathText = (s) => dom.math(s);
  const summary = h('p', { class: 'note', id: 'ex-summary' });
  const listBox = h('div', { class: 'ex-list' });
  // The stepper: which exercise is shown (announced when it changes), previous/next, and one mark per
  // exercise (its number and status: unanswered ·, right ✓, wrong ✗) that shows that exercise.
  const where = h('span', { class: 'ex-where', id: 'ex-where', 'aria-live': 'polite' });
  // On a narrow playground the buttons show their arrow only (the word stays in their name) and the
  // marks sit between them, so the stepper is one row.
  const word = (w) => h('span', { class: 'ex-word' }, w);
  const previous = h('button', { type: 'button', class: 'ex-prev', id: 'ex-prev', onclick: () => step(-1) }, h('span', { 'aria-hidden': 'true' }, '←'), word(' Previous'));
  const next = h('button', { type: 'button', class: 'ex-next', id: 'ex-next', onclick: () => step(1) }, word('Next '), h('span', { 'aria-hidden': 'true' }, '→'));
  const marks = h('ol', { class: 'ex-marks', 'aria-label': text('exercises.every_exercise_this_chapter') });
  const stepper = h('div', { class: 'ex-stepper', role: 'group', 'aria-label': 'Exercises' }, previous, where, marks, next);
  fill(body,
    h('p', { class: 'lead' }, text('exercises.predict_then_check_engine')),
    summary, stepper, listBox);
  const cards = new Map(); // id → { key, card, reveal, pending, selected }
  let order = [];   // the ids shown, in order
  let currentId = null; // the exercise on screen (kept by id: a new list keeps it when it still holds it)
  let lastItems = [];

  function update(view) {
    const ex = view.exercises;
    if (!ex) return;
    const { done, total, score } = ex.progress;
    summary.textContent = total
      ? text('exercises.answered_right', { done, total, value: Math.round(score * total), part: ex.unknown.length ? ` · not exercises: ${ex.unknown.join(', ')}` : '' })
      : text('exercises.no_exercises_here', { part: ex.unknown.length ? ` (not exercises: ${ex.unknown.join(', ')})` : '' });
    const ids = ex.items.map((item) => item.id);
    lastItems = ex.items;
    order = ids;
    if (!ids.includes(currentId)) currentId = ids[0] ?? null;
    for (const [id, entry] of cards) if (!ids.includes(id)) { entry.card.remove(); cards.delete(id); }
    ex.items.forEach((item, at) => {
      const key = item.key ?? `unavailable:${item.unavailable}`;
      let entry = cards.get(item.id);
      if (!entry || entry.key !== key) {
        entry?.card.remove();
        entry = makeCard(item, key);
        cards.set(item.id, entry);
      }
      if (listBox.children[at] !== entry.card) listBox.insertBefore(entry.card, listBox.children[at] ?? null);
      showStatus(dom, entry, item);
    });
    showCurrent();
  }

  /** Shows the current exercise's card only, and draws the stepper for it. */
  function showCurrent() {
    const at = order.indexOf(currentId);
    stepper.hidden = order.length < 2;
    for (const [id, entry] of cards) entry.card.hidden = id !== currentId;
    where.textContent = order.length ? `Exercise ${at + 1} of ${order.length}` : '';
    // aria-disabled, not disabled: the button keeps focus at either end (a disabled one would drop it).
    previous.setAttribute('aria-disabled', String(at <= 0));
    next.setAttribute('aria-disabled', String(at < 0 || at >= order.length - 1));
    const byId = new Map(lastItems.map((item) => [item.id, item]));
    const wanted = order.map((id, i) => {
      const status = statusOf(byId.get(id));
      return { id, i, status, label: `Exercise ${i + 1}: ${{ unanswered: text('exercises.not_answered_yet'), right: 'answered right', wrong: 'answered wrong' }[status]}` };
    });
    if (marks.children.length !== wanted.length) {
      fill(marks, wanted.map(({ id }) => h('li', {}, h('button', { type: 'button', dataset: { mark: id }, onclick: () => go(id, true) }))));
    }
    wanted.forEach(({ id, i, status, label }, k) => {
      const b = marks.children[k].firstChild;
      b.dataset.mark = id;
      b.dataset.status = status;
      b.setAttribute('aria-label', label);
      b.title = label;
      b.textContent = `${i + 1}${{ unanswered: '', right: ' ✓', wrong: ' ✗' }[status]}`;
      if (id === currentId) b.setAttribute('aria-current', 'step');
      else b.removeAttribute('aria-current');
    });
  }

  function step(by) {
    const at = order.indexOf(currentId);
    const to = order[Math.max(0, Math.min(order.length - 1, at + by))];
    if (to) go(to, false);
  }

  /** Shows exercise `id`; from a mark, focus moves to its card's title (keyboard users land on the prompt). */
  function go(id, focusCard) {
    currentId = id;
    showCurrent();
    if (focusCard) cards.get(id)?.card.querySelector('h3')?.focus();
  }

  function makeCard(item, key) {
    const entry = { key, pending: false, selected: null, shown: null };
    const titleId = `ex-${item.id.replace(/\W/g, '-')}`;
    const reveal = h('div', { class: 'ex-verdict', role: 'status', 'aria-live': 'polite' });
    const attempts = h('span', { class: 'note ex-attempts' });
    entry.reveal = reveal;
    entry.attempts = attempts;
    const head = h('h3', { id: titleId, tabindex: '-1' }, mathText(item.prompt ?? text('exercises.this_exercise_uses_current')), h('span', { class: 'ex-id' }, item.id));
    if (item.unavailable) {
      entry.card = h('article', { class: 'exercise', dataset: { exercise: item.id, kind: item.kind }, 'aria-labelledby': titleId },
        head, h('p', { class: 'placeholder' }, `Not available: ${item.unavailable}.`));
      return entry;
    }
    const { field, read } = inputFor(dom, item, entry, titleId);
    const button = h('button', { type: 'submit' }, 'Check');
    entry.button = button;
    const form = h('form', {
      onsubmit: (e) => {
        e.preventDefault();
        submit(item, entry, read());
      },
    }, field, button, attempts);
    entry.card = h('article', { class: 'exercise', dataset: { exercise: item.id, kind: item.kind }, 'aria-labelledby': titleId }, head, form, reveal);
    return entry;
  }

  async function submit(item, entry, value) {
    if (entry.pending) return;
    entry.pending = true;
    entry.button.disabled = true;
    entry.reveal.dataset.correct = '';
    entry.reveal.textContent = text('exercises.asking_engine');
    try {
      await actions.answer(item.id, value); // the session redraws this card with the reveal
    } catch (err) {
      entry.shown = null;
      entry.reveal.dataset.correct = '';
      fill(entry.reveal, h('span', { class: 'panel-error' }, `Not checked: ${err.message}.`));
    } finally {
      entry.pending = false;
      entry.button.disabled = false;
    }
  }


  return { update };
}

// ---- outside the panel's state: a card's input and its row after the reveal ----

/** unanswered, right (solved at some attempt) or wrong (tried, not solved yet). */
function statusOf(item) {
  const s = item?.status;
  if (!s?.attempts) return 'unanswered';
  return s.correct ? 'right' : 'wrong';
}

/** The input of a kind: { field (the element), read() → the value to answer with }. */
function inputFor(dom, item, entry, titleId) {
  const { h } = dom;
  if (item.kind === 'choice') {
    const name = `${titleId}-choice`;
    const radios = item.choices.map((c) => h('input', { type: 'radio', name, value: c.key }));
    return {
      field: h('fieldset', { 'aria-labelledby': titleId }, item.choices.map((c, i) => h('label', {}, radios[i], ' ', c.label))),
      read: () => radios.find((r) => r.checked)?.value ?? '',
    };
  }
  if (item.kind === 'cell') return cellPicker(dom, item, entry);
  if (item.kind === 'sketch') return (entry.kindView = sketchInput(dom, item, titleId));
  if (item.kind === 'design') return (entry.kindView = designInput(dom, item, titleId));
  const input = h('input', { type: 'text', name: 'answer', autocomplete: 'off', spellcheck: false, size: 14,
    inputmode: item.kind === 'number' ? 'decimal' : 'text', placeholder: item.kind === 'shape' ? 'e.g. 2×4×8×8' : '' });
  const hint = item.kind === 'number' ? `your answer (${item.toleranceText})` : text('exercises.your_answer_shape_2');
  return { field: h('label', {}, `${hint[0].toUpperCase()}${hint.slice(1)} `, input), read: () => input.value };
}

/**
 * The cell picker: a small map of the layer's rows and keys, where only the asked query's row can be
 * picked (buttons; ←/→, Home and End move along it), plus the key's index to type for large layers.
 */
function cellPicker(dom, item, entry) {
  const { h } = dom;
  const { rows, cols, row, labels_q, labels_k } = item.grid;
  const whole = rows <= MAX_GRID_SIDE && cols <= MAX_GRID_SIDE;
  const keyName = (j) => (labels_k ? `${labels_k[j]} (${j})` : `key ${j}`);
  const buttons = [];
  const typed = h('input', { type: 'text', name: 'cell', inputmode: 'numeric', size: 4, autocomplete: 'off' });
  const pick = (j, focus) => {
    entry.selected = j;
    typed.value = String(j);
    buttons.forEach((b, k) => {
      b.setAttribute('aria-pressed', String(k === j));
      b.tabIndex = k === j ? 0 : -1;
    });
    if (focus) buttons[j]?.focus();
  };
  const cellRow = (i) => h('tr', { class: i === row ? 'asked' : '' },
    h('th', { scope: 'row' }, labels_q ? labels_q[i] : `${i}`),
    Array.from({ length: cols }, (_, j) => {
      if (i !== row) return h('td', { 'aria-hidden': 'true' });
      const b = h('button', { type: 'button', 'aria-pressed': 'false', tabindex: j === 0 ? '0' : '-1', 'aria-label': keyName(j), dataset: { key: j },
        onclick: () => pick(j, false),
        onkeydown: (e) => {
          const next = { ArrowRight: j + 1, ArrowLeft: j - 1, Home: 0, End: cols - 1 }[e.key];
          if (next === undefined) return;
          e.preventDefault();
          pick(Math.max(0, Math.min(cols - 1, next)), true);
        } });
      buttons[j] = b;
      return h('td', { dataset: { key: j } }, b);
    }));
  const shownRows = whole ? Array.from({ length: rows }, (_, i) => i) : [row];
  // A table of its own (caption and corner header read out, not shown): rows are queries, columns keys.
  const table = h('table', { class: 'ex-grid' },
    h('caption', { class: 'ex-unseen' }, text('exercises.row_query_pick_key', { part: labels_q ? labels_q[row] : row })),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, h('span', { class: 'ex-unseen' }, 'query, key')), Array.from({ length: cols }, (_, j) => h('th', { scope: 'col', title: keyName(j) }, labels_k ? labels_k[j].slice(0, 4) : `${j}`)))),
    h('tbody', {}, shownRows.map(cellRow)));
  entry.grid = table;
  typed.addEventListener('input', () => {
    const j = Number(typed.value);
    if (Number.isInteger(j) && j >= 0 && j < cols) pick(j, false);
  });
  return { field: [cols <= MAX_ROW_CELLS ? h('div', { class: 'ex-grid-wrap' }, table) : null, h('label', {}, text('exercises.key_index_0', { value: cols - 1 }), typed)], read: () => typed.value };
}

/** After the reveal, the asked row shows the core's weights (darker = larger) and the expected cell. */
function paintRow(entry, item, r) {
  const max = Math.max(...r.weights) || 1;
  for (const td of entry.grid.querySelectorAll('tr.asked td')) {
    const j = Number(td.dataset.key);
    td.style.background = `color-mix(in srgb, var(--accent) ${Math.round((r.weights[j] / max) * 80)}%, transparent)`;
    td.classList.toggle('expected', j === r.expected);
    td.title = `weight ${r.weights[j].toFixed(3)}`;
  }
}

/** A card's attempts and, once answered, the reveal: right or not, the core's answer and why. */
function showStatus(dom, entry, item) {
  const { h, fill } = dom;
  if (!entry.attempts) return;
  const { attempts, correct } = item.status;
  entry.attempts.textContent = attempts ? `${attempts} attempt${attempts > 1 ? 's' : ''}${correct ? ' · solved' : ''}` : '';
  const r = item.reveal;
  if (!r || entry.shown === r) return;
  entry.shown = r;
  entry.reveal.dataset.correct = r.correct ? '1' : '0';
  const expected = entry.kindView?.format ? entry.kindView.format(r.expected) : Array.isArray(r.expected) ? r.expected.join('×') : item.kind === 'choice' ? item.choices.find((c) => c.key === r.expected)?.label ?? r.expected : String(r.expected);
  fill(entry.reveal, h('strong', {}, r.correct ? 'Right. ' : 'Not quite. '), text('exercises.engine_s_answer', { expected }), dom.math(r.explanation));
  if (entry.grid && r.weights) paintRow(entry, item, r);
  entry.kindView?.onReveal?.(r);
}
