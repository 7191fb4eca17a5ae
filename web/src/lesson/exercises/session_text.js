// The words an exercise shows when it cannot be posed yet (session.js), by id: lesson/text.js serves
// them, an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'exercise.session.exercises_could_not_loaded': 'the exercises could not be loaded ({message})',
  'exercise.session.exercises_are_loading': 'the exercises are loading',
  'exercise.session.inputs_need_fixing_first': 'the inputs need fixing first ({field}: {message})',
  'exercise.session.engine_still_loading': 'the engine is still loading',
  'exercise.session.cannot_posed_this_layer': 'it cannot be posed for this layer ({message})',
});
