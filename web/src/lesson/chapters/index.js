// The lesson's chapters in the lesson's order: the one place that lists them. Each is a folder
// (chapters/<chapter>/: chapter.js with its data and words, exercises.js with its exercises and
// exercise_text.js with their words); adding a chapter is a folder and its line in the lists below and
// in words.js. Light: the first view carries every chapter's data and title but only the first
// chapter's words; the others' words come with the lazy panels (words.js), and the exercises too
// (lesson/exercises/catalogue.js finds them by the chapter's name).

import { CHAPTER as attention, TITLE as attentionTitle, TEXT as attentionText } from './attention/chapter.js';
import { CHAPTER as scaling, TITLE as scalingTitle } from './scaling/chapter.js';
import { CHAPTER as heads, TITLE as headsTitle } from './heads/chapter.js';
import { CHAPTER as cost, TITLE as costTitle } from './cost/chapter.js';
import { CHAPTER as gqa, TITLE as gqaTitle } from './gqa/chapter.js';
import { CHAPTER as positions, TITLE as positionsTitle } from './positions/chapter.js';
import { CHAPTER as training, TITLE as trainingTitle } from './training/chapter.js';
import { CHAPTER as efficient, TITLE as efficientTitle } from './efficient/chapter.js';
import { CHAPTER as reference, TITLE as referenceTitle, TEXT as referenceText } from './reference/chapter.js';

/** Each chapter's data (chapter.js's CHAPTER), in the lesson's order. */
export const CHAPTER_DATA = Object.freeze([attention, scaling, heads, cost, gqa, positions, training, efficient, reference]);

/**
 * The words the first view holds (lesson/chapters.js registers them): every chapter's title and short
 * name (chapter.js's TITLE), and the text of the first chapter and of reference (the page every old link and
 * `panels=` view opens: a sentence or two). The other chapters' TEXT: words.js.
 */
export const CHAPTER_TEXT = [attentionTitle, scalingTitle, headsTitle, costTitle, gqaTitle, positionsTitle, trainingTitle,
  efficientTitle, referenceTitle, attentionText, referenceText];
