// The words an exercise shows before its definitions arrive or when they could not be loaded
// (lazy_session.js), by id: lesson/text.js serves them, an author's or a translator's table may replace
// any of them. Those of an exercise that cannot be posed for the layer: grading_text.js.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'exercise.session.exercises_could_not_loaded': 'the exercises could not be loaded ({message})',
  'exercise.session.exercises_are_loading': 'the exercises are loading',
});
