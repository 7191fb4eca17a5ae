// A playground's exercises: which ones its state shows, their prompts for the live layer, the answers
// (the core's, asked once per exercise and layer through the feature's `solve` request), the learner's
// attempts and the progress kept in storage. The learner's input (features/exercises/panel.js) and a
// host's answer(id, value) (element, page, widget) take this same path, so both count and both fire the
// playground's `attempt` and `progress` events.

import { readAnswer, matches, toleranceText } from './answers.js';
import { selectExercises, readRecord, writeRecord, progressOf, progressByChapter, chapterOf } from './index.js';
import { actionsFor } from '../../playground/asks.js';
import { requests } from '../../features/exercises/requests.js';
import { text } from './session_text.js';

const FEATURE = 'exercises'; // the feature whose handler answers (features/exercises/handler.js)
const SOLVED_KEPT = 64;      // core answers kept (per exercise and layer), so a retry asks nothing

/**
 * options: { askHost (playground/asks.js's host; or `solve(payload)` → Promise of { results }, for tests),
 * state() → the playground's state, check() → its validation ({ config, errors }), ready (a promise:
 * the engine is loaded), scope (the progress record's name; null = not stored), storage (localStorage
 * or a stand-in, or a function giving one when the record is first read), deferred (true: the record is
 * read at start(), or before when a host asks for the progress, answers or clears, and progress events
 * are sent from start() on (an answer or clear() starts it); until then the view counts no attempts),
 * emit(type, detail), changed() (redraw), catalogue: catalogue.js's EXERCISES, or a function
 * giving a promise of them (the playground's: from panels.js, so their text stays out of the first view's
 * bundle; asked once an exercise is shown or answered, and until it arrives an exercise says it is loading) }.
 */
export function createExerciseSession({ askHost, solve, state, check, ready = Promise.resolve(), scope = null, storage, deferred = false, emit = () => {}, changed = () => {}, catalogue }) {
  const ask = solve ?? actionsFor(FEATURE, requests, askHost).solve;
  let BY_ID = Array.isArray(catalogue) ? new Map(catalogue.map((e) => [e.id, e])) : null;
  let loading = null, loadError = null;
  /** The exercises' definitions: a promise (loaded once; a failed load is asked again next time). */
  function definitions() {
    if (BY_ID) return Promise.resolve(BY_ID);
    loading ??= Promise.resolve().then(catalogue).then((list) => {
      BY_ID = new Map(list.map((e) => [e.id, e]));
      loadError = null;
      if (!destroyed) { cache = { state: null, check: null, items: new Map() }; changed(); }
      return BY_ID;
    }, (err) => {
      loading = null;
      loadError = err;
      if (!destroyed) changed();
      throw new Error(`the exercises could not be loaded: ${err.message}`);
    });
    return loading;
  }
  // A page's first touch of localStorage costs a fresh tab tens of milliseconds (the storage is opened
  // for it): a deferred session reads the record once the playground's first result is drawn (start()).
  let store = null, record = null, started = !deferred;
  const storageOf = () => (typeof storage === 'function' ? (store ??= { value: storage() }).value : storage);
  /** The learner's record, read from storage the first time it is needed. */
  const stored = () => (record ??= readRecord(scope, storageOf()));
  /** What the view counts: before start() the attempts known so far (none until the record is read). */
  const known = () => (started ? stored() : record ?? {});
  const last = new Map();    // id → { key, correct, answer, expected, explanation, weights }: the latest reveal
  const solved = new Map();  // calls key → promise of results
  let cache = { state: null, check: null, items: new Map() };
  let emitted = null, destroyed = false;

  /** An exercise set up for the current layer: { id, chapter, kind, prompt, …, key } or { id, chapter, kind, unavailable }. */
  function instance(id) {
    const s = state(), c = check();
    if (cache.state !== s || cache.check !== c) cache = { state: s, check: c, items: new Map() };
    if (cache.items.has(id)) return cache.items.get(id);
    let item;
    if (!BY_ID) {
      // Redraws when they arrive. After a failed load only answer() asks again: a redraw that asked
      // would fail, redraw and ask again, without end.
      if (!loadError) definitions().catch(() => {});
      return { id, chapter: chapterOf(id), kind: null, unavailable: loadError ? text('exercise.session.exercises_could_not_loaded', { message: loadError.message }) : text('exercise.session.exercises_are_loading') };
    }
    item = posedItem(BY_ID.get(id), id, s, c);
    cache.items.set(id, item);
    return item;
  }

  const selection = () => selectExercises(state());
  const chapter = () => state().chapter || 'attention';

  function progressWith(rec) {
    const { ids } = selection();
    return { chapter: chapter(), ...progressOf(ids, rec), chapters: progressByChapter(rec) };
  }
  const progress = () => progressWith(stored());

  /** A `progress` event when the set shown changed (chapter, `exercises`) since the last one (once started). */
  function noteSelection() {
    if (!started) return;
    const key = JSON.stringify([chapter(), selection().ids]);
    if (key === emitted || destroyed) return;
    emitted = key;
    queueMicrotask(() => { if (!destroyed) emit('progress', progress()); });
  }

  function solveCalls(item) {
    if (!solved.has(item.key)) {
      const pending = ask({ calls: item.calls });
      solved.set(item.key, pending);
      pending.catch(() => solved.delete(item.key)); // a failure (lost worker, deadline) is asked again next time
      while (solved.size > SOLVED_KEPT) solved.delete(solved.keys().next().value);
    }
    return solved.get(item.key);
  }

  function start() {
    if (started || destroyed) return;
    started = true;
    const attempts = Object.keys(stored()).length;
    noteSelection();
    if (attempts) changed();
  }

  async function answer(id, value) {
    if (destroyed) throw new Error('this playground was removed');
    start(); // a host's answer before the first result: its progress event comes first, as it would have
    if (!chapterOf(id)) throw new Error(`“${String(id).slice(0, 60)}” is not an exercise; the ids are listed in EMBED.md (e.g. attention.causal-row)`);
    await Promise.all([ready, definitions()]);
    const item = instance(id);
    if (item.unavailable) throw new Error(`${id} cannot be answered now: ${item.unavailable}`);
    const given = readAnswer(item, value); // throws on an answer that cannot be read: no attempt counted
    const { results } = await solveCalls(item);
    const revealed = BY_ID.get(id).reveal(item.params, results);
    const correct = matches(item, given, revealed.accept ?? revealed.expected);
    // What a host is told: a measured number to 6 significant digits (the comparison used the core's own).
    const expected = typeof revealed.expected === 'number' && !Number.isInteger(revealed.expected) ? Number(revealed.expected.toPrecision(6)) : revealed.expected;
    if (destroyed) throw new Error('this playground was removed');
    const before = stored()[id] ?? { attempts: 0, correct: false };
    record = { ...record, [id]: { attempts: before.attempts + 1, correct: before.correct || correct } };
    writeRecord(scope, record, storageOf());
    last.set(id, { key: item.key, correct, answer: given, expected, explanation: revealed.explanation, weights: revealed.weights ?? null });
    emit('attempt', { id, chapter: chapterOf(id), correct, answer: given, expected, attempts: record[id].attempts });
    emit('progress', progress());
    changed();
    return { correct, expected, explanation: revealed.explanation };
  }

  return {
    /** The exercises shown, for hosts: [{ id, chapter, kind, prompt }] (prompt null while the inputs are invalid). */
    list() {
      return selection().ids.map((id) => {
        const item = instance(id);
        return { id, chapter: item.chapter, kind: item.kind, prompt: item.prompt ?? null };
      });
    },
    /** What the panel draws: { items (with choices, grid, tolerance, status and the latest reveal), progress, unknown }. */
    view() {
      noteSelection();
      const { ids, unknown } = selection();
      // The items are made when first read (by the exercises panel, once it is shown): making them asks
      // for the catalogue (panels.js), which a view without that panel (the chapter list reads only the
      // progress) must not download.
      let items = null;
      const rec = known();
      const made = () => items ??= Object.freeze(ids.map((id) => {
        const item = instance(id), seen = last.get(id);
        return Object.freeze({ ...item, status: rec[id] ?? { attempts: 0, correct: false }, reveal: seen && seen.key === item.key ? seen : null });
      }));
      return Object.freeze({ get items() { return made(); }, progress: progressWith(rec), unknown });
    },
    answer,
    progress,
    /** A deferred session starts: reads the record (a redraw shows its attempts) and sends progress events. */
    start,
    /** Forgets every attempt of this scope (and its stored record). */
    clear() {
      start();
      record = {};
      last.clear();
      writeRecord(scope, record, storageOf());
      emit('progress', progress());
      changed();
    },
    destroy() { destroyed = true; },
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
      item = { id, chapter: def.chapter, kind: def.kind, ...made, key: JSON.stringify([id, made.params, made.calls]) };
      if (def.kind === 'number') item.toleranceText = toleranceText(made.tolerance);
    } catch (err) {
      // One exercise that cannot be posed for an unusual layer must not stop the playground's render.
      item = { id, chapter: def.chapter, kind: def.kind, unavailable: text('exercise.session.cannot_posed_this_layer', { message: err.message }) };
    }
  }
  return item;
}
