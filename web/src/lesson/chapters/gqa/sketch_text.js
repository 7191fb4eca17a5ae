// The words of the GQA chapter's sketch (sketch_exercises.js beside this file), by id: lesson/text.js
// serves them, an author's or a translator's table may replace any of them. Loaded with the exercises.
import { addText } from '../../text.js';
import '../../exercises/sketch_text.js';

export { text } from '../../text.js';

addText({
  'exercise.gqa.sketch_prompt':
    'Query heads 1 and 2 form one group: they read the same key/value head, so the same {keys} keys. Head 1’s scaled scores q·k/√d_k over those keys are written under the bars. Head 2’s query is head 1’s with its sign flipped (−q). Draw head 2’s row: one bar per key, only their proportions count. A total-variation distance up to {threshold} from the engine’s row counts as right.',
  'exercise.gqa.sketch_reveal':
    'The engine’s row for head 2: the key head 1 scored {score} takes {value}. Flipping the query flips every score (−q·k = −(q·k)), so the key head 1 liked best (score {top}, weight {own} there) gets only {other} here. Shared keys and values do not mean a shared map: each query head still asks its own question. Usual mistake: drawing head 1’s row again because the keys are the same. ',
  'exercise.hint.gqa.sketch-shared-keys':
    'Work out head 2’s scores first: with the same keys and the query negated, each score changes sign. Then the softmax: the highest new score takes most of the row, one point lower gets about 0.37 of its weight.',
});
