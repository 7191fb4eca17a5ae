// The words of a playground's own frame (web/src/playground/shell.js), by id: its region's name and its skip
// link. They are in every first view: the frame's other words (run bar, failures, link notes) are still in
// code (tests/js/lesson_text_leftovers.mjs), as the element's 200 kB budget has no room for their ids yet.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'playground.skip': 'Skip to the results',
  'playground.name': 'Attention playground',
});
