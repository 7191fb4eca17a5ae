// An author's lesson in a playground (playground.js's `lesson` option): checked (schema.js), its words
// put over the lesson's (lesson/text.js: looked up when shown, so every panel built after shows them),
// its exercises made catalogue exercises (exercises.js). The words' ids are checked once every panel's
// words are loaded (checkText): a panel's words arrive with its lazy code. A refused lesson changes nothing.

import { CHAPTER_NAMES } from '../lesson/chapter_names.js';
import { ALL_IDS } from '../lesson/exercises/index.js';
import { useText, hasText } from '../lesson/text.js';
import { checkLesson, LessonError } from './schema.js';
import { authoredExercise } from './exercises.js';

/** A lesson given as JSON text or as the parsed object: the object, or throws naming where the JSON breaks. */
export function parseLesson(given) {
  if (typeof given !== 'string') return given;
  try {
    return JSON.parse(given);
  } catch (err) {
    throw new LessonError([`lesson: not JSON (${err.message})`]);
  }
}

/** The lesson checked against this lesson's chapters and exercises (text ids: knownText(id), or null for later). */
export const checked = (lesson, knownText = null) => checkLesson(lesson, { chapters: CHAPTER_NAMES, exerciseIds: ALL_IDS, knownText });

/**
 * Opens `given` (JSON text, an object, an Error from a host that could not read the file, or null/'' for
 * none): { exercises (the catalogue's form),
 * error (a LessonError, or null), checkText() (after every panel's words are loaded: throws a LessonError
 * naming unknown text ids, and takes the words back), release() (takes the words back) }.
 */
export function openLesson(given) {
  const none = { exercises: [], error: null, checkText() {}, release() {} };
  if (given == null || given === '') return none;
  if (given instanceof Error) return { ...none, error: new LessonError([`lesson: ${given.message}`]) }; // a host could not read the file
  let lesson;
  try {
    lesson = checked(parseLesson(given));
  } catch (err) {
    return { ...none, error: err instanceof LessonError ? err : new LessonError([`lesson: ${err.message}`]) };
  }
  const words = lesson.text ?? {};
  let release = Object.keys(words).length ? useText(words, 'en', { check: false }) : () => {};
  return {
    exercises: (lesson.exercises ?? []).map(authoredExercise),
    error: null,
    checkText() {
      const unknown = Object.keys(words).filter((id) => !hasText(id));
      if (!unknown.length) return;
      release();
      release = () => {};
      throw new LessonError(unknown.map((id) => `text["${id}"]: unknown lesson text id (npm run lesson-template prints every id)`));
    },
    release: () => release(),
  };
}
