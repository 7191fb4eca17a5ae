// An author's lesson read and checked (lesson_form.js) into what a playground uses: the words to put over the
// lesson's (by id) and the exercises in the catalogue's form (authored_exercise.js). Loaded with the lazy
// panels (features/lazy.js): a playground without a lesson downloads none of this. The words' ids are
// checked by unknownTextIds once every panel's words are registered (a panel's arrive with its code).

import { CHAPTER_NAMES } from '../lesson/chapter_names.js';
import { ALL_IDS } from '../lesson/exercises/index.js';
import { hasText, lessonText, textIds, PLACEHOLDER } from '../lesson/text.js';
import { checkLesson, LessonError } from './lesson_form.js';
import { authoredExercise } from './authored_exercise.js';

export { LessonError };

/** A lesson given as JSON text or as the parsed object: the object, or throws naming where the JSON breaks. */
export function parseLesson(given) {
  if (given instanceof Error) throw new LessonError([`lesson: ${given.message}`]); // a host could not read the file
  if (typeof given !== 'string') return given;
  try {
    return JSON.parse(given);
  } catch (err) {
    throw new LessonError([`lesson: not JSON (${err.message})`]);
  }
}

/**
 * `given` (JSON text, its object, or an Error from a host that could not read the file) checked:
 * { text (id → words), authored (its exercises in the catalogue's form) }, or throws a LessonError naming every problem.
 * knownText(id): whether the lesson has that sentence (default: not checked here; see unknownTextIds).
 */
export function readLesson(given, knownText = null) {
  const lesson = checkLesson(parseLesson(given), { chapters: CHAPTER_NAMES, exerciseIds: ALL_IDS, knownText });
  return { text: lesson.text ?? {}, authored: (lesson.exercises ?? []).map(authoredExercise) };
}

/**
 * Throws a LessonError naming the ids of `words` the lesson does not have and the {placeholders} of
 * words that no sentence of the lesson fills (a typo: a learner would read "{valu}" as written); call once
 * every panel's words are loaded. Only names no sentence has are refused: the code may give a sentence more
 * values than its English words use (a hint gets its exercise's, a short message its long one's). A sentence
 * in TeX (it has a \command) is not looked at: its braces are TeX's groups as much as placeholders.
 */
export function checkTextIds(words) {
  const problems = [];
  const anywhere = new Set(textIds().flatMap((id) => [...lessonText(id).matchAll(PLACEHOLDER)].map((m) => m[1])));
  for (const [id, given] of Object.entries(words)) {
    if (!hasText(id)) {
      problems.push(`text["${id}"]: unknown lesson text id (npm run lesson-template prints every id)`);
      continue;
    }
    const own = lessonText(id);
    if (/\\[A-Za-z]/.test(own)) continue;
    const fills = new Set([...own.matchAll(PLACEHOLDER)].map((m) => m[1]));
    const unknown = [...new Set([...given.matchAll(PLACEHOLDER)].map((m) => m[1]))].filter((name) => !anywhere.has(name));
    if (unknown.length) {
      problems.push(`text["${id}"]: unknown placeholder${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `{${n}}`).join(', ')} ` +
        `(${fills.size ? `this sentence fills ${[...fills].map((n) => `{${n}}`).join(', ')}` : 'this sentence fills none'})`);
    }
  }
  if (problems.length) throw new LessonError(problems);
}
