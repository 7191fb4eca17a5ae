// The words of the efficient chapter's sketch (sketch_exercises.js beside this file), by id: lesson/text.js
// serves them, an author's or a translator's table may replace any of them. Loaded with the exercises.
import { addText } from '../../text.js';
import '../../exercises/sketch_text.js';

export { text } from '../../text.js';

addText({
  'exercise.efficient.sketch_key': 'pos {j}',
  'exercise.efficient.sketch_prompt':
    'A head reads the same token at {n} positions under a strided mask with stride s = {stride}: query i sees key j when j ≤ i and either i − j < s or i − j is a multiple of s. Draw the row of the last query (pos {query}). A total-variation distance up to {threshold} from the engine’s row counts as right.',
  'exercise.efficient.sketch_reveal':
    'The engine’s row: query {query} sees keys {keys}, {count} of them, and the tokens are identical, so each gets the same weight, {value}; every other key gets 0. Usual mistake: keeping only the window of the last s keys, or only the multiples of s; the strided pattern keeps both, which is how a far key stays reachable in few steps. ',
  'exercise.hint.efficient.sketch-strided':
    'List the keys the rule keeps for query {query}: the last few (i − j below the stride) and every key a whole number of strides back. Identical tokens score the same, so the kept keys share the row evenly.',
});
