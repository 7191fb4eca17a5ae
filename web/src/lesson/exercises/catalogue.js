// Every chapter's exercises, in the lesson's order: the catalogue a playground's exercise session reads
// (loaded with the lazy panels, dist/panels.js: their text stays out of the first bundle). Built from the
// chapters' folders (chapters/<chapter>/exercises.js, found by the chapter's name), so adding an
// exercise never touches this file. The form of an exercise: helpers.js.

import { CHAPTER_NAMES } from '../chapter_names.js';

// Found by name: esbuild bundles every file the template can name into the lazy bundle; under Node the
// same import loads the file.
const lists = await Promise.all(CHAPTER_NAMES.map((name) => import(`../chapters/${name}/exercises.js`).then((m) => m.EXERCISES)));

export const EXERCISES = Object.freeze(lists.flat());
