// The words of the training chapter's sketch (sketch_exercises.js beside this file), by id: lesson/text.js
// serves them, an author's or a translator's table may replace any of them. Loaded with the exercises.
import { addText } from '../../text.js';
import '../../exercises/sketch_text.js';

export { text } from '../../text.js';

addText({
  'exercise.training.sketch_key': 'pos {j}',
  'exercise.training.sketch_prompt':
    'Predict before you train: the lab’s model (task “two outputs: previous and first”, {heads} heads, {tokens} tokens per sample, positions counted from 0) trains for {steps} steps. One head ends up serving the output “the token just before”. Draw that head’s row for the query at pos {query}: one bar per key, only their proportions count. A total-variation distance up to {threshold} from the trained row counts as right.',
  'exercise.training.sketch_reveal':
    'The engine trained the model: head {head} serves that output, and its row for query {query} puts {value} on pos {best} (over the held-out samples it puts {mean} of its weight on the previous token). The answer is read from one place, so the head learns to look there and nearly nowhere else; the positional encoding is what lets it find the place. Usual mistake: spreading the weight over all earlier tokens, or putting it on the query itself. ',
  'exercise.hint.training.sketch-previous':
    'Which single position holds the token the output asks for? A trained head puts nearly all of its row on the place the answer is read from.',
});
