// The step of a chapter a state shows: the `step` key (1-based, beside `chapter`), read in one place for
// the chapter's steps (lesson/chapters.js) and for the note a step that does not exist gets (validate.js).
// A bad step is a note naming the chapter's step count, never a blocked run: it only changes what is shown.

import { parseInteger } from './parse.js';
import { cutText } from './schema.js';
import { CHAPTER_NAMES, FIRST_CHAPTER, STEP_COUNTS } from '../lesson/chapter_names.js';

/**
 * { chapter, number (1-based, the step shown), count (the chapter's steps), note (a sentence, or null) }.
 * An empty step is the first; a number past the chapter's last shows the last; anything else the first.
 */
export function readStep(state) {
  const chapter = CHAPTER_NAMES.includes(state?.chapter) ? state.chapter : FIRST_CHAPTER;
  const count = STEP_COUNTS[chapter];
  const typed = String(state?.step ?? '').trim();
  if (typed === '') return { chapter, number: 1, count, note: null };
  const steps = count === 1 ? 'has 1 step' : `has ${count} steps, 1 to ${count}`;
  const read = parseInteger(typed, { min: 1, name: 'step' });
  if (read.error) return { chapter, number: 1, count, note: `step=${cutText(typed, 20)} is not a step (${read.error}; the chapter “${chapter}” ${steps}): showing step 1.` };
  if (read.value > count) return { chapter, number: count, count, note: `step=${read.value} is not a step of the chapter “${chapter}”, which ${steps}: showing step ${count}.` };
  return { chapter, number: read.value, count, note: null };
}
