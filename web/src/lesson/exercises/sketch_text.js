// The words of the sketch exercises' shared parts (sketch_exercise.js), by id: lesson/text.js serves them, an
// author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'exercise.common.sketch_distance':
    'Your row and the engine\'s are compared by total-variation distance, half the sum of the gaps between the bars (0: the same row, 1: no overlap); up to {threshold} counts as right.',
});
