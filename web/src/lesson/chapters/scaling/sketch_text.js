// The words of the √d_k chapter's sketch (sketch_exercises.js beside this file), by id: lesson/text.js serves
// them, an author's or a translator's table may replace any of them. Loaded with the exercises.
import { addText } from '../../text.js';
import '../../exercises/sketch_text.js';

export { text } from '../../text.js';

addText({
  'exercise.scaling.sketch_prompt':
    'One query’s scores q·k over {keys} keys at d_k = {d_k} are written under the bars. Draw the weights the softmax makes of them WITHOUT dividing by √d_k: one bar per key, only their proportions count. A total-variation distance up to {threshold} from the engine’s row counts as right.',
  'exercise.scaling.sketch_reveal':
    'The engine’s row: the key scored {score} takes {value}. Each point of score is worth a factor e ≈ 2.7 in weight, so a lead of one or two points already decides the row. Divided by √d_k = {root}, the same scores give at most {scaled}: the row spreads out again. Usual mistake: drawing the scores’ shape itself; the softmax exaggerates every gap exponentially. ',
  'exercise.hint.scaling.sketch-unscaled':
    'Each weight is e^score divided by the sum over the row. Compare every score with the largest: one point below gets about 0.37 of its weight, two below about 0.14, three below about 0.05.',
});
