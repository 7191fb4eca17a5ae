// A playground's exercises: which ones its state shows, their prompts for the live layer, the answers
// (the core's, asked once per exercise and layer through the feature's `solve` request), the learner's
// attempts and the progress kept in storage. The learner's input (features/exercises/panel.js) and a
// host's answer(id, value) (element, page, widget) take this same path, so both count and both fire the
// playground's `attempt` and `progress` events. The rules: a wrong answer gets the exercise's hint and a
// second try; the engine's answer and its explanation come with a right answer, after the second wrong
// try, or on reveal(id) ("Show answer"); a right answer after the answer was shown is right but scores
// nothing. An `exercises` event says when the prompts of the set shown are ready.

import { readAnswer, matches, toleranceText } from './answers.js';
import { selectExercises, recordStore, progressOf, progressByChapter, chapterOf as lessonChapterOf, KIND_OF, isDone } from './index.js';
import { NO_ENTRY, afterAnswer, afterReveal, hostExpected, answerOutcome, revealOutcome } from './rules.js';
import { catalogueLoader, coreCache } from './core_answers.js';
import { actionsFor } from '../../playground/asks.js';
import { requests } from '../../features/exercises/requests.js';
import { text } from './session_text.js';

const FEATURE = 'exercises'; // the feature whose handler answers (features/exercises/handler.js)

/**
 * options: { askHost (playground/asks.js's host; or `solve(payload)` → Promise of { results }, for tests),
 * state() → the playground's state, check() → its validation ({ config, errors }), ready (a promise:
 * the engine is loaded), scope (the progress record's name; null = not stored), storage (localStorage
 * or a stand-in, or a function giving one when the record is first read), deferred (true: the record is
 * read at start(), or before when a host asks for the progress, answers or clears, and progress events
 * are sent from start() on (an answer or clear() starts it); until then the view counts no attempts),
 * emit(type, detail), changed() (redraw), catalogue: catalogue.js's EXERCISES, or a function
 * giving a promise of them (the playground's: from panels.js, so their text stays out of the first view's
 * bundle; asked once an exercise is shown or answered, and until it arrives an exercise says it is loading),
 * authored (an author's exercises, web/src/author/: shown after their chapter's own, graded the same way),
 * statements() → a promise of lms/event_statements.js's { attemptStatement, completionStatement } (the events then carry
 * xAPI statements; from panels.js in a playground), now() (ms; Date.now: the statements' durations and timestamps) }.
 */
export function createExerciseSession({ askHost, solve, state, check, ready = Promise.resolve(), scope = null, storage, deferred = false, emit = () => {}, changed = () => {}, catalogue, authored = [], statements = null, now = Date.now }) {
  const solveCalls = coreCache(solve ?? actionsFor(FEATURE, requests, askHost).solve);
  const chapterOf = (id) => lessonChapterOf(id, authored);
  // The exercises' definitions (loaded once; a redraw when they arrive or fail).
  const defs = catalogueLoader(withAuthored(catalogue, authored),
    () => { if (!destroyed) { cache = { state: null, check: null, items: new Map() }; changed(); } });
  // A page's first touch of localStorage costs a fresh tab tens of milliseconds (the storage is opened
  // for it): a deferred session reads the record once the playground's first result is drawn (start()).
  const records = recordStore(scope, storage, authored), stored = records.read;
  const xapi = statementMaker(statements, now);
  let started = !deferred;
  /** What the view counts: before start() the attempts known so far (none until the record is read). */
  const known = () => (started ? stored() : records.peek() ?? {});
  const last = new Map();    // id → { key, correct, answer, hint } or { key, correct, answer, expected, explanation, weights }: the latest verdict
  let cache = { state: null, check: null, items: new Map() };
  let emitted = null, destroyed = false;
  const noteList = listEvents(emit, () => !destroyed);

  /** An exercise set up for the current layer: { id, chapter, kind, prompt, …, key } or { id, chapter, kind, unavailable }. */
  function instance(id) {
    const s = state(), c = check();
    if (cache.state !== s || cache.check !== c) cache = { state: s, check: c, items: new Map() };
    if (cache.items.has(id)) return cache.items.get(id);
    // Until the definitions arrive (a redraw then). After a failed load only answer() asks again: a
    // redraw that asked would fail, redraw and ask again, without end.
    if (!defs.byId && !defs.error) defs.load().catch(() => {});
    if (!defs.byId) return notPosed(id, defs.error, authored);
    const item = posedItem(defs.byId.get(id), id, s, c);
    cache.items.set(id, item);
    return item;
  }

  const selection = () => selectExercises(state(), authored);
  const chapter = () => state().chapter || 'attention';

  const progressWith = (rec) => ({ chapter: chapter(), ...progressOf(selection().ids, rec), chapters: progressByChapter(rec, authored) });
  /** The progress after an answer or a reveal, with the xAPI "completed" statement when this one finished the set shown. */
  const progressAfter = (before) => xapi.completed(progress(), before);
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

  /** The exercise `id` posed and solved by the core: { item, def, results } (throws when it cannot be). */
  async function solvedItem(id) {
    if (destroyed) throw new Error('this playground was removed');
    start(); // a host's answer before the first result: its progress event comes first, as it would have
    if (!chapterOf(id)) throw new Error(`“${String(id).slice(0, 60)}” is not an exercise; the ids are listed in EMBED.md (e.g. attention.causal-row)`);
    await Promise.all([ready, defs.load(), xapi.load()]);
    const item = instance(id);
    if (item.unavailable) throw new Error(`${id} cannot be answered now: ${item.unavailable}`);
    return { item, def: defs.byId.get(id) };
  }

  /** The core's answer and explanation of a posed item ({ expected, accept?, explanation, weights?, shown: expected as a host is told it }). */
  async function coreAnswer(item, def) {
    const { results } = await solveCalls(item);
    if (destroyed) throw new Error('this playground was removed');
    const r = def.reveal(item.params, results);
    return { ...r, shown: hostExpected(r.expected) };
  }

  async function answer(id, value) {
    const { item, def } = await solvedItem(id);
    const given = readAnswer(item, value); // throws on an answer that cannot be read: no attempt counted
    const core = await coreAnswer(item, def);
    const correct = matches(item, given, core.accept ?? core.expected); // the core's own number
    const before = doneCount();
    const entry = afterAnswer(stored()[id], correct);
    records.set(id, entry);
    const out = answerOutcome({ id, chapter: chapterOf(id), key: item.key, given, correct, entry, core: { ...core, expected: core.shown }, hint: () => def.hint(item.params ?? {}) });
    last.set(id, out.verdict);
    emit('attempt', xapi.attempt(out.detail, item));
    emit('progress', progressAfter(before));
    changed();
    return out.result;
  }

  /** Shows `id`'s answer ("Show answer"): it counts as revealed unless it was answered right before. */
  async function reveal(id) {
    const { item, def } = await solvedItem(id);
    const core = await coreAnswer(item, def);
    const before = doneCount();
    const entry = afterReveal(stored()[id]);
    records.set(id, entry);
    const out = revealOutcome({ key: item.key, core: { ...core, expected: core.shown }, entry });
    last.set(id, out.verdict);
    emit('progress', progressAfter(before));
    changed();
    return out.result;
  }

  /** The exercises shown, for hosts: [{ id, chapter, kind, prompt }]. */
  const list = () => selection().ids.map((id) => {
    const item = instance(id);
    xapi.seen(id);
    return { id, chapter: item.chapter, kind: item.kind, prompt: item.prompt ?? null };
  });

  return {
    /** The exercises shown, for hosts: [{ id, chapter, kind, prompt }] (kind from the first call; prompt null until posed). */
    list,
    /** What the panel draws: { items (with choices, grid, tolerance, status and the latest verdict), progress, unknown }. */
    view() {
      noteSelection();
      // Only once the catalogue is loaded: a view without the exercises downloads nothing for them.
      if (defs.byId && !destroyed) noteList(chapter(), list());
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
      return Object.freeze({ get items() { return made(); }, progress: progressWith(rec), unknown });
    },
    answer,
    reveal,
    progress,
    /** A deferred session starts: reads the record (a redraw shows its attempts) and sends progress events. */
    start,
    /** Forgets every attempt of this scope (and its stored record). */
    clear() {
      start();
      records.clear();
      last.clear();
      emit('progress', progress());
      changed();
    },
    destroy() { destroyed = true; },
  };
}

/** The catalogue (a list, or a function giving a promise of one) with an author's exercises after the lesson's. */
const withAuthored = (catalogue, authored) => (Array.isArray(catalogue) ? [...catalogue, ...authored]
  : () => Promise.resolve().then(catalogue).then((list) => [...list, ...authored])); // read once loaded: an author's arrive with it

/**
 * The xAPI statements of the events (statements: the session's option; none: the events carry none):
 * { load(), seen(id) (first listed: its duration counts from here), attempt(detail, item) → the detail with its
 * "answered" statement, completed(progress, done before) → the progress, with the "completed" statement when it finished now }.
 */
function statementMaker(statements, now) {
  const since = new Map(); // id → when it was first shown or last answered (ms)
  let code = null; // statements.js, once loaded (a failed load leaves the events without statements)
  return {
    load: () => (code || !statements ? Promise.resolve() : Promise.resolve().then(statements).then((c) => { code = c; }, () => {})),
    seen: (id) => { if (!since.has(id)) since.set(id, now()); },
    attempt(detail, item) {
      if (!code) return detail;
      const at = now();
      const statement = code.attemptStatement(detail, { kind: item.kind, prompt: item.prompt, durationMs: at - (since.get(detail.id) ?? at), timestamp: at });
      since.set(detail.id, at);
      return { ...detail, statement };
    },
    completed(progress, before) {
      const finished = code && before < progress.total && progress.done === progress.total;
      return finished ? { ...progress, statement: code.completionStatement(progress, { timestamp: now() }) } : progress;
    },
  };
}

/** An exercise before the definitions arrive (its kind is data already), or after they failed to load. */
const notPosed = (id, error, authored) => ({ id, chapter: lessonChapterOf(id, authored), kind: KIND_OF[id] ?? authored.find((e) => e.id === id)?.kind ?? null,
  unavailable: error ? text('exercise.session.exercises_could_not_loaded', { message: error.message }) : text('exercise.session.exercises_are_loading') });

/**
 * The `exercises` event ({ chapter, exercises }) once the prompts of the set shown are ready (none null),
 * and again when they change (chapter, `exercises`, a layer that changes a prompt): note(chapter, list).
 */
function listEvents(emit, alive) {
  let listed = null;
  return (chapter, now) => {
    if (now.some((e) => e.prompt === null)) return; // the engine is loading, or the inputs need fixing
    const key = JSON.stringify(now);
    if (key === listed) return;
    listed = key;
    queueMicrotask(() => { if (alive()) emit('exercises', { chapter, exercises: now }); });
  };
}

/**
 * Exercise `def` set up for the layer of state `s` and check `c`: { id, chapter, kind, prompt, …, key }, or
 * { id, chapter, kind, unavailable } when the inputs need fixing or it cannot be posed for this layer.
 */
function posedItem(def, id, s, c) {
  let item;
  if (!c?.config) {
    const [field, message] = Object.entries(c?.errors ?? {})[0] ?? [];
    item = { id, chapter: def.chapter, kind: def.kind, unavailable: field ? text('exercise.session.inputs_need_fixing_first', { field, message }) : text('exercise.session.engine_still_loading') };
  } else {
    try {
      const made = def.setup({ state: s, config: c.config });
      item = { id, chapter: def.chapter, kind: def.kind, ...(def.step ? { step: def.step } : {}), ...made, key: JSON.stringify([id, made.params, made.calls]) };
      if (def.kind === 'number') item.toleranceText = toleranceText(made.tolerance);
    } catch (err) {
      // One exercise that cannot be posed for an unusual layer must not stop the playground's render.
      item = { id, chapter: def.chapter, kind: def.kind, unavailable: text('exercise.session.cannot_posed_this_layer', { message: err.message }) };
    }
  }
  return item;
}
