// The lesson's chapters by name, in the lesson's order: the values of the `chapter` key (hash, element
// attribute, widget key), read from the chapters' folders (chapters/index.js lists them). Kept apart
// from chapters.js (which reads the features' table) so that the schema can list them without
// importing any panel.
import { CHAPTER_DATA } from './chapters/index.js';

export const CHAPTER_NAMES = Object.freeze(CHAPTER_DATA.map((c) => c.name));

/** The chapter a playground opens on when none is given. */
export const FIRST_CHAPTER = CHAPTER_NAMES[0];

/** How many steps each chapter has (chapter name → count; a chapter is a list of steps, lesson/chapters.js). */
export const STEP_COUNTS = Object.freeze(Object.fromEntries(CHAPTER_DATA.map((c) => [c.name, c.steps.length])));
