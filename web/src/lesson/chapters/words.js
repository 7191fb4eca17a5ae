// The words of every chapter but the first and reference (each chapter.js's TEXT), the first chapter's
// later steps' sentences (attention/later_text.js) and the panels' one-line abouts (panels/feature_about.js),
// registered when this module loads.
// Under Node and in the lazy panels' bundle (dist/panels.js) it is the real module; the first view's
// bundles get an empty one (scripts/make_dist.mjs), so they carry only the first chapter's words and a
// playground asks for these (lesson/chapters.js loadChapterWords) before it shows another chapter.

import { addText } from '../text.js';
import { TEXT as scaling } from './scaling/chapter.js';
import { TEXT as heads } from './heads/chapter.js';
import { TEXT as cost } from './cost/chapter.js';
import { TEXT as gqa } from './gqa/chapter.js';
import { TEXT as positions } from './positions/chapter.js';
import { TEXT as training } from './training/chapter.js';
import { TEXT as efficient } from './efficient/chapter.js';
import { LATER_TEXT as attentionLater } from './attention/later_text.js';
import '../panels/feature_about.js'; // what each panel shows, under a folded panel's title

for (const words of [attentionLater, scaling, heads, cost, gqa, positions, training, efficient]) addText(words);

/** True in the module with the words (the first view's empty stand-in says false). */
export const WORDS_HERE = true;
