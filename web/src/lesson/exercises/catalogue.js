// Every chapter's exercises, in the lesson's order: the catalogue a playground's exercise session reads
// (loaded with the lazy panels, dist/panels.js: their text stays out of the first bundle). Built from the
// chapters' folders (chapters/<chapter>/exercises.js, found by the chapter's name), so adding an
// exercise never touches this file. The form of an exercise: helpers.js.

import { CHAPTER_NAMES } from '../chapter_names.js';
import { text } from '../text.js';

// Found by name: esbuild bundles every file the template can name into the lazy bundle; under Node the
// same import loads the file.
const lists = await Promise.all(CHAPTER_NAMES.map((name) => import(`../chapters/${name}/exercises.js`).then((m) => m.EXERCISES)));

/**
 * Each exercise with its hint(params): the words after a first wrong answer, `exercise.hint.<id>` of its
 * chapter's exercise_text.js (its {name}s filled from the exercise's params). Looked up here, in the
 * bundle that holds those words (the session lives in the first view's bundle, which does not).
 */
export const EXERCISES = Object.freeze(lists.flat().map((e) => Object.freeze({ hint: (params) => text(`exercise.hint.${e.id}`, params), ...e })));
