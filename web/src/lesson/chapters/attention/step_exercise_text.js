// The words of the attention chapter's step sequence (step_exercises.js beside this file), by id: lesson/text.js
// serves them; an author's table may replace any of them. Loaded with the exercises, not with the first view.
import { addText } from '../../text.js';

export { text } from '../../text.js';

addText({
  'exercise.attention.step_prompt':
    'Follow one query of a tiny head by hand: d_k = {d_k}, {n_k} keys, d_v = {d_v}, q and the keys’ rows of K and V below. The table works the stages out; each of the {count} steps asks you for its next number. Each right answer hides more of the next stage’s worked numbers.',
  'exercise.hint.attention.follow-step': 'Work from the numbers in the table: each stage uses only the row above it.',
  'exercise.attention.step_hint.score': 'Multiply q and the key’s row coordinate by coordinate, then add the {d_k} products.',
  'exercise.attention.step_hint.scaled': 'Divide the score by √d_k, the square root of {d_k}, not by d_k itself.',
  'exercise.attention.step_hint.max': 'The largest of the scaled scores, not of the raw scores and not their sum.',
  'exercise.attention.step_hint.exp': 'Subtract the row’s max from this key’s scaled score first, then take e to that power: the result is at most 1.',
  'exercise.attention.step_hint.sum': 'Add the exponentials of every key, the max’s own exp(0) = 1 included.',
  'exercise.attention.step_hint.weight': 'Divide this key’s exponential by the sum of all of them.',
  'exercise.attention.step_hint.output': 'Multiply each key’s weight by that coordinate of its value row, and add the products over the keys.',
  'exercise.attention.step_reveal.score':
    'The engine’s score of key {at} is {value}: Σ_t q_t·k_t over the {d_k} coordinates. Usual mistake: adding the coordinates of q and k instead of multiplying them pairwise. ',
  'exercise.attention.step_reveal.scaled':
    'Scaled: {value}, the score × 1/√{d_k}. Usual mistake: dividing by d_k, which shrinks the scores far too much as d_k grows. ',
  'exercise.attention.step_reveal.max':
    'The row’s max is {value}. Subtracting it changes no weight (the same exp(−max) is in every term and in the sum) but keeps every exponential ≤ 1. Usual mistake: taking the max of the raw scores. ',
  'exercise.attention.step_reveal.exp':
    'exp(scaled − max) of key {at} is {value}. Usual mistake: forgetting to subtract the max, which gives the same weights in the end but a number that can overflow. ',
  'exercise.attention.step_reveal.sum':
    'The sum is {value}: every key’s exponential, the max’s own 1 included. Usual mistake: leaving out the term of the max. ',
  'exercise.attention.step_reveal.weight':
    'Weight of key {at}: {value}, its exponential ÷ {sum}. The weights of a row add up to 1. Usual mistake: dividing the scaled score, not its exponential. ',
  'exercise.attention.step_reveal.output':
    'Output coordinate {at}: {value} = Σ_j weight_j·v_j,{at}, a weighted mean of that coordinate of the values. Usual mistake: weighting the keys instead of the values. ',
});
