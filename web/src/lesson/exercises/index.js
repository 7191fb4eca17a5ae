// The exercises' ids and the learner's progress (light: no prompts, no engine), for the chapter list
// and the playground's first view. Progress is a record per scope (a page and an element id, chosen by
// the host: see playground.js's `progress` option) kept in localStorage, so it survives a reload:
// { [exercise id]: { attempts, correct, first, revealed } }: attempts counted, answered right before the
// answer was shown (the score), right at the first attempt, the answer shown (after a second wrong try
// or "Show answer") before it was answered right. An exercise is done once right or revealed.

import { CHAPTER_DATA } from '../chapters/index.js';

/**
 * Every exercise id by chapter, in the lesson's order, from the chapters' data (chapters/<chapter>/chapter.js
 * maps its exercises' ids to their kinds; exercises.js beside it holds them, and a test keeps the two
 * equal). A chapter with none (reference) has no entry.
 */
export const EXERCISE_IDS = Object.freeze(Object.fromEntries(CHAPTER_DATA.filter((c) => Object.keys(c.exercises).length).map((c) => [c.name, Object.freeze(Object.keys(c.exercises))])));
export const ALL_IDS = Object.freeze(Object.values(EXERCISE_IDS).flat());

/** The kind of every exercise id (data: known before the exercises' prompts and texts are loaded). */
export const KIND_OF = Object.freeze(Object.assign({}, ...CHAPTER_DATA.map((c) => c.exercises)));

/** The chapter of an exercise id, or null (`authored`: an author's exercises, [{ id, chapter, kind }], web/src/author/). */
export const chapterOf = (id, authored = []) => Object.keys(EXERCISE_IDS).find((c) => EXERCISE_IDS[c].includes(id)) ?? authored.find((e) => e.id === id)?.chapter ?? null;

/** Every exercise id: the lesson's, then an author's. */
const allIds = (authored = []) => (authored.length ? [...ALL_IDS, ...authored.map((e) => e.id)] : ALL_IDS);

/**
 * The ids of a chapter. The reference chapter (every panel at once, a look-up page) shows none, as
 * lesson/chapters.js leaves the exercises panel out of it; an `exercises` list still picks some there.
 */
export const idsOfChapter = (chapter, authored = []) => [...(Object.hasOwn(EXERCISE_IDS, chapter) ? EXERCISE_IDS[chapter] : []), ...authored.filter((e) => e.chapter === chapter).map((e) => e.id)];

/**
 * The chapter whose exercises a state shows: the one it names, or the first when it names none or one
 * that is not a chapter (an attribute's "bogus" or "constructor" is a note, and the view shows the first).
 */
export const exerciseChapter = (state) => (CHAPTER_DATA.some((c) => c.name === state?.chapter) ? state.chapter : CHAPTER_DATA[0].name);

/**
 * The exercises a state shows: { ids, unknown }. `exercises`: '' = every exercise of the chapter unless
 * the author's `panels` leave the exercises panel out (`panelShown` false: then none, so a page of maps
 * alone reports no exercises its learner cannot see), 'none' = none, else a comma
 * list of ids (any chapter's, in the order given, with or without the panel: a host may answer them through
 * the API; unknown ones are listed in `unknown` and left out). An author's exercises (`authored`) follow
 * their chapter's.
 */
export function selectExercises(state, authored = [], panelShown = true) {
  const wanted = String(state.exercises ?? '').trim();
  if (wanted === 'none' || !(wanted || panelShown)) return { ids: [], unknown: [] };
  if (!wanted) return { ids: idsOfChapter(exerciseChapter(state), authored), unknown: [] };
  const named = [...new Set(wanted.split(',').map((s) => s.trim()).filter(Boolean))];
  const known = allIds(authored);
  return { ids: named.filter((id) => known.includes(id)), unknown: named.filter((id) => !known.includes(id)) };
}

const PREFIX = 'attention-playground:exercises:';
/** The localStorage key of a scope. */
export const storageKey = (scope) => `${PREFIX}${scope}`;

/** The most tries an exercise gives before its answer is shown: a wrong one gets a hint, the next the answer. */
export const TRIES = 2;

/**
 * One exercise's entry as stored, in today's form ({ attempts, correct, first, revealed }), or null when it
 * says nothing. An entry from an older version ({ attempts, correct }: every wrong answer showed the
 * answer, and whether the first try was right was not kept) counts as not right at the first try, and
 * as revealed when it was never answered right; an entry that has used up its tries without a right
 * answer (an LMS's record) is revealed.
 */
export function entryOf(r) {
  if (!r || typeof r !== 'object') return null;
  const attempts = Number.isInteger(r.attempts) && r.attempts > 0 ? r.attempts : 0;
  const correct = attempts > 0 && r.correct === true;
  const older = typeof r.first !== 'boolean';
  const revealed = !correct && (older ? attempts > 0 : r.revealed === true || attempts >= TRIES);
  if (!attempts && !revealed) return null;
  return { attempts, correct, first: correct && !older && r.first === true, revealed };
}

/** The stored record of a scope ({} when none, when it cannot be read, or without a scope). */
export function readRecord(scope, storage = globalThis.localStorage, authored = []) {
  if (scope == null || !storage) return {};
  try {
    const parsed = JSON.parse(storage.getItem(storageKey(scope)) ?? '{}');
    const out = {};
    for (const id of allIds(authored)) {
      const entry = entryOf(parsed?.[id]);
      if (entry) out[id] = entry;
    }
    return out;
  } catch {
    return {}; // storage refused (private mode, a sandboxed frame) or a record from elsewhere: start afresh
  }
}

/** Stores a record (nothing without a scope; a full or refused storage only loses the persistence). */
export function writeRecord(scope, record, storage = globalThis.localStorage) {
  if (scope == null || !storage) return;
  try {
    if (Object.keys(record).length) storage.setItem(storageKey(scope), JSON.stringify(record));
    else storage.removeItem(storageKey(scope));
  } catch {
    // the progress still holds for this visit; what the scope held before is not left to be read as this record
    try { storage.removeItem(storageKey(scope)); } catch { /* a storage that refuses everything */ }
  }
}

/**
 * The learner's record of a scope, read from storage the first time it is needed: { read() (reads it),
 * peek() (the record if read, else null), set(id, entry), clear() }, each change written back. storage:
 * localStorage or a stand-in, or a function giving one when first needed.
 */
export function recordStore(scope, storage, authored = []) {
  let store = null, record = null, known = 0;
  const storageOf = () => (typeof storage === 'function' ? (store ??= { value: storage() }).value : storage);
  // Read again once an author's exercises have arrived (`authored` fills when their lesson is read): a
  // record read before would lack their entries, and the next write would drop them from storage.
  const read = () => (record && known === authored.length ? record
    : (known = authored.length, record = { ...readRecord(scope, storageOf(), authored), ...record }));
  const write = (next) => { record = next; writeRecord(scope, record, storageOf()); };
  return { read, peek: () => record, set: (id, entry) => write({ ...read(), [id]: entry }), clear: () => write({}) };
}

/** True once an exercise's entry is done: answered right, or its answer shown. */
export const isDone = (entry) => !!(entry?.correct || entry?.revealed);

const share = (n, total) => (total ? Math.round((n / total) * 1e4) / 1e4 : 0);

/**
 * { done, total, score, first_try } of `ids`: done = right or revealed; score = the share answered right
 * before the answer was shown; first_try = the share right at the first attempt.
 */
export function progressOf(ids, record) {
  const done = ids.filter((id) => isDone(record[id])).length;
  const right = ids.filter((id) => record[id]?.correct).length;
  const first = ids.filter((id) => record[id]?.first).length;
  return { done, total: ids.length, score: share(right, ids.length), first_try: share(first, ids.length) };
}

/** Per chapter { done, total } of a record (every chapter, the reference one included). */
export function progressByChapter(record, authored = []) {
  return Object.fromEntries([...new Set([...Object.keys(EXERCISE_IDS), ...authored.map((e) => e.chapter)]), 'reference'].map((c) => {
    const { done, total } = progressOf(idsOfChapter(c, authored), record);
    return [c, { done, total }];
  }));
}

/** Per chapter { done, total } of a stored scope: the chapter list's figures (chapters.js). */
export function chapterProgress(scope, storage = globalThis.localStorage) {
  return progressByChapter(readRecord(scope, storage));
}
