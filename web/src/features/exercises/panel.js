import { text } from '../../lesson/panels/exercises.js';
// "Predict, then reveal": the chapter's exercises, one card each, one card shown at a time behind a
// stepper ("Exercise 2 of 4", previous/next, a status mark per exercise) so a chapter stays short: the prompt (numbers from the live
// layer), an input for its kind (a number, a shape, a choice, or a cell picked on a small map), a Check
// button and a "Show answer" button, and the verdict: a first wrong answer gets the exercise's hint and
// a second try; a right answer, a second wrong one or "Show answer" brings the core's answer and the
// explanation with its numbers. The answer goes through the playground's exercise session
// (lesson/exercises/session.js), the path a host's answer(id, value) and reveal(id) take too; this file
// only draws and reads the learner's input. The exercise's id is not shown (data-exercise keeps it).

import { sketchInput } from './kinds/sketch.js';
import { designInput } from './kinds/design.js';
import { cellInput, paintRow } from './kinds/cell.js';
import { stepInput } from './kinds/step_input.js';
import { stepExercises, stepOf, chapterOf } from '../../lesson/chapters.js';

export { requests } from './requests.js'; // what this panel may ask the compute for (the session asks it)
// The exercises' prompts and reveals (their text is most of their code) come with this panel's code
// (panels.js): the session (service.js) loads them from here, so the first view's bundle holds only their ids.
export { EXERCISES } from '../../lesson/exercises/catalogue.js';
export * as GRADING from '../../lesson/exercises/grading.js'; // and the code that poses and grades them


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
  const previous = h('button', { type: 'button', class: 'ex-prev', id: 'ex-prev', onclick: () => step(-1) }, h('span', { 'aria-hidden': 'true' }, '←'), word(text('exercises.previous')));
  const next = h('button', { type: 'button', class: 'ex-next', id: 'ex-next', onclick: () => step(1) }, word(text('exercises.next')), h('span', { 'aria-hidden': 'true' }, '→'));
  const marks = h('ol', { class: 'ex-marks', 'aria-label': text('exercises.every_exercise_this_chapter') });
  const stepper = h('div', { class: 'ex-stepper', role: 'group', 'aria-label': text('exercises.exercises') }, previous, where, marks, next);
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
    const { done, total, score, first_try } = ex.progress;
    summary.textContent = total
      ? text('exercises.answered_right', { done, total, value: Math.round(score * total), first: Math.round(first_try * total), part: ex.unknown.length ? text('exercises.not_exercises_after', { ids: ex.unknown.join(', ') }) : '' })
      : text('exercises.no_exercises_here', { part: ex.unknown.length ? text('exercises.not_exercises_paren', { ids: ex.unknown.join(', ') }) : '' });
    // A chapter told in steps shows the exercises placed at the step shown (the summary counts the chapter's).
    // An author's exercise (web/src/author/) names its step itself (item.step).
    const placed = stepExercises(view.state), at = placed && [chapterOf(view.state).name, stepOf(view.state).number];
    const items = placed ? ex.items.filter((item) => placed.includes(item.id) || (item.chapter === at[0] && item.step === at[1])) : ex.items;
    const ids = items.map((item) => item.id);
    lastItems = items;
    order = ids;
    if (!ids.includes(currentId)) currentId = ids[0] ?? null;
    for (const [id, entry] of cards) if (!ids.includes(id)) { entry.card.remove(); cards.delete(id); }
    items.forEach((item, at) => {
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
    where.textContent = order.length ? text('exercises.exercise_of', { n: at + 1, total: order.length }) : '';
    // aria-disabled, not disabled: the button keeps focus at either end (a disabled one would drop it).
    previous.setAttribute('aria-disabled', String(at <= 0));
    next.setAttribute('aria-disabled', String(at < 0 || at >= order.length - 1));
    const byId = new Map(lastItems.map((item) => [item.id, item]));
    const wanted = order.map((id, i) => {
      const status = statusOf(byId.get(id));
      return { id, i, status, label: text('exercises.exercise_status', { n: i + 1, status: statusWords(status) }) };
    });
    if (marks.children.length !== wanted.length) {
      // The id is read when clicked: a mark is reused for another exercise when the list changes (another step).
      fill(marks, wanted.map(({ id }) => h('li', {}, h('button', { type: 'button', dataset: { mark: id }, onclick: (e) => go(e.currentTarget.dataset.mark, true) }))));
    }
    wanted.forEach(({ id, i, status, label }, k) => {
      const b = marks.children[k].firstChild;
      b.dataset.mark = id;
      b.dataset.status = status;
      b.setAttribute('aria-label', label);
      b.title = label;
      b.textContent = `${i + 1}${STATUS_MARKS[status]}`;
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
    const head = h('h3', { id: titleId, tabindex: '-1' }, mathText(item.prompt ?? text('exercises.this_exercise_uses_current')));
    if (item.unavailable) {
      entry.card = h('article', { class: 'exercise', dataset: { exercise: item.id, kind: item.kind }, 'aria-labelledby': titleId },
        head, h('p', { class: 'placeholder' }, text('exercises.not_available', { reason: item.unavailable })));
      return entry;
    }
    const { field, read } = inputFor(dom, item, entry, titleId, actions);
    const button = h('button', { type: 'submit' }, text('exercises.check'));
    const show = h('button', { type: 'button', class: 'ex-show', onclick: () => ask(entry, () => actions.reveal(item.id)) }, text('exercises.show_answer'));
    entry.button = button;
    entry.show = show;
    const form = h('form', {
      onsubmit: (e) => {
        e.preventDefault();
        const value = read();
        ask(entry, () => actions.answer(item.id, value));
      },
    }, field, button, show, attempts);
    entry.card = h('article', { class: 'exercise', dataset: { exercise: item.id, kind: item.kind }, 'aria-labelledby': titleId }, head, form, reveal);
    return entry;
  }

  /** Checks an answer or shows the answer (`call`); the session redraws this card with the verdict. */
  async function ask(entry, call) {
    if (entry.pending) return;
    entry.pending = true;
    entry.button.disabled = entry.show.disabled = true;
    entry.reveal.dataset.correct = '';
    entry.reveal.textContent = text('exercises.asking_engine');
    try {
      await call();
    } catch (err) {
      entry.shown = null;
      entry.reveal.dataset.correct = '';
      // The message names the exercise by its id (for answer()'s callers); the learner's view shows no ids.
      const id = entry.card.dataset.exercise, said = err.message.split(`${id}: `).join('').split(id).join(text('exercises.the_answer'));
      fill(entry.reveal, h('span', { class: 'panel-error' }, text('exercises.not_checked', { message: said })));
    } finally {
      entry.pending = false;
      entry.button.disabled = entry.show.disabled = false;
    }
  }


  return { update };
}

// ---- outside the panel's state: a card's input and its row after the reveal ----

// A mark's status: its words (by text id) and its sign after the exercise's number.
const statusWords = (status) => ({ unanswered: () => text('exercises.not_answered_yet'), retry: () => text('exercises.status_retry'),
  right: () => text('exercises.status_right'), revealed: () => text('exercises.status_revealed') })[status]();
const STATUS_MARKS = { unanswered: '', retry: ' ✗', right: ' ✓', revealed: ' ○' };

/** unanswered, retry (one wrong try, a second one left), right (answered right before the answer was shown) or revealed (shown). */
function statusOf(item) {
  const s = item?.status;
  if (s?.correct) return 'right';
  if (s?.revealed) return 'revealed';
  return s?.attempts ? 'retry' : 'unanswered';
}

/** The input of a kind: { field (the element), read() → the value to answer with }. A new kind adds its function to INPUTS. */
function inputFor(dom, item, entry, titleId, actions) {
  return (INPUTS[item.kind] ?? typedInput)(dom, item, entry, titleId, actions);
}

/** A choice: one radio button per choice. */
function choiceInput(dom, item, entry, titleId) {
  const { h } = dom;
  const name = `${titleId}-choice`;
  const radios = item.choices.map((c) => h('input', { type: 'radio', name, value: c.key }));
  return {
    field: h('fieldset', { 'aria-labelledby': titleId }, item.choices.map((c, i) => h('label', {}, radios[i], ' ', c.label))),
    read: () => radios.find((r) => r.checked)?.value ?? '',
  };
}

/** A number or a shape, typed. */
function typedInput(dom, item) {
  const { h } = dom;
  const input = h('input', { type: 'text', name: 'answer', autocomplete: 'off', spellcheck: false, size: 14,
    inputmode: item.kind === 'number' ? 'decimal' : 'text', placeholder: item.kind === 'shape' ? 'e.g. 2×4×8×8' : '' });
  const hint = item.kind === 'number' ? text('exercises.your_answer_tolerance', { tolerance: item.toleranceText }) : text('exercises.your_answer_shape_2');
  return { field: h('label', {}, `${hint[0].toUpperCase()}${hint.slice(1)} `, input), read: () => input.value };
}

const INPUTS = { number: typedInput, shape: typedInput, choice: choiceInput, cell: (dom, item, entry) => cellInput(dom, item, entry),
  sketch: (dom, item, entry, titleId) => (entry.kindView = sketchInput(dom, item, titleId)),
  design: (dom, item, entry, titleId) => (entry.kindView = designInput(dom, item, titleId)),
  step: (dom, item, entry, titleId, actions) => (entry.kindView = stepInput(dom, item, titleId, actions)) };

/** A card's attempts, its "Show answer" button (while the exercise is not done) and its latest verdict. */
function showStatus(dom, entry, item) {
  if (!entry.attempts) return;
  const { attempts, correct, revealed } = item.status;
  const state = correct ? text('exercises.status_solved') : revealed ? text('exercises.status_shown') : '';
  entry.attempts.textContent = attempts ? (attempts > 1 ? text('exercises.attempts', { attempts, state }) : text('exercises.one_attempt', { state })) : revealed ? state.replace(/^ · /, '') : '';
  entry.show.hidden = !!(correct || revealed);
  const r = item.reveal;
  if (!r || entry.shown === r) return;
  entry.shown = r;
  if (r.hint) showHint(dom, entry, r);
  else showAnswer(dom, entry, item, r);
}

/** A first wrong answer: the hint, and a second try. */
function showHint(dom, entry, r) {
  const { h, fill } = dom;
  entry.reveal.dataset.correct = 'hint';
  fill(entry.reveal, h('strong', {}, text('exercises.not_quite')), h('span', { class: 'ex-hint' }, dom.math(text('exercises.hint', { hint: r.hint }))), ' ', text('exercises.try_again'));
  if (r.weights) entry.kindView?.onReveal?.(r); // a design: what the learner's setting does (rules.js)
}

/** The core's answer and why: after a right answer, a second wrong one, or "Show answer" (r.correct null). */
function showAnswer(dom, entry, item, r) {
  const { h, fill } = dom;
  entry.reveal.dataset.correct = r.correct === null ? 'shown' : r.correct ? '1' : '0';
  const expected = entry.kindView?.format ? entry.kindView.format(r.expected) : Array.isArray(r.expected) ? r.expected.join('×') : item.kind === 'choice' ? item.choices.find((c) => c.key === r.expected)?.label ?? r.expected : String(r.expected);
  // Right, but only after the answer was shown: said, as it scores nothing.
  const verdict = r.correct === null ? null : r.correct ? (item.status.revealed ? text('exercises.right_after_shown') : text('exercises.right')) : text('exercises.not_quite');
  fill(entry.reveal, verdict ? h('strong', {}, verdict) : null, text('exercises.engine_s_answer', { expected }), dom.math(r.explanation));
  if (entry.grid && r.weights) paintRow(entry, item, r);
  entry.kindView?.onReveal?.(r);
}
