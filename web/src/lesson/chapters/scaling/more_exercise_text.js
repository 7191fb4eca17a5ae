// The words of more_exercises.js beside this file, by id (lesson/text.js serves them; an author's table
// may replace any of them). Loaded with the exercises, not with the first view.
import { addText } from '../../text.js';

export { text } from '../../text.js';

addText({
  // The hints after a first wrong answer (exercise.hint.<id>): what to look at or the usual mistake, never the answer.
  'exercise.hint.scaling.variance-wide':
    'q·k is a sum of d_k products, each of variance 1: how do the variances of independent terms add up?',
  'exercise.scaling.wide_prompt':
    'A wider head: q and k with d_k = {d_k} components, each drawn from N(0, 1). About what is the variance of q·k, before any scaling?',
  'exercise.scaling.wide_reveal':
    'Over its samples the core measures {value}: a sum of {d_k} products of variance 1 each has variance about d_k. Divided by √d_k it is {scaled}, about 1 at any width: that is why the scale is √d_k. Usual mistake: 1, or √d_k.',
});
