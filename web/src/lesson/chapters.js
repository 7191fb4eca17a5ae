// The lesson as chapters, in the lesson's order (each a folder, chapters/<chapter>/): per chapter its
// name (the `chapter` key), its title, a short text of its own (as steps), the form fields that matter to it and the panels it shows (feature names of
// features/index.js; a name not in that table yet is skipped, so a chapter can list a feature before it
// lands) with the role of each: the panels in `open` are the chapter's core, shown expanded; its other
// panels are shown collapsed (a heading that opens them, playground/folds.js), so a chapter fits in about
// two screens at first sight. Pure data and functions, no DOM: the playground, the form and the chapter list read it.
// `reference` is the old long page: every panel and the full form.

import { CHAPTER_NAMES, FIRST_CHAPTER } from './chapter_names.js';
import { CHAPTER_DATA, CHAPTER_TEXT } from './chapters/index.js';
import { addText, text, hasText } from './text.js';
import './chapters/words.js'; // the other chapters' words: here under Node and in panels.js, empty in the first view's bundles
// How the author's keys compose with the chapter (panels, heads, lock, nav): compose.js.
import { LESSON_START, keyList, panelsAlone, choosesPanels, startState as composedStart } from './compose.js';
import { readStep } from '../model/step.js';

for (const words of CHAPTER_TEXT) addText(words);

/**
 * True when every word the view of `state` shows is registered: the titles of its chapter's steps (the step
 * list names them all) and the sentences of the step shown (the first view holds the first step's of the
 * first chapter; the rest come with panels.js, chapters/words.js).
 */
export function chapterWordsHere(state) {
  const steps = BY_NAME_DATA.get(chapterOf(state).name)?.steps ?? [];
  if (!steps.every((step) => !step.title || hasText(step.title))) return false;
  return !steps.length || stepOf(state).step.text.every(hasText);
}
const BY_NAME_DATA = new Map(CHAPTER_DATA.map((c) => [c.name, c]));

export { CHAPTER_NAMES, FIRST_CHAPTER };

/** The feature every chapter but `reference` carries when it exists: the predict-then-reveal exercises. */
export const EXERCISES_FEATURE = 'exercises';

/** The preset menu is not a schema field: a chapter lists it under this name among its fields. */
export const PRESET_FIELD = 'preset';

export { LESSON_START, keyList };

// A chapter's words are looked up when shown (lesson/text.js: an author's or a translator's table may
// replace them): title and short name as plain text (buttons, headings, the pager), so √dₖ is written
// with the subscript letter ₖ; `text`, its sentences, through dom.math(), which sets d_k, d_model and
// W_iᴽ as the lesson does.
const withWords = (data) => Object.freeze({
  ...data,
  fields: data.fields && Object.freeze([...data.fields]),
  panels: data.panels && Object.freeze([...data.panels]),
  open: data.open && Object.freeze([...data.open]),
  steps: Object.freeze(data.steps.map((step) => Object.freeze({
    ...step,
    text: Object.freeze([...step.text]),
    panels: Object.freeze([...(step.panels ?? [])]),
    fields: step.fields && Object.freeze([...step.fields]),
    exercises: step.exercises && Object.freeze([...step.exercises]),
  }))),
  get title() { return text(`chapter.${data.name}.title`); },
  get short() { return text(`chapter.${data.name}.short`); },
  /** Every sentence of the chapter, its steps' in order. */
  get text() { return data.steps.flatMap((step) => step.text.map((id) => text(id))); },
});

/** The chapters, in the lesson's order (their folders: chapters/index.js). */
export const CHAPTERS = Object.freeze(CHAPTER_DATA.map(withWords));

const BY_NAME = new Map(CHAPTERS.map((c) => [c.name, c]));

/** The chapter a state shows (an unknown name shows the first chapter). */
export function chapterOf(state) {
  return BY_NAME.get(String(state?.chapter ?? '')) ?? BY_NAME.get(FIRST_CHAPTER);
}

/** The chapters before and after `name` (null at either end). */
export function neighbours(name) {
  const i = CHAPTER_NAMES.indexOf(name);
  return { previous: i > 0 ? BY_NAME.get(CHAPTER_NAMES[i - 1]) : null, next: i >= 0 && i < CHAPTER_NAMES.length - 1 ? BY_NAME.get(CHAPTER_NAMES[i + 1]) : null };
}

/** True when the author chose panels with no chapter named (`panels=` alone): they replace the chapter. */
export const authorPanels = panelsAlone;

/**
 * The step of the state's chapter shown: { step (its data), number (1-based), count, note } (a step
 * past the last shows the last, a bad one the first: model/step.js, which also words the note).
 */
export function stepOf(state) {
  const chapter = chapterOf(state);
  const { number, count, note } = readStep({ ...state, chapter: chapter.name });
  return { step: chapter.steps[number - 1], number, count, note };
}

/** True when the chapter is told in steps (every chapter but reference, whose one step is every panel). */
export const hasSteps = (chapter) => !!chapter.panels;

/**
 * The exercises of the state's chapter placed at the step shown (ids, in the step's order), or null when
 * the step does not choose: the author chose exercises (`exercises=`), or no step of the chapter places
 * any (each of its steps then shows all of them). The chapter's progress still counts all of them.
 */
export function stepExercises(state) {
  const chapter = chapterOf(state);
  if (String(state?.exercises ?? '').trim() || !chapter.steps.some((s) => s.exercises)) return null;
  return [...(stepOf(state).step.exercises ?? [])];
}

/** The chapter's own panels no step shows: offered collapsed under every step ("more in this chapter"). */
const extraPanels = (chapter) => chapter.panels.filter((name) => name !== 'controls' && name !== EXERCISES_FEATURE
  && !chapter.steps.some((s) => s.panels?.includes(name)));

/**
 * The panels of the state's step, among `featureNames` (the features' table), in the table's order; null
 * for reference (every panel). A step shows its own panels expanded, the form when its chapter has one and
 * the step names fields (or names none, taking the chapter's), the exercises placed at it, and the
 * chapter's panels that no step shows, collapsed. Panels of the chapter's other steps wait for their step.
 */
export function chapterPanels(state, featureNames) {
  const chapter = chapterOf(state);
  if (!chapter.panels) return null;
  const { step } = stepOf(state);
  const placed = stepExercises(state);
  const names = [
    ...(chapter.panels.includes('controls') && (step.fields?.length ?? 1) ? ['controls'] : []),
    ...step.panels, ...extraPanels(chapter),
    ...(placed && !placed.length ? [] : [EXERCISES_FEATURE]),
  ];
  return names.filter((name, i) => featureNames.includes(name) && names.indexOf(name) === i);
}

/**
 * The panels of the state's chapter shown collapsed (a Set of feature names): the chapter's panels that
 * none of its steps shows (the form and the exercises are never collapsed). None in reference, nor
 * when the author chose panels (`panels=`: every panel they chose is expanded).
 */
export function foldedPanels(state, featureNames) {
  const chapter = chapterOf(state);
  if (!chapter.panels || choosesPanels(state, featureNames)) return new Set();
  return new Set(extraPanels(chapter));
}

/**
 * The form fields a state shows: the step's (else its chapter's; every field in reference, or when the
 * author chose panels alone) and the locked keys (shown read-only with their value), less the author's
 * `hide` list. Returns a predicate on a field key (PRESET_FIELD included).
 */
export function formShows(state, featureNames) {
  const chapter = chapterOf(state);
  const hidden = new Set(keyList(state?.hide));
  const all = !chapter.fields || authorPanels(state, featureNames);
  const fields = all ? null : new Set([...(stepOf(state).step.fields ?? chapter.fields), ...keyList(state?.lock)]);
  return (key) => !hidden.has(key) && (!fields || fields.has(key));
}

/** The keys whose change can change which panels are shown (the step's exercises included). */
export const PANEL_KEYS = Object.freeze(['panels', 'controls', 'chapter', 'step', 'exercises', 'hide']);

/** The keys the author locked (`lock`): the form shows them disabled and no learner edit changes them. */
export function lockedKeys(state) {
  return new Set(keyList(state?.lock));
}

/** The state a fresh playground starts from (`given`: the keys the link or the attributes set): compose.js. */
export const startState = (state, given) => composedStart(state, given, (s) => !!chapterOf(s).panels);
