// The words the chapters' exercises share (helpers.js), by id: lesson/text.js serves them, an author's
// or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'exercise.common.built_look_previous_token': 'built to look at the previous token',
  'exercise.common.built_look_other_occurrences': 'built to look at other occurrences of the same word',
  'exercise.common.built_look_first_token': 'built to look at the first token',
  'exercise.common.built_spread_weight_evenly': 'built to spread its weight evenly',
  'exercise.common.random_seeded_not_built': 'random (seeded), not built for anything',
});
