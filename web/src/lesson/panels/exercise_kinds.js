// The words of the exercises panel's newer kinds (features/exercises/kinds/), by id: lesson/text.js
// serves them, and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'exercises.design_your_row': 'The row your query gives, as the engine computed it:',
  'exercises.sketch_help':
    'Drag over the bars to draw the row (or focus a bar: ←/→ choose it, ↑/↓ set its height). Only the shape counts: the engine scales your bars to sum to 1.',
});
