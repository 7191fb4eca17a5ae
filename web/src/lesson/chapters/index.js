// The lesson's chapters in the lesson's order: the one place that lists them. Each is a folder
// (chapters/<chapter>/: chapter.js with its data and words, exercises.js with its exercises and
// exercise_text.js with their words); adding a chapter is a folder and its line in the two lists
// below. Light: the exercises are loaded with the lazy panels (lesson/exercises/catalogue.js finds them
// by the chapter's name), and a bundle that reads only the data (the compute worker's schema) leaves
// the words out.

import { CHAPTER as attention, TEXT as attentionText } from './attention/chapter.js';
import { CHAPTER as scaling, TEXT as scalingText } from './scaling/chapter.js';
import { CHAPTER as heads, TEXT as headsText } from './heads/chapter.js';
import { CHAPTER as cost, TEXT as costText } from './cost/chapter.js';
import { CHAPTER as gqa, TEXT as gqaText } from './gqa/chapter.js';
import { CHAPTER as positions, TEXT as positionsText } from './positions/chapter.js';
import { CHAPTER as training, TEXT as trainingText } from './training/chapter.js';
import { CHAPTER as efficient, TEXT as efficientText } from './efficient/chapter.js';
import { CHAPTER as reference, TEXT as referenceText } from './reference/chapter.js';

/** Each chapter's data (chapter.js's CHAPTER), in the lesson's order. */
export const CHAPTER_DATA = Object.freeze([attention, scaling, heads, cost, gqa, positions, training, efficient, reference]);

/** Each chapter's words (chapter.js's TEXT), in the same order: lesson/chapters.js registers them. */
export const CHAPTER_TEXT = [attentionText, scalingText, headsText, costText, gqaText, positionsText, trainingText, efficientText, referenceText];
