// The words of the positions chapter's sketch (sketch_exercises.js beside this file), by id: lesson/text.js
// serves them, an author's or a translator's table may replace any of them. Loaded with the exercises.
import { addText } from '../../text.js';
import '../../exercises/sketch_text.js';

export { text } from '../../text.js';

addText({
  'exercise.positions.sketch_key': 'pos {j}',
  'exercise.positions.sketch_prompt':
    'A causal layer of {heads} heads reads the same token at {n} positions, with ALiBi. Its head 1 has the steepest slope of the {heads}: m = 2^(−8/{heads}). Draw the row of the last query (pos {query}) over its {n} keys. A total-variation distance up to {threshold} from the engine’s row counts as right.',
  'exercise.positions.sketch_reveal':
    'The engine’s row: the query’s own position takes {own}, the first position {first}. The tokens are identical, so only ALiBi’s penalty tells the keys apart: each step back costs m = {slope} of score, so each weight is {factor} times the one after it. Usual mistake: a straight line down, or all the weight on the query’s own token; the fall-off is geometric and reaches every key. ',
  'exercise.hint.positions.sketch-alibi':
    'The scores are equal except for ALiBi’s −m·(i − j). How much smaller does a weight get for every step back, when its score drops by m? (e^−m.)',
});
