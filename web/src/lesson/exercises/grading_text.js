// The words an exercise shows when it cannot be posed for the live layer (grading.js, in panels.js), by
// id: lesson/text.js serves them, an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'exercise.session.inputs_need_fixing_first': 'the inputs need fixing first ({field}: {message})',
  'exercise.session.engine_still_loading': 'the engine is still loading',
  'exercise.session.cannot_posed_this_layer': 'it cannot be posed for this layer ({message})',
});
