// The exercises' ids and the learner's progress (light: no prompts, no engine), for the chapter list
// and the playground's first view. Progress is a record per scope (a page and an element id, chosen by
// the host: see playground.js's `progress` option) kept in localStorage, so it survives a reload:
// { [exercise id]: { attempts, correct } } (correct: answered right at least once).

import { CHAPTER_DATA } from '../chapters/index.js';

/**
 * Every exercise id by chapter, in the lesson's order, from the chapters' data (chapters/<chapter>/chapter.js
 * lists its exercises' ids; exercises.js beside it holds them, and a test keeps the two equal). A chapter
 * with none (reference) has no entry.
 */
export const EXERCISE_IDS = Object.freeze(Object.fromEntries(CHAPTER_DATA.filter((c) => c.exercises.length).map((c) => [c.name, Object.freeze([...c.exercises])])));
export const ALL_IDS = Object.freeze(Object.values(EXERCISE_IDS).flat());

/** The chapter of an exercise id, or null. */
export const chapterOf = (id) => Object.keys(EXERCISE_IDS).find((c) => EXERCISE_IDS[c].includes(id)) ?? null;

/**
 * The ids of a chapter. The reference chapter (every panel at once, a look-up page) shows none, as
 * lesson/chapters.js leaves the exercises panel out of it; an `exercises` list still picks some there.
 */
export const idsOfChapter = (chapter) => EXERCISE_IDS[chapter] ?? [];

/**
 * The exercises a state shows: { ids, unknown }. `exercises`: '' = every exercise of the chapter,
 * 'none' = none, else a comma list of ids (any chapter's, in the order given; unknown ones are listed
 * in `unknown` and left out).
 */
export function selectExercises(state) {
  const wanted = String(state.exercises ?? '').trim();
  if (wanted === 'none') return { ids: [], unknown: [] };
  if (!wanted) return { ids: idsOfChapter(state.chapter || 'attention').slice(), unknown: [] };
  const named = [...new Set(wanted.split(',').map((s) => s.trim()).filter(Boolean))];
  return { ids: named.filter((id) => ALL_IDS.includes(id)), unknown: named.filter((id) => !ALL_IDS.includes(id)) };
}

const PREFIX = 'attention-playground:exercises:';
/** The localStorage key of a scope. */
export const storageKey = (scope) => `${PREFIX}${scope}`;

/** The stored record of a scope ({} when none, when it cannot be read, or without a scope). */
export function readRecord(scope, storage = globalThis.localStorage) {
  if (scope == null || !storage) return {};
  try {
    const parsed = JSON.parse(storage.getItem(storageKey(scope)) ?? '{}');
    const out = {};
    for (const id of ALL_IDS) {
      const r = parsed?.[id];
      if (r && Number.isInteger(r.attempts) && r.attempts > 0) out[id] = { attempts: r.attempts, correct: r.correct === true };
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
    // the progress still holds for this visit
  }
}

/** { done, total, score } of `ids`: done = attempted (the answer was revealed), score = share answered right. */
export function progressOf(ids, record) {
  const done = ids.filter((id) => record[id]?.attempts > 0).length;
  const right = ids.filter((id) => record[id]?.correct).length;
  return { done, total: ids.length, score: ids.length ? Math.round((right / ids.length) * 1e4) / 1e4 : 0 };
}

/** Per chapter { done, total } of a record (every chapter, the reference one included). */
export function progressByChapter(record) {
  return Object.fromEntries([...Object.keys(EXERCISE_IDS), 'reference'].map((c) => {
    const { done, total } = progressOf(idsOfChapter(c), record);
    return [c, { done, total }];
  }));
}

/** Per chapter { done, total } of a stored scope: the chapter list's figures (chapters.js). */
export function chapterProgress(scope, storage = globalThis.localStorage) {
  return progressByChapter(readRecord(scope, storage));
}
