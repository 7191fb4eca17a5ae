// A playground's exercises: which ones its state shows, their prompts for the live layer, the answers
// (the core's, asked once per exercise and layer through the feature's `solve` request), the learner's
// attempts and the progress kept in storage. The learner's input (features/exercises/panel.js) and a
// host's answer(id, value) (element, page, widget) take this same path, so both count and both fire the
// playground's `attempt` and `progress` events. The rules: a wrong answer gets the exercise's hint and a
// second try; the engine's answer and its explanation come with a right answer, after the second wrong
// try, or on reveal(id) ("Show answer"); a right answer after the answer was shown is right but scores
// nothing. An `exercises` event says when the prompts of the set shown are ready.
// What a host reads at once (the ids, kinds and progress: index.js) is here; posing and grading
// (grading.js) come with the catalogue, from the lazy bundle in a playground (issue 34: the first view).

import { selectExercises, recordStore, progressOf, progressByChapter, chapterOf as lessonChapterOf, KIND_OF, isDone, exerciseChapter } from './index.js';
import { NO_ENTRY } from './rules.js';
import { catalogueLoader } from './core_answers.js';
import { actionsFor } from '../../playground/asks.js';
import { requests } from '../../features/exercises/requests.js';
import { text } from './session_text.js';

const FEATURE = 'exercises'; // the feature whose handler answers (features/exercises/handler.js)

/**
 * options: { askHost (playground/asks.js's host; or `solve(payload)` → Promise of { results }, for tests),
 * state() → the playground's state, check() → its validation ({ config, errors }), untilEngine() (a promise:
 * fulfilled once the engine is loaded, rejected when it cannot start or the playground is removed), scope (the progress record's name; null = not stored), storage (localStorage
 * or a stand-in, or a function giving one when the record is first read), deferred (true: the record is
 * read at start(), or before when a host asks for the progress, answers or clears, and progress events
 * are sent from start() on (an answer or clear() starts it); until then the view counts no attempts),
 * emit(type, detail), changed() (redraw), catalogue: catalogue.js's EXERCISES, or a function
 * giving a promise of them (the playground's: from panels.js, so their text stays out of the first view's
 * bundle; asked once an exercise is shown or answered, and until it arrives an exercise says it is loading),
 * grading: grading.js's module, or a function giving a promise of it (loaded with the catalogue),
 * authored (an author's exercises, web/src/author/: shown after their chapter's own, graded the same way),
 * panelShown() → false while the author's `panels` leave the exercises panel out (the chapter's exercises are
 * then not shown; those `exercises` names still are: index.js selectExercises; a chapter's step without
 * exercises leaves it out too, and keeps the chapter's),
 * statements() → a promise of lms/event_statements.js's { attemptStatement, completionStatement } (the events then carry
 * xAPI statements; from panels.js in a playground), now() (ms; Date.now: the statements' durations and timestamps) }.
 */
export function createLazySession({ askHost, solve, state, check, untilEngine = () => Promise.resolve(), scope = null, storage, deferred = false, emit = () => {}, changed = () => {}, catalogue, grading, authored = [], panelShown = () => true, statements = null, now = Date.now }) {
  const ask = solve ?? actionsFor(FEATURE, requests, askHost).solve;
  const chapterOf = (id) => lessonChapterOf(id, authored);
  // The exercises' definitions (loaded once; a redraw when they arrive or fail).
  const defs = catalogueLoader(withAuthored(catalogue, authored), grading,
    () => { if (!destroyed) { cache = { state: null, check: null, items: new Map() }; changed(); } });
  // A page's first touch of localStorage costs a fresh tab tens of milliseconds (the storage is opened
  // for it): a deferred session reads the record once the playground's first result is drawn (start()).
  const records = recordStore(scope, storage, authored), stored = records.read;
  const since = new Map(); // id → when it was first shown or last answered (ms): the xAPI statements' durations
  let started = !deferred;
  /** What the view counts: before start() the attempts known so far (none until the record is read). */
  const known = () => (started ? stored() : records.peek() ?? {});
  const last = new Map();    // id → { key, correct, answer, hint } or { key, correct, answer, expected, explanation, weights }: the latest verdict
  let cache = { state: null, check: null, items: new Map() };
  let emitted = null, destroyed = false;
  const alive = () => !destroyed;
  let grader = null; // grading.js's part, once the catalogue (and with it grading.js) is loaded
  const graderOf = () => (grader ??= defs.grading.createGrader({ ask, stored, records, last, chapterOf, alive, emit, changed,
    progress, done: doneCount, statements, now, since }));

  /** An exercise set up for the current layer: { id, chapter, kind, prompt, …, key } or { id, chapter, kind, unavailable }. */
  function instance(id) {
    const s = state(), c = check();
    if (cache.state !== s || cache.check !== c) cache = { state: s, check: c, items: new Map() };
    if (cache.items.has(id)) return cache.items.get(id);
    // Until the definitions arrive (a redraw then). After a failed load only answer() asks again: a
    // redraw that asked would fail, redraw and ask again, without end.
    if (!defs.byId && !defs.error) defs.load().catch(() => {});
    if (!defs.byId) return notPosed(id, defs.error, authored);
    const item = defs.grading.posedItem(defs.byId.get(id), id, s, c);
    cache.items.set(id, item);
    return item;
  }

  const selection = () => selectExercises(state(), authored, panelShown());
  const chapter = () => exerciseChapter(state());

  // entries: every exercise's entry, whatever the chapter shown (an LMS's adapter keeps its package's: lms/scorm.js);
  // the element's, the frame's and the widget's progress events leave them out (features/exercises/service.js).
  const progressWith = (rec, ids = selection().ids) => ({ chapter: chapter(), ...progressOf(ids, rec), chapters: progressByChapter(rec, authored), entries: { ...rec } });
  const doneCount = () => selection().ids.filter((id) => isDone(stored()[id])).length;
  const progress = () => progressWith(stored());

  /** A `progress` event when the set shown changed (chapter, `exercises`) since the last one (once started). */
  function noteSelection() {
    if (!started) return;
    const key = JSON.stringify([chapter(), selection().ids]);
    if (key === emitted || destroyed) return;
    emitted = key;
    queueMicrotask(() => { if (!destroyed) emit('progress', progress()); });
  }

  function start() {
    if (started || destroyed) return;
    started = true;
    const attempts = Object.keys(stored()).length;
    noteSelection();
    if (attempts) changed();
  }

  /** The exercise `id` posed for the live layer, with the grading loaded: { item, def, grader } (throws when it cannot be posed). */
  async function solvedItem(id) {
    if (destroyed) throw new Error('this playground was removed');
    start(); // a host's answer before the first result: its progress event comes first, as it would have
    if (!chapterOf(id)) throw new Error(`“${String(id).slice(0, 60)}” is not an exercise; the ids are listed in EMBED.md (e.g. attention.causal-row)`);
    await Promise.all([untilEngine(), defs.load()]);
    await graderOf().load(); // the xAPI statements' code, when the session has some
    const item = instance(id);
    if (item.unavailable) throw new Error(`${id} cannot be answered now: ${item.unavailable}`);
    return { item, def: defs.byId.get(id), grader: graderOf() };
  }

  const answer = (id, value) => solvedItem(id).then(({ item, def, grader: g }) => g.answer(id, item, def, value));
  /** Shows `id`'s answer ("Show answer"): it counts as revealed unless it was answered right before. */
  const reveal = (id) => solvedItem(id).then(({ item, def, grader: g }) => g.reveal(id, item, def));

  /** The exercises shown, for hosts: [{ id, chapter, kind, prompt }]. */
  const list = () => selection().ids.map((id) => {
    const item = instance(id);
    if (!since.has(id)) since.set(id, now()); // first shown: an answer's duration counts from here
    return { id, chapter: item.chapter, kind: item.kind, prompt: item.prompt ?? null };
  });

  return {
    /** The exercises shown, for hosts: [{ id, chapter, kind, prompt }] (kind from the first call; prompt null until posed). */
    list,
    /** What the panel draws: { items (with choices, grid, tolerance, status and the latest verdict), progress, unknown, open(id) }. */
    view() {
      noteSelection();
      // Only once the catalogue is loaded: a view without the exercises downloads nothing for them.
      if (defs.byId && !destroyed) graderOf().noteList(chapter(), list());
      const { ids, unknown } = selection();
      // The items are made when first read (by the exercises panel, once it is shown): making them asks
      // for the catalogue (panels.js), which a view without that panel (the chapter list reads only the
      // progress) must not download.
      let items = null;
      const rec = known();
      const made = () => items ??= Object.freeze(ids.map((id) => {
        const item = instance(id), seen = last.get(id);
        return Object.freeze({ ...item, status: rec[id] ?? NO_ENTRY, reveal: seen && seen.key === item.key ? seen : null });
      }));
      return Object.freeze({ get items() { return made(); }, progress: progressWith(rec), unknown, open: (id) => ids.includes(id) && !isDone(rec[id]) });
    },
    answer,
    worked: (id) => solvedItem(id).then(({ item, def, grader: g }) => g.worked(id, item, def)), // a step exercise's numbers on show
    reveal,
    progress,
    /** A deferred session starts: reads the record (a redraw shows its attempts) and sends progress events. */
    start,
    /** Forgets every attempt of this scope (and its stored record). */
    clear() {
      start();
      records.clear(); last.clear(); grader?.clear();
      emit('progress', progress());
      changed();
    },
    destroy() { destroyed = true; },
  };
}

/** The catalogue (a list, or a function giving a promise of one) with an author's exercises after the lesson's. */
const withAuthored = (catalogue, authored) => (Array.isArray(catalogue) ? [...catalogue, ...authored]
  : () => Promise.resolve().then(catalogue).then((list) => [...list, ...authored])); // read once loaded: an author's arrive with it

/** An exercise before the definitions arrive (its kind is data already), or after they failed to load. */
const notPosed = (id, error, authored) => ({ id, chapter: lessonChapterOf(id, authored), kind: KIND_OF[id] ?? authored.find((e) => e.id === id)?.kind ?? null,
  unavailable: error ? text('exercise.session.exercises_could_not_loaded', { message: error.message }) : text('exercise.session.exercises_are_loading') });
