// The lesson's chapters in the lesson's order: the one place that lists them. Each is a folder
// (chapters/<chapter>/: chapter.js with its words and data, exercises.js with its exercises); adding a
// chapter is a folder and one line here. Light: the exercises are loaded with the lazy panels
// (lesson/exercises/catalogue.js finds them by the chapter's name).

import { addText } from '../text.js';
import * as attention from './attention/chapter.js';
import * as scaling from './scaling/chapter.js';
import * as heads from './heads/chapter.js';
import * as cost from './cost/chapter.js';
import * as gqa from './gqa/chapter.js';
import * as positions from './positions/chapter.js';
import * as training from './training/chapter.js';
import * as efficient from './efficient/chapter.js';
import * as reference from './reference/chapter.js';

const ORDER = [attention, scaling, heads, cost, gqa, positions, training, efficient, reference];
for (const chapter of ORDER) addText(chapter.TEXT);

/** Each chapter's data (chapter.js's CHAPTER), in the lesson's order. */
export const CHAPTER_DATA = Object.freeze(ORDER.map((m) => m.CHAPTER));
